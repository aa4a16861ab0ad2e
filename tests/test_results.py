# SPDX-License-Identifier: GPL-2.0
"""The verdict of 'make test' (scripts/results.py) and its parsers (lsxlog).

The failure contract: every failing case is named, a listed suite or test
that never reported is a failure, any splat in the kernel log fails the
run, a hung or dead guest fails it, the last line is 'N passed, N failed,
N skipped' and the exit status is 1 on any failure.  Inputs are recorded
console logs (tests/data/console/) and variants of them.
"""

import gzip
import os
import subprocess
import sys

import pytest

from conftest import DATA, TOP
import lsxlog

RESULTS = os.path.join(TOP, 'scripts', 'results.py')

KUNIT = '''[    2.101000] KTAP version 1
[    2.101100] 1..2
[    2.102000]     KTAP version 1
[    2.102100]     # Subtest: freezer
[    2.102200]     # module: freezer_test
[    2.102300]     1..2
[    2.103000]     ok 1 freezer_skips_nofreeze
[    2.104000]         KTAP version 1
[    2.104100]         # Subtest: freezer_param
[    2.104200]         ok 1 zombies
[    2.104300]         ok 2 sleepers
[    2.104400]     # freezer_param: pass:2 fail:0 skip:0 total:2
[    2.104500]     ok 2 freezer_param
[    2.104600] # freezer: pass:2 fail:0 skip:0 total:2
[    2.104700] ok 1 freezer
[    2.105000]     KTAP version 1
[    2.105100]     # Subtest: dpm_async
[    2.105200]     1..3
[    2.105300]     ok 1 dpm_async_resume_children
[    2.105400]     ok 2 dpm_async_suspend_parent # SKIP no PM_SLEEP
[    2.105500]     {fail}ok 3 dpm_async_links
[    2.105600] # dpm_async: pass:1 fail:0 skip:1 total:3
[    2.105700] {sfail}ok 2 dpm_async
'''

KSFT = '''TAP version 13
1..2
# timeout set to 300
# selftests: freezer: freezer_test
# TAP version 13
# 1..2
# # Starting 2 tests from 1 test cases.
# #  RUN           global.zombies ...
# #            OK  global.zombies
# ok 1 global.zombies
# #  RUN           global.hibernate ...
# #      SKIP      no hibernation
# ok 2 global.hibernate # SKIP no hibernation
# # PASSED: 2 / 2 tests passed.
# # Totals: pass:1 fail:0 xfail:0 xpass:0 skip:1 error:0
ok 1 selftests: freezer: freezer_test
# timeout set to 300
# selftests: cgroup: test_freezer
# TAP version 13
# 1..2
# ok 1 test_cgfreezer_simple
# {kfail}ok 2 test_cgfreezer_tree
# # Totals: pass:1 fail:1 xfail:0 xpass:0 skip:0 error:0
{kpfail}ok 2 selftests: cgroup: test_freezer{kdir}
'''


def console(kfail=False, kpfail=False, timeout=False, splat='', cut=None, exit_line=True):
    """A console log like the guest's: boot, live TAP, then the copies."""
    k = KUNIT.format(fail='not ' if kfail else '', sfail='not ' if kfail else '')
    s = KSFT.format(kfail='not ' if kpfail else '', kpfail='not ' if kpfail else '',
                    kdir=' # TIMEOUT 300 seconds' if timeout else '')
    dmesg = ('[    0.000000] Linux version 6.12.117 (lsx@lsx) #1 SMP PREEMPT_DYNAMIC\n' +
             k + (splat + '\n' if splat else '') +
             '[   40.000000] random: crng init done\n')
    log = ('SeaBIOS\n' + dmesg.replace('[    2.', '[    3.') + 'LSX-USERSPACE-START mode=test\n' +
           s + 'LSX-KSFT-BEGIN\n' + s + 'LSX-KSFT-END\nLSX-DMESG-BEGIN\n' + dmesg +
           'LSX-DMESG-END\n' + ('LSX-EXIT 0\n' if exit_line else ''))
    if cut is not None:
        log = log[:log.index(cut)]
    return log


def verdict(tmp_path, log, status=0, suites=('freezer', 'dpm_async'),
            tests=('freezer:freezer_test', 'cgroup:test_freezer')):
    (tmp_path / 'console.log').write_text(log)
    (tmp_path / 'suites').write_text('# comment\n' + '\n'.join(suites) + '\n')
    (tmp_path / 'tests').write_text('\n'.join(tests) + '\n')
    p = subprocess.run([sys.executable, RESULTS, str(tmp_path / 'console.log'), str(status),
                        str(tmp_path / 'suites'), str(tmp_path / 'tests')],
                       capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout.splitlines()


def counts(last):
    words = last.replace(',', '').split()
    assert words[1::2] == ['passed', 'failed', 'skipped'], last
    return tuple(int(w) for w in words[0::2])


def test_good_run(tmp_path):
    rc, out = verdict(tmp_path, console())
    assert rc == 0, out
    # freezer: 3 cases (2 params + 1); dpm_async 3; freezer_test 2; test_freezer 2;
    # the kernel log check.
    assert counts(out[-1]) == (8, 0, 2)
    assert 'PASS  kernel log clean (no WARN, BUG, oops, lockdep or hung-task report)' in out


def test_failed_kunit_case_is_named(tmp_path):
    rc, out = verdict(tmp_path, console(kfail=True))
    assert rc == 1
    assert 'FAIL  kunit dpm_async: dpm_async_links failed' in out
    assert counts(out[-1])[1] == 1


def test_failed_kselftest_case_is_named(tmp_path):
    rc, out = verdict(tmp_path, console(kpfail=True))
    assert rc == 1
    assert 'FAIL  kselftest cgroup:test_freezer: test_cgfreezer_tree failed' in out


def test_failed_kselftest_case_output_is_quoted(tmp_path):
    """A CI log that keeps only the end still says why a case failed."""
    diag = ['# # 1 problem(s); freeze, pm_test=devices pm_async=1, 40 devices',
            '# # tree: seed=1 levels=4'] + ['# # operation %d' % i for i in range(30)]
    log = console(kpfail=True).replace(
        '# {0}ok 2 test_cgfreezer_tree'.format('not '),
        '\n'.join(diag) + '\n# not ok 2 test_cgfreezer_tree')
    rc, out = verdict(tmp_path, log)
    assert rc == 1
    start = out.index('----  kselftest cgroup:test_freezer: test_cgfreezer_tree printed:')
    quoted = out[start + 1:out.index('FAIL  kselftest cgroup:test_freezer: '
                                     'test_cgfreezer_tree failed')]
    assert quoted[0] == '      | # 1 problem(s); freeze, pm_test=devices pm_async=1, 40 devices'
    assert quoted[14] == '      | ... 14 line(s) left out'
    assert quoted[-1] == '      | # operation 29'
    assert len(quoted) == 19
    # The passing case's output is not quoted.
    assert not any('test_cgfreezer_simple printed' in l for l in out)


def test_kselftest_timeout_fails_with_its_directive(tmp_path):
    """A program killed by the runner's timeout, its cases all passed so far."""
    rc, out = verdict(tmp_path, console(kpfail=True, timeout=True).replace(
        '# not ok 2 test_cgfreezer_tree', '# ok 2 test_cgfreezer_tree'))
    assert rc == 1
    assert any('cgroup:test_freezer: failed (TIMEOUT 300 seconds)' in l for l in out), out


def test_listed_but_never_reported_is_a_failure(tmp_path):
    rc, out = verdict(tmp_path, console(), suites=('freezer', 'dpm_async', 'mmu_gather_swap'),
                      tests=('freezer:freezer_test', 'cgroup:test_freezer',
                             'swap_exit:swap_exit_test'))
    assert rc == 1
    assert 'FAIL  kunit mmu_gather_swap: never reported' in out
    assert 'FAIL  kselftest swap_exit:swap_exit_test: never reported' in out
    assert counts(out[-1])[1] == 2


SPLATS = [
    '[   12.000000] WARNING: CPU: 1 PID: 77 at kernel/power/process.c:120 '
    'try_to_freeze_tasks+0x1/0x2',
    '[   12.000000] ------------[ cut here ]------------',
    '[   12.000000] BUG: sleeping function called from invalid context at mm/slub.c:4100',
    '[   12.000000] BUG: KASAN: slab-use-after-free in dpm_async_fn+0x10/0x20',
    '[   12.000000] BUG: KCSAN: data-race in freeze_task / __thaw_task',
    '[   12.000000] BUG: KFENCE: use-after-free read in dpm_run_callback+0x1/0x2',
    '[   12.000000] Oops: general protection fault, probably for non-canonical address',
    '[   12.000000] Kernel panic - not syncing: hung_task: blocked tasks',
    '[   12.000000] WARNING: possible circular locking dependency detected',
    '[   12.000000] WARNING: possible recursive locking detected',
    '[   12.000000] WARNING: inconsistent lock state',
    '[   12.000000] WARNING: suspicious RCU usage',
    '[   12.000000] INFO: task kworker/u8:1:55 blocked for more than 60 seconds.',
    '[   12.000000] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [swapexit:90]',
    '[   12.000000] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:',
    '[   12.000000] UBSAN: shift-out-of-bounds in mm/swapfile.c:10:5',
    '[   12.000000] kernel BUG at mm/swapfile.c:1234!',
    '[   12.000000] Unable to handle kernel paging request at virtual address 0',
    '[   12.000000] Unbalanced pm_runtime_enable!',
]


@pytest.mark.parametrize('splat', SPLATS, ids=range(len(SPLATS)))
def test_every_kind_of_splat_fails_the_run(tmp_path, splat):
    rc, out = verdict(tmp_path, console(splat=splat))
    assert rc == 1
    first = [l for l in out if l.startswith('FAIL  kernel log:')]
    assert len(first) == 1 and splat.split('] ', 1)[1] in first[0], out
    assert lsxlog.splats([splat]) == [splat.strip()]


def kcsan_report(title, frames_a, frames_b):
    """A KCSAN report as the kernel prints it (6.12 layout)."""
    l = ['==================================================================',
         'BUG: KCSAN: data-race in ' + title, '',
         'write to 0xffff88807dc1e0a8 of 8 bytes by task 23 on cpu 1:']
    l += [' %s+0x44/0x80' % f for f in frames_a]
    l += ['', 'read to 0xffff88807dc1e0a8 of 8 bytes by task 1 on cpu 0:']
    l += [' %s+0x7b/0x120' % f for f in frames_b]
    l += ['', 'Reported by Kernel Concurrency Sanitizer on:',
          'CPU: 0 UID: 0 PID: 1 Comm: cat Not tainted 6.12.57-lsx #1',
          '==================================================================']
    return '\n'.join('[   12.%06d] %s' % (i, x) for i, x in enumerate(l))


def test_tolerated_kcsan_report_is_noted_not_failed(tmp_path):
    """config/kcsan-tolerated: the vm event counters' base-kernel race."""
    rep = kcsan_report('all_vm_events / count_vm_event_fold', ['count_vm_event_fold', 'do_swap_page'],
                       ['all_vm_events', 'vmstat_start', 'seq_read_iter'])
    rc, out = verdict(tmp_path, console(splat=rep))
    assert rc == 0, out
    assert any(l.startswith('NOTE  tolerated KCSAN report: data-race in all_vm_events / ')
               for l in out), out
    assert 'PASS  kernel log clean (no WARN, BUG, oops, lockdep or hung-task report)' in out


def test_tolerated_kcsan_report_in_series_code_fails(tmp_path):
    """The same race with a function the series changes in a stack fails."""
    rep = kcsan_report('all_vm_events / swap_exit_release', ['swap_exit_release', 'process_one_work'],
                       ['all_vm_events', 'vmstat_start'])
    rc, out = verdict(tmp_path, console(splat=rep))
    assert rc == 1
    bad = [l for l in out if l.startswith('FAIL  kernel log:')]
    assert len(bad) == 1 and bad[0].startswith('FAIL  kernel log: 1 splat line(s), first: ')
    assert bad[0].endswith('] BUG: KCSAN: data-race in all_vm_events / swap_exit_release'), out


def test_other_kcsan_report_fails(tmp_path):
    rep = kcsan_report('dpm_async_work_fn / dpm_async_start', ['dpm_async_start'], ['dpm_async_work_fn'])
    rc, out = verdict(tmp_path, console(splat=rep))
    assert rc == 1 and not any(l.startswith('NOTE') for l in out), out


def test_kcsan_rules_have_reasons():
    rules = lsxlog.kcsan_rules(os.path.join(TOP, 'config', 'kcsan-tolerated'))
    assert rules and all(len(reason) > 40 for _, reason in rules)


def test_series_functions_from_patches(tmp_path):
    p = tmp_path / '0001-x.patch'
    p.write_text('''diff --git a/mm/memory.c b/mm/memory.c
--- a/mm/memory.c
+++ b/mm/memory.c
@@ -10,6 +10,12 @@ static unsigned long zap_pte_range(struct mmu_gather *tlb,
+static bool swap_exit_wanted(struct mm_struct *mm)
+{
+	if (foo(mm))
+		return true;
+}
diff --git a/tools/testing/selftests/x/x.c b/tools/testing/selftests/x/x.c
@@ -1,3 +1,4 @@ static int helper(void)
+int main(void)
''')
    assert lsxlog.series_functions([str(p)]) == {'zap_pte_range', 'swap_exit_wanted'}


def test_harmless_lines_are_not_splats():
    ok = ['[    1.0] ACPI: bus type PCI registered', '[    2.0] Freezing user space processes',
          '# ok 3 test_warning_message_when_told', '[    3.0] workqueue: WARNING is a word']
    assert lsxlog.splats(ok) == []


def test_hung_guest(tmp_path):
    """The host's timeout: the run stops mid-kselftest, status 124."""
    rc, out = verdict(tmp_path, console(cut='# selftests: cgroup: test_freezer'), status=124)
    assert rc == 1
    assert 'FAIL  guest hung: no result before the host-side timeout' in out
    assert 'FAIL  kselftest cgroup:test_freezer: never reported' in out


def test_guest_died_truncated_log(tmp_path):
    """A panic mid-run: no marker sections, no exit line, status 125."""
    rc, out = verdict(tmp_path, console(cut='LSX-KSFT-BEGIN'), status=125)
    assert rc == 1
    assert 'FAIL  guest ended without a result (panic or reboot)' in out
    # Without the end-of-run copies the live TAP does not count.
    assert 'FAIL  kselftest freezer:freezer_test: never reported' in out


def test_runner_status(tmp_path):
    rc, out = verdict(tmp_path, console(), status=3)
    assert rc == 1 and 'FAIL  guest test runner exited with status 3' in out


def test_empty_log(tmp_path):
    rc, out = verdict(tmp_path, '', status=125)
    assert rc == 1
    assert counts(out[-1])[1] >= 5


def test_usage(tmp_path):
    p = subprocess.run([sys.executable, RESULTS], capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.startswith('usage:')


def recorded():
    d = os.path.join(DATA, 'console')
    return sorted(f for f in os.listdir(d) if f.endswith('.log.gz')) if os.path.isdir(d) else []


@pytest.mark.parametrize('name', recorded())
def test_recorded_console(tmp_path, name):
    """A real 'make test' console log: every listed suite and test is found.

    The file's first line says '# lsx-expect passed=N failed=N skipped=N
    status=N' (the guest's status), and a line '# lsx-expect-fail TEXT'
    names each failure the verdict must list, in order.  A line
    '# lsx-kselftests A B ...' gives the kselftests listed when the log was
    recorded (guest/kselftests may list more since), and a line
    '# lsx-kunit-suites A B ...' the KUnit suites (guest/kunit-suites).
    """
    with gzip.open(os.path.join(DATA, 'console', name), 'rt', errors='replace') as f:
        log = f.read()
    want = dict(kv.split('=') for kv in log.splitlines()[0].split()[2:])
    top = os.path.join(TOP, 'guest')
    ksft = os.path.join(top, 'kselftests')
    suites = os.path.join(top, 'kunit-suites')
    for l in log.splitlines()[:10]:
        if l.startswith('# lsx-kselftests '):
            ksft = str(tmp_path / 'kselftests')
            with open(ksft, 'w') as f:
                f.write('\n'.join(l.split()[2:]) + '\n')
        if l.startswith('# lsx-kunit-suites '):
            suites = str(tmp_path / 'kunit-suites')
            with open(suites, 'w') as f:
                f.write('\n'.join(l.split()[2:]) + '\n')
    (tmp_path / 'console.log').write_text(log)
    p = subprocess.run([sys.executable, RESULTS, str(tmp_path / 'console.log'),
                        want.get('status', '0'), suites, ksft], capture_output=True, text=True, timeout=60)
    out = p.stdout.splitlines()
    assert counts(out[-1]) == (int(want['passed']), int(want['failed']), int(want['skipped']))
    fails = [l[len('# lsx-expect-fail '):] for l in log.splitlines()[:10]
             if l.startswith('# lsx-expect-fail ')]
    assert [l[6:] for l in out if l.startswith('FAIL  ') and ' passed, ' not in l] == fails
    assert p.returncode == (1 if int(want['failed']) else 0)
