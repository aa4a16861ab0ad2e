# SPDX-License-Identifier: GPL-2.0
"""scripts/bench.py: judging a boot, and the failure contract of a run.

A failed boot is retried once and said so (terminal, results.csv's
'retried' column, run.json); a second failure stops that benchmark with
its one-line cause and log while the other benchmarks go on; results.csv
and run.json are written after every benchmark; the exit status is 1 at
the end if any benchmark failed.  The QEMU runner is replaced by
tests/fake-vm.sh, which plays a plan of boot outcomes.  A boot during
which the host was busy with something else is run again, up to twice,
and said so.
"""

import csv
import json
import os
import subprocess
import sys

import pytest

from conftest import TOP
import bench

FAKE = os.path.join(TOP, 'tests', 'fake-vm.sh')


def quiet_host(tmp_path):
    """A stand-in for /proc/stat that only fake-vm.sh's 'busy' boots move."""
    stat = tmp_path / 'stat'
    stat.write_text('cpu  1000 0 1000 100000 0 0 0 0 0 0\ncpu0 500 0 500 50000 0 0 0 0 0 0\n')
    return str(stat)


def lines(*extra, status='LSX-EXIT 0'):
    return (['LSX-USERSPACE-START mode=bench'] + list(extra) +
            ['LSX-DMESG-BEGIN', '[    0.000000] Linux version 6.12.117 (lsx@lsx) #1 SMP',
             'LSX-DMESG-END', status])


def test_judge_good_boot():
    s, tl, ver = bench.judge_boot(lines('LSX-BENCH zombies-0 freeze_total_us us 1368.5',
                                        'LSX-TIMELINE-BEGIN', 'case deep', 'LSX-TIMELINE-END'),
                                  0, 300)
    assert s == [('zombies-0', 'freeze_total_us', 'us', 1368.5)]
    assert tl == [['case deep']]
    assert ver == 'Linux version 6.12.117 (lsx@lsx) #1 SMP'


@pytest.mark.parametrize('extra,rc,cause', [
    (['LSX-ERROR freezer: sleepers-1000: trace lacks freeze_processes()'], 1,
     'freezer: sleepers-1000: trace lacks freeze_processes()'),
    (['LSX-BENCH a b us 1'], 124, 'guest hung (no result in 300 s)'),
    (['LSX-BENCH a b us 1'], 125, 'guest failed with status 125'),
    ([], 0, 'the benchmark produced no number'),
])
def test_judge_bad_boot(extra, rc, cause):
    with pytest.raises(bench.BootError) as e:
        bench.judge_boot(lines(*extra), rc, 300)
    assert str(e.value) == cause


def test_judge_splat_in_dmesg():
    l = lines('LSX-BENCH a b us 1')
    l.insert(l.index('LSX-DMESG-END'), '[    5.000000] WARNING: CPU: 0 PID: 1 at mm/swap.c:1 f')
    with pytest.raises(bench.BootError) as e:
        bench.judge_boot(l, 0, 300)
    assert str(e.value) == 'kernel splat: [    5.000000] WARNING: CPU: 0 PID: 1 at mm/swap.c:1 f'


def run_bench(tmp_path, plan, benches=('freezer', 'cgroup-freezer'), reps=2, extra=()):
    (tmp_path / 'plan').write_text('\n'.join(plan) + '\n')
    out = tmp_path / 'out'
    env = dict(os.environ, LSX_RUN_VM=FAKE, FAKE_VM_PLAN=str(tmp_path / 'plan'), INNER='1',
               LSX_PROC_STAT=quiet_host(tmp_path))
    p = subprocess.run([sys.executable, os.path.join(TOP, 'scripts', 'bench.py'),
                        '--out', str(out), '--reps', str(reps), '--baseline', 'k/baseline',
                        '--patched', 'k/patched', '--initrd', 'i', '--command', 'make test-x']
                       + list(extra) + list(benches), capture_output=True, text=True, env=env, timeout=120)
    with open(out / 'results.csv') as f:
        rows = list(csv.DictReader(f))
    with open(out / 'run.json') as f:
        run = json.load(f)
    return p, rows, run


def test_all_good(tmp_path):
    p, rows, run = run_bench(tmp_path, ['ok'] * 8)
    assert p.returncode == 0, p.stdout + p.stderr
    assert [b['status'] for b in run['benchmarks']] == ['ok', 'ok']
    assert {r['benchmark'] for r in rows} == {'freezer', 'cgroup-freezer'}
    assert all(r['runs'] == '2' and r['retried'] == '0' for r in rows)
    b = run['benchmarks'][0]
    assert b['rows'][0][:3] == ['c1', 'm_us', 'us'] and b['rows'][0][5] == '0.52'
    assert run['env']['kernels']['patched'].startswith('Linux version 6.12.117 (k/patched)')
    assert run['command'] == 'make test-x' and b['chart'] == 'freezer.png'
    assert (tmp_path / 'out' / 'freezer.png').exists()


def test_every_timeline_of_the_first_boot_is_drawn(tmp_path):
    # two sections a boot, one chart per case and kernel, the first boot's
    p, rows, run = run_bench(tmp_path, ['timelines'] * 4, benches=('freezer',))
    assert p.returncode == 0, p.stdout + p.stderr
    tl = run['benchmarks'][0]['timelines']
    assert tl == {'%s, %s' % (c, k): 'freezer-timeline-%s-%s.png' % (c, k)
                  for c in ('wide-async', 'fanout-async') for k in ('baseline', 'patched')}
    for f in tl.values():
        assert (tmp_path / 'out' / f).stat().st_size > 0
    txt = (tmp_path / 'out' / 'freezer-timeline-fanout-async-patched.txt').read_text()
    assert txt.startswith('case fanout-async 2 devices\n')


def test_step_kernels_give_a_per_patch_table(tmp_path):
    # freezer has one kernel in between (patch 0002): three kernels a rep,
    # the order reversed on the second rep; cgroup-freezer has none.
    p, rows, run = run_bench(tmp_path, ['ok'] * 10,
                             extra=['--step', 'freezer=0002=k/step-freezer-1'])
    assert p.returncode == 0, p.stdout + p.stderr
    calls = [l.split()[0] for l in (tmp_path / 'plan.calls').read_text().splitlines()]
    assert calls[:6] == ['k/baseline', 'k/step-freezer-1', 'k/patched',
                         'k/patched', 'k/step-freezer-1', 'k/baseline']
    assert calls[6:] == ['k/baseline', 'k/patched', 'k/patched', 'k/baseline']
    f, c = run['benchmarks']
    assert 'steps' not in c
    st = f['steps']
    assert st['columns'] == ['case', 'metric', 'unit', 'baseline', 'upto-0002 (ratio)',
                             'patched']
    assert st['rows'][1] == ['c2', 'm_us', 'us', '20.0', '16.0 (0.80)', '10.0 (0.50)']
    assert list(st['kernels']) == ['upto-0002']
    assert {r['kernel'] for r in rows if r['benchmark'] == 'freezer'} == {
        'baseline', 'upto-0002', 'patched'}
    assert 'freezer, patch by patch (ratio to the baseline):' in p.stdout
    # The main table still compares the baseline with the whole series.
    assert f['rows'][1][3:6] == ['20.0 (20.0-20.0)', '10.0 (10.0-10.0)', '0.50']


def test_one_failure_is_retried(tmp_path):
    p, rows, run = run_bench(tmp_path, ['ok', 'error', 'ok', 'ok', 'ok'] + ['ok'] * 4)
    assert p.returncode == 0, p.stdout
    assert 'FAILED: freezer on patched: freezer: c1: trace lacks freeze_processes()' in p.stdout
    assert 'retrying this boot once' in p.stdout
    b = run['benchmarks'][0]
    assert b['status'] == 'ok' and b['boots'] == 4
    assert b['retries'] == [{'kernel': 'patched', 'rep': 1,
                             'cause': 'freezer on patched: freezer: c1: trace lacks '
                                      'freeze_processes()',
                             'log': os.path.relpath(str(tmp_path / 'out' / 'logs' /
                                                        'freezer-patched-0.log'), TOP)}]
    r = {(x['benchmark'], x['kernel']): x for x in rows if x['case'] == 'c1'}
    assert r[('freezer', 'patched')]['retried'] == '1' and r[('freezer', 'patched')]['runs'] == '2'
    assert r[('freezer', 'baseline')]['retried'] == '0'
    assert (tmp_path / 'out' / 'logs' / 'freezer-patched-0-retry.log').exists()


def test_boot_on_a_busy_host_is_run_again(tmp_path):
    # freezer rep 1: the baseline boot finds the host busy and is run
    # again; the samples of the second attempt count, the first are dropped.
    p, rows, run = run_bench(tmp_path, ['busy', 'ok'] + ['ok'] * 7)
    assert p.returncode == 0, p.stdout + p.stderr
    f = run['benchmarks'][0]
    assert f['boots'] == 4 and f['retries'] == []
    assert len(f['busy']) == 1
    assert f['busy'][0]['kernel'] == 'baseline' and f['busy'][0]['rep'] == 1
    assert f['busy'][0]['cpus'] > 1 and f['busy'][0]['kept'] is False
    assert run['benchmarks'][1]['busy'] == []
    assert 'freezer rep 1 on baseline: booting again on a quieter host' in p.stdout
    assert 'host busy: freezer rep 1 on baseline: ' in p.stdout
    assert all(r['runs'] == '2' for r in rows)
    logs = tmp_path / 'out' / 'logs'
    assert (logs / 'freezer-baseline-0.log').exists()
    assert (logs / 'freezer-baseline-0-busy1.log').exists()


def test_boot_busy_three_times_is_kept(tmp_path):
    p, rows, run = run_bench(tmp_path, ['busy'] * 3 + ['ok'] * 7)
    assert p.returncode == 0, p.stdout + p.stderr
    f = run['benchmarks'][0]
    assert [(b['kernel'], b['kept']) for b in f['busy']] == [
        ('baseline', False), ('baseline', False), ('baseline', True)]
    assert 'kept, the host was busy on all 3 attempts' in p.stdout
    assert f['boots'] == 4 and all(r['runs'] == '2' for r in rows)
    assert (tmp_path / 'out' / 'logs' / 'freezer-baseline-0-busy2.log').exists()


@pytest.mark.parametrize('bad', ['error', 'hang', 'splat', 'dead', 'empty'])
def test_second_failure_stops_that_benchmark_only(tmp_path, bad):
    # freezer: rep 1 baseline ok, patched fails twice; cgroup-freezer: all good.
    p, rows, run = run_bench(tmp_path, ['ok', bad, bad] + ['ok'] * 4)
    assert p.returncode == 1
    f, c = run['benchmarks']
    assert f['status'] == 'failed' and f['cause'].startswith('freezer on patched: ')
    assert f['log'].endswith('freezer-patched-0-retry.log')
    assert c['status'] == 'ok' and c['boots'] == 4
    # What freezer measured before it failed is kept, on the baseline only.
    assert {(r['benchmark'], r['kernel']) for r in rows} == {
        ('freezer', 'baseline'), ('cgroup-freezer', 'baseline'), ('cgroup-freezer', 'patched')}
    assert f['rows'] and all(r[4] == '-' for r in f['rows'])
    last = p.stdout.strip().splitlines()[-1]
    assert last.startswith('error: benchmark freezer failed: freezer on patched: ')
    assert 'cgroup-freezer' in p.stdout.split('all benchmarks of this run:')[1]


def test_metric_on_one_kernel_only_fails_the_benchmark(tmp_path):
    p, rows, run = run_bench(tmp_path, ['onekernel'] * 4, benches=('freezer',))
    assert p.returncode == 1
    assert run['benchmarks'][0]['cause'] == 'freezer c3 only_us: no samples on the patched kernel'


def test_results_written_after_each_benchmark(tmp_path):
    """A run killed during the second benchmark keeps the first one's numbers."""
    (tmp_path / 'plan').write_text('ok\n' * 4 + 'hang\n')
    out = tmp_path / 'out'
    env = dict(os.environ, LSX_RUN_VM=os.path.join(TOP, 'tests', 'fake-vm-stop.sh'),
               FAKE_VM_PLAN=str(tmp_path / 'plan'), INNER='1', LSX_PROC_STAT=quiet_host(tmp_path))
    with open(tmp_path / 'stop.sh', 'w') as f:
        f.write('#!/bin/bash\n[ "$(cat $FAKE_VM_PLAN.n 2>/dev/null)" = 4 ] && '
                'kill -9 $PPID\nexec %s "$@"\n' % FAKE)
    os.chmod(tmp_path / 'stop.sh', 0o755)
    env['LSX_RUN_VM'] = str(tmp_path / 'stop.sh')
    p = subprocess.run([sys.executable, os.path.join(TOP, 'scripts', 'bench.py'),
                        '--out', str(out), '--reps', '2', '--baseline', 'k/baseline',
                        '--patched', 'k/patched', '--initrd', 'i', 'freezer', 'dpm-async'],
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == -9
    with open(out / 'results.csv') as f:
        assert {r['benchmark'] for r in csv.DictReader(f)} == {'freezer'}
    with open(out / 'run.json') as f:
        assert [b['name'] for b in json.load(f)['benchmarks']] == ['freezer']


def test_rows_of_other_benchmarks_are_kept(tmp_path):
    run_bench(tmp_path, ['ok'] * 4, benches=('freezer',))
    (tmp_path / 'plan.n').unlink()
    p, rows, run = run_bench(tmp_path, ['ok'] * 4, benches=('swap-exit',))
    assert {r['benchmark'] for r in rows} == {'freezer', 'swap-exit'}
    assert [b['name'] for b in run['benchmarks']] == ['freezer', 'swap-exit']


def row(case, metric, kernel, median, lo=None, hi=None):
    return {'benchmark': 'b', 'case': case, 'kernel': kernel, 'metric': metric, 'unit': 'MiB',
            'median': median, 'min': median if lo is None else lo,
            'max': median if hi is None else hi, 'runs': 2, 'retried': 0}


def test_goal_bound_takes_the_worst_sample():
    # goal-bound: the patched max of the metric against the patched min of
    # the bounding metric of the same case; a median under the bound with
    # one sample over it is missed, and so is a case without the bound.
    m = dict(bench.meta('freezer'), goals=[], vs=[], limits=[],
             bounds=[('c1', 'peak', 'bound'), ('c2', 'peak', 'bound'),
                     ('c3', 'peak', 'bound')])
    rows = [row('c1', 'peak', 'baseline', 0), row('c1', 'peak', 'patched', 800, 700, 1536),
            row('c1', 'bound', 'baseline', 0), row('c1', 'bound', 'patched', 1536),
            row('c2', 'peak', 'baseline', 0), row('c2', 'peak', 'patched', 800, 700, 1600),
            row('c2', 'bound', 'baseline', 0), row('c2', 'bound', 'patched', 1536),
            row('c3', 'peak', 'baseline', 0), row('c3', 'peak', 'patched', 0)]
    out, problems, met, missed = bench.table_rows('b', m, rows)
    goal = {(r[0], r[1]): r[7] for r in out}
    assert goal[('c1', 'peak')] == 'max 1536 <= bound 1536 met'
    assert goal[('c2', 'peak')] == 'max 1600 <= bound 1536 MISSED'
    assert goal[('c3', 'peak')] == 'max 0.00 <= bound - MISSED'
    assert goal[('c1', 'bound')] == ''
    assert (met, missed) == (1, 2) and problems == []


def test_meta_reads_goal_bound(tmp_path, monkeypatch):
    (tmp_path / 'bench' / 'x').mkdir(parents=True)
    (tmp_path / 'bench' / 'x' / 'meta').write_text(
        'title=X\ngoal-bound c1 peak bound  # the bound\nlimit c1 peak 5\n')
    monkeypatch.setattr(bench, 'TOP', str(tmp_path))
    m = bench.meta('x')
    assert m['bounds'] == [('c1', 'peak', 'bound')] and m['limits'] == [('c1', 'peak', 5.0)]


def test_real_machine_boots_q35_with_fresh_disks(tmp_path):
    # bench/real-sleep/meta: machine=real and cmdline= reach run-vm.sh
    p, rows, run = run_bench(tmp_path, ['ok'] * 2, benches=('real-sleep',), reps=1)
    assert p.returncode == 0, p.stdout + p.stderr
    calls = (tmp_path / 'plan.calls').read_text().splitlines()
    assert len(calls) == 2
    disks = tmp_path / 'out' / 'disks-real-sleep'
    for c in calls:
        assert ' machine=real disks=%s ' % disks in c, c
        assert 'lsx.bench=real-sleep' in c and c.endswith('no_console_suspend hpet=disable')
    assert sorted(os.listdir(disks)) == ['ahci.img', 'usb.img', 'virtio.img']
    assert (disks / 'virtio.img').read_bytes()[510:512] == b'\x55\xaa'


def test_meta_refuses_an_unknown_machine(tmp_path, monkeypatch):
    (tmp_path / 'bench' / 'x').mkdir(parents=True)
    (tmp_path / 'bench' / 'x' / 'meta').write_text('machine=arm\n')
    monkeypatch.setattr(bench, 'TOP', str(tmp_path))
    with pytest.raises(SystemExit):
        bench.boot('x', 'baseline', 'k', 'i', str(tmp_path), 0, bench.meta('x'))
