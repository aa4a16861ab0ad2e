#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run benchmarks on the baseline and patched bench kernels, interleaved.

usage: bench.py --out DIR --reps N --baseline BZIMAGE --patched BZIMAGE
                [--step BENCH=NNNN=BZIMAGE ...]
                --initrd INITRAMFS [--command TEXT] BENCH [BENCH ...]

Each repetition boots both kernels, the order alternating between
repetitions; a benchmark with --step kernels (the kernels in between,
with its topic's patches up to patch NNNN: 'upto-NNNN') boots those too,
between the two, and gets a per-patch table next to its main one; each boot runs the benchmark's guest script, which prints
'LSX-BENCH case metric unit value' lines.  A meta with 'machine=real' boots
the q35 machine of make real-sleep (run-vm.sh LSX_MACHINE=real, blank
disks made for every boot) instead of the bare PC; 'cmdline=...' adds
kernel arguments.  For every benchmark, case,
kernel and metric the samples of all boots are reduced to median, min and
max.  A guest that prints a device callback timeline between
LSX-TIMELINE-BEGIN and LSX-TIMELINE-END (a 'case CASE' line first; one
such section per case charted) also gets DIR/NAME-timeline-CASE-KERNEL.png
(and .txt) from its first boot on each kernel.

A boot that fails (LSX-ERROR, hang, splat, bad status, no number) is
retried once; a second failure stops that benchmark with its one-line
cause and log, and the next benchmark goes on.  After every benchmark
DIR/results.csv and DIR/run.json (the report's input, see report.py) are
rewritten with everything measured so far, merged with the rows of
benchmarks not run this time, and its table is printed; at the end the
table of the whole run.  Exit status 1 if any benchmark failed.

Numbers are only as good as the host is quiet: the guests run under TCG
on the host's CPUs, so a build or a test suite running next to a boot
slows its guest down unevenly.  For every boot the CPU time the host
spent on anything but that boot's QEMU (and this script) is taken from
/proc/stat and from the boot's own resource usage; when it averages more
than LSX_BUSY_CPUS CPUs (default 0.25) over the boot, the boot is run
again, up to twice, and the last attempt is kept.  Each such boot is
listed in run.json ('busy') and at the end of the run, with the load.
"""

import argparse
import csv
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsxlog  # noqa: E402
import timeline  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = ('baseline', 'patched')
HEADER = ['benchmark', 'case', 'kernel', 'metric', 'unit', 'median', 'min', 'max', 'runs',
          'retried']
COLUMNS = ['case', 'metric', 'unit', 'baseline median (min-max)', 'patched median (min-max)',
           'ratio', 'runs', 'goal']


def die(msg):
    print('error: ' + msg, file=sys.stderr)
    sys.exit(1)


def meta(name):
    path = os.path.join(TOP, 'bench', name, 'meta')
    m = {'title': name, 'timeout': '300', 'inner': '1', 'goals': [], 'vs': [], 'limits': [],
         'bounds': []}
    if not os.path.exists(path):
        die('no benchmark %s (bench/%s/meta missing)' % (name, name))
    with open(path) as f:
        for l in f:
            l = l.split('#')[0].strip()
            if not l:
                continue
            if l.startswith('goal '):
                _, case, metric, ratio = l.split()
                m['goals'].append((case, metric, float(ratio)))
            elif l.startswith('goal-vs '):
                # (case, metric, other case, other metric, label, max)
                _, case, metric, other, ratio = l.split()
                m['vs'].append((case, metric, other, metric, other, float(ratio)))
            elif l.startswith('goal-metric '):
                _, case, metric, other, ratio = l.split()
                m['vs'].append((case, metric, case, other, other, float(ratio)))
            elif l.startswith('goal-bound '):
                # (case, metric, the metric of the same case that bounds it)
                _, case, metric, other = l.split()
                m['bounds'].append((case, metric, other))
            elif l.startswith('limit '):
                _, case, metric, most = l.split()
                m['limits'].append((case, metric, float(most)))
            elif '=' in l:
                k, v = l.split('=', 1)
                m[k.strip()] = v.strip()
    if m.get('machine', 'pc') not in ('pc', 'real'):
        die('bench/%s/meta: machine=%s: the machines are pc and real' % (name, m['machine']))
    return m


class BootError(Exception):
    """A boot that gave no usable result; str() is the one-line cause."""

    def __init__(self, cause, log):
        super().__init__(cause)
        self.log = log


def judge_boot(lines, rc, timeout):
    """The samples of one boot's console @lines and QEMU status @rc.

    Returns (samples, [timeline lines, one list per section], 'Linux version'
    line or '');
    raises BootError (without a log path) for a boot that must not count.
    """
    for l in lines:
        if l.startswith('LSX-ERROR'):
            raise BootError(l[10:].strip(), None)
    if rc == 124:
        raise BootError('guest hung (no result in %s s)' % timeout, None)
    klog = lsxlog.kernel_log(lines)
    bad = lsxlog.splats(klog)
    if bad:
        raise BootError('kernel splat: %s' % bad[0], None)
    if rc != 0:
        raise BootError('guest failed with status %d' % rc, None)
    s = lsxlog.bench_samples(lines)
    if not s:
        raise BootError('the benchmark produced no number', None)
    version = next((lsxlog.TS.sub('', l) for l in klog if 'Linux version ' in l), '')
    return s, lsxlog.sections(lines, 'LSX-TIMELINE-BEGIN', 'LSX-TIMELINE-END'), version


BUSY_RETRIES = 2


def host_busy_seconds():
    """CPU seconds the host has spent busy since boot (/proc/stat, all CPUs).

    LSX_PROC_STAT names another file in the same format (the harness's
    own tests)."""
    with open(os.environ.get('LSX_PROC_STAT') or '/proc/stat') as f:
        v = [int(x) for x in f.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal (guest time is in user)
    busy = sum(v[:8]) - v[3] - v[4]
    return busy / os.sysconf('SC_CLK_TCK')


def own_seconds():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def boot(name, kernel, image, initrd, out, rep, m, attempt=0, busy_try=0):
    """One boot: (samples, timelines, version, other CPUs busy on the host)."""
    log = os.path.join(out, 'logs', '%s-%s-%d%s%s.log' % (
        name, kernel, rep, '-retry' if attempt else '', '-busy%d' % busy_try if busy_try else ''))
    # LSX_RUN_VM: a stand-in for run-vm.sh (the harness's own tests).
    vm = os.environ.get('LSX_RUN_VM') or os.path.join(TOP, 'scripts', 'run-vm.sh')
    args = [vm, image, initrd, log, m['timeout'],
            'lsx.mode=bench', 'lsx.bench=' + name,
            'lsx.reps=' + (os.environ.get('INNER') or m['inner']), 'quiet'] + \
        m.get('cmdline', '').split()
    env = dict(os.environ)
    waker = None
    if m.get('machine') == 'real':
        # the q35 machine of make real-sleep, with blank disks every boot,
        # and its waker: an S3 that outlasts REAL_SLEEP_S3_LIMIT is ended
        # through QMP and logged, instead of hanging the boot
        disks = os.path.join(out, 'disks-' + name)
        d = subprocess.run([os.path.join(TOP, 'scripts', 'real-sleep.sh'), 'disks', disks],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if d.returncode:
            raise BootError('%s on %s: cannot make the disks: %s' % (
                name, kernel, d.stderr.strip()), log)
        env.update(LSX_MACHINE='real', LSX_DISKS=disks)
        if not os.environ.get('LSX_RUN_VM'):
            waker = subprocess.Popen([sys.executable, os.path.join(TOP, 'scripts', 'qmp-waker.py'),
                                      os.path.join(disks, 'qmp.sock'), log, log + '.waker'],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t0, h0, o0 = time.time(), host_busy_seconds(), own_seconds()
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = rc = os.waitstatus_to_exitcode(status)
    if waker:
        try:
            waker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            waker.kill()
            waker.wait()
        with open(log + '.waker', errors='replace') as f:
            bad = [l.strip() for l in f if l.startswith(('LSX-WAKER-ERROR', 'LSX-WAKER-FORCED'))]
        if bad:
            raise BootError('%s on %s: %s' % (name, kernel, bad[0]), log)
    wall = max(time.time() - t0, 1e-3)
    # ru covers run-vm.sh and everything it waited for, QEMU included.
    other = host_busy_seconds() - h0 - (ru.ru_utime + ru.ru_stime) - (own_seconds() - o0)
    busy = max(other, 0.0) / wall
    lines = lsxlog.read(log) if os.path.exists(log) else []
    try:
        s, tl, version = judge_boot(lines, rc, m['timeout'])
    except BootError as e:
        raise BootError('%s on %s: %s' % (name, kernel, e), log) from None
    print('[%s] %s rep %d on %s: %d samples in %.0f s%s' % (
        time.strftime('%H:%M:%S'), name, rep + 1, kernel, len(s), wall,
        '; host busy with %.2f CPUs besides the guest' % busy if busy > busy_limit() else ''),
        flush=True)
    return s, tl, version, busy


def busy_limit():
    return float(os.environ.get('LSX_BUSY_CPUS') or 0.25)


def draw_timeline(name, kernel, lines, out):
    """DIR/NAME-timeline-CASE-KERNEL.txt and .png from a boot's timeline lines
    (DIR/NAME-timeline-KERNEL.* if they name no case)."""
    case = timeline.parse(lines)[0]
    base = os.path.join(out, '%s-timeline-%s%s' % (name, case + '-' if case else '', kernel))
    with open(base + '.txt', 'w') as f:
        f.write('\n'.join(lines) + '\n')
    if timeline.render(lines, base + '.png', '%s %s on the %s kernel' % (name, case, kernel)):
        return base + '.png'
    return None


def fmt(v):
    if v >= 100:
        return '%.0f' % v
    if v >= 10:
        return '%.1f' % v
    return '%.2f' % v


def kernel_order(names):
    """baseline, the step kernels by patch number, patched."""
    steps = sorted(n for n in names if n not in KERNELS)
    return [k for k in ('baseline',) if k in names] + steps + \
        [k for k in ('patched',) if k in names]


def chart(name, title, rows, path):
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        print('warning: python3-matplotlib missing, no chart for %s' % name, file=sys.stderr)
        return False
    keys = sorted({(r['case'], r['metric'], r['unit']) for r in rows},
                  key=lambda k: (k[1], k[0]))
    kernels = kernel_order({r['kernel'] for r in rows})
    width = 0.76 / len(kernels)
    colors = ['#8c8c8c', '#f0a040', '#60b060', '#b070c0', '#d05050'][:len(kernels) - 1] + \
        ['#2b7bb9']
    metrics = sorted({k[1] for k in keys})
    fig, axes = plt.subplots(len(metrics), 1, figsize=(9, 2.8 * len(metrics)), squeeze=False)
    for ax, metric in zip(axes[:, 0], metrics):
        ks = [k for k in keys if k[1] == metric]
        for i, kern in enumerate(kernels):
            med, lo, hi = [], [], []
            for k in ks:
                r = next((r for r in rows if (r['case'], r['metric'], r['unit']) == k
                          and r['kernel'] == kern), None)
                med.append(r['median'] if r else 0)
                lo.append(r['median'] - r['min'] if r else 0)
                hi.append(r['max'] - r['median'] if r else 0)
            x = [j + (i - (len(kernels) - 1) / 2) * width for j in range(len(ks))]
            ax.bar(x, med, width, yerr=[lo, hi], capsize=3, label=kern,
                   color=colors[i % len(colors)])
        ax.set_xticks(range(len(ks)))
        ax.set_xticklabels([k[0] for k in ks])
        ax.set_ylabel('%s (%s)' % (metric, ks[0][2]))
        # Cases a hundred times apart: a log scale keeps the small ones visible.
        pos = [r['min'] for r in rows if r['metric'] == metric and r['min'] > 0]
        if pos and max(r['max'] for r in rows if r['metric'] == metric) > 100 * min(pos):
            ax.set_yscale('log')
        ax.legend(fontsize=8)
    fig.suptitle('%s: median, min-max bars' % title)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def patch_subject(num):
    """The subject of patches/NNNN-*.patch, or ''."""
    d = os.path.join(TOP, 'patches')
    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if f.startswith(num + '-') and f.endswith('.patch'):
            with open(os.path.join(d, f)) as fh:
                subj = None
                for l in fh:
                    if subj is not None:
                        if not l.startswith(' '):
                            return subj
                        subj += ' ' + l.strip()
                    elif l.startswith('Subject:'):
                        subj = l.split(']', 1)[-1].strip()
                return subj or ''
    return ''


def step_rows(rows, kernels):
    """The per-patch table: every case/metric's median on each kernel and its
    ratio to the baseline's; columns case, metric, unit, then the kernels."""
    out = []
    for case, metric, unit in sorted({(r['case'], r['metric'], r['unit']) for r in rows}):
        got = {r['kernel']: r for r in rows if (r['case'], r['metric']) == (case, metric)}
        base = got.get('baseline')
        cells = []
        for k in kernels:
            r = got.get(k)
            if not r:
                cells.append('-')
            elif k == 'baseline' or not base or not base['median']:
                cells.append(fmt(r['median']))
            else:
                cells.append('%s (%.2f)' % (fmt(r['median']), r['median'] / base['median']))
        out.append([case, metric, unit] + cells)
    return out


def table_rows(name, m, rows):
    """The printed table of one benchmark: (rows, problems, met, missed).

    A row is (case, metric, unit, baseline, patched, ratio, runs, goal);
    a case/metric measured on one kernel only is a problem.
    """
    out, problems, met, missed = [], [], 0, 0

    def find(case, metric, kern):
        return next((r for r in rows if (r['case'], r['metric']) == (case, metric)
                     and r['kernel'] == kern), None)

    def verdict(ok):
        nonlocal met, missed
        if ok:
            met += 1
        else:
            missed += 1
        return 'met' if ok else 'MISSED'

    for case, metric, unit in sorted({(r['case'], r['metric'], r['unit']) for r in rows}):
        rb, rp = find(case, metric, 'baseline'), find(case, metric, 'patched')
        if not rb or not rp:
            problems.append('%s %s %s: no samples on the %s kernel' % (
                name, case, metric, 'baseline' if not rb else 'patched'))
        ratio = rp['median'] / rb['median'] if rb and rp and rb['median'] else None
        gtxt = []
        goal = next((g for g in m['goals'] if g[:2] == (case, metric)), None)
        if goal:
            gtxt.append('<= %.2f %s' % (goal[2], verdict(ratio is not None
                                                          and ratio <= goal[2])))
        for c, mt, ocase, ometric, label, most in m['vs']:
            ro = find(ocase, ometric, 'patched')
            if (c, mt) == (case, metric) and rp and ro and ro['median']:
                vs = rp['median'] / ro['median']
                gtxt.append('%.2fx %s (<= %.2f %s)' % (vs, label, most, verdict(vs <= most)))
        for c, mt, most in m['limits']:
            if (c, mt) == (case, metric) and rp:
                gtxt.append('<= %s %s' % (fmt(most), verdict(rp['median'] <= most)))
        # A bound holds in every sample: the patched max against the
        # patched min of the bounding metric (a missing bound is missed).
        for c, mt, other in m['bounds']:
            if (c, mt) == (case, metric) and rp:
                ro = find(case, other, 'patched')
                gtxt.append('max %s <= %s %s %s' % (
                    fmt(rp['max']), other, fmt(ro['min']) if ro else '-',
                    verdict(ro is not None and rp['max'] <= ro['min'])))

        def cell(r):
            return '%s (%s-%s)' % (fmt(r['median']), fmt(r['min']), fmt(r['max'])) if r else '-'
        runs = '/'.join(str(r['runs']) for r in (rb, rp) if r)
        if rb and rp and rb['runs'] == rp['runs']:
            runs = str(rb['runs'])
        out.append([case, metric, unit, cell(rb), cell(rp),
                    '%.2f' % ratio if ratio is not None else '-', runs, '; '.join(gtxt)])
    return out, problems, met, missed


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True,
                              timeout=30).stdout.strip().splitlines()[0]
    except (subprocess.SubprocessError, IndexError, OSError):
        return ''


def build_info(image):
    """What tells the two kernels apart: the series applied and the image."""
    src = os.path.join(os.path.dirname(image), '..', '..', '..', '..', 'src')
    n = sh('git -C %s rev-list --count refs/heads/base..HEAD' % src)
    try:
        with open(image, 'rb') as f:
            digest = hashlib.sha256(f.read()).hexdigest()[:16]
    except OSError:
        digest = '?'
    return '%s patch(es) over the base; bzImage sha256 %s...' % (n or '?', digest)


def environment(reps):
    cpu = sh("sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo")
    base = os.environ.get('LSX_BASE_COMMIT', '')
    dirty = ' (with uncommitted changes)' if sh('git -C %s status --porcelain -uno' % TOP) else ''
    return {'host_cpu': cpu, 'host_cores': os.cpu_count(), 'host_kernel': os.uname().release,
            'vcpus': int(os.environ.get('LSX_SMP') or 2),
            'guest_mem': os.environ.get('LSX_MEM') or '2G', 'accel': 'tcg',
            'qemu': sh('qemu-system-x86_64 --version'), 'gcc': sh('gcc --version'),
            'base_package': os.environ.get('LSX_BASE_PACKAGE', ''), 'base_commit': base,
            'series_commit': sh('git -C %s rev-parse HEAD' % TOP) + dirty,
            'kernels': {}, 'reps': reps, 'inner': os.environ.get('INNER') or None}


def write_csv(path, done, csvrows):
    """results.csv: this run's rows, and the rows of benchmarks not run."""
    old = []
    if os.path.exists(path):
        with open(path) as f:
            old = [r for r in csv.DictReader(f) if r.get('benchmark') not in done]
    tmp = path + '.tmp'
    with open(tmp, 'w', newline='') as f:
        w = csv.DictWriter(f, HEADER, extrasaction='ignore', restval='0')
        w.writeheader()
        for r in old:
            w.writerow(r)
        for r in csvrows:
            w.writerow({k: (('%.3f' % r[k]) if isinstance(r[k], float) else r[k])
                        for k in HEADER})
    os.replace(tmp, path)


def write_run(path, run):
    """run.json: the report's input; benchmarks of earlier runs kept."""
    names = {b['name'] for b in run['benchmarks']}
    old = []
    try:
        with open(path) as f:
            old = [b for b in json.load(f).get('benchmarks', []) if b['name'] not in names]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    doc = dict(run, benchmarks=old + run['benchmarks'],
               updated=time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()))
    with open(path + '.tmp', 'w') as f:
        json.dump(doc, f, indent=1)
    os.replace(path + '.tmp', path)


def print_table(table):
    head = ('benchmark', 'case', 'metric', 'unit', 'baseline median (min-max)',
            'patched median (min-max)', 'ratio', 'runs', 'goal')
    widths = [max(len(str(x[i])) for x in table + [head]) for i in range(len(head))]
    print()
    for t in [head] + table:
        print('  '.join(str(c).ljust(w) for c, w in zip(t, widths)).rstrip())
    print(flush=True)


def print_steps(name, st):
    """The per-patch table of one benchmark, and what each kernel holds."""
    print('%s, patch by patch (ratio to the baseline):' % name)
    for k, what in sorted(st['kernels'].items()):
        print('  %s: %s' % (k, what))
    head = st['columns']
    widths = [max(len(str(x[i])) for x in st['rows'] + [head]) for i in range(len(head))]
    print()
    for t in [head] + st['rows']:
        print('  '.join(str(c).ljust(w) for c, w in zip(t, widths)).rstrip())
    print(flush=True)


def run_bench(name, a, images, run):
    """Boot the kernels REPS times for one benchmark; its run.json entry and csv rows."""
    m = meta(name)
    steps = [(lab, img) for b, lab, img in a.step if b == name]
    images = dict(images, **{lab: img for lab, img in steps})
    kernels = ['baseline'] + [lab for lab, _ in steps] + ['patched']
    samples, drawn, retries, busy = {}, {}, [], []
    entry = {'name': name, 'title': m['title'], 'command': a.command,
             'started': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()),
             'status': 'ok', 'cause': None, 'log': None,
             'boots': 0, 'retries': retries, 'busy': busy, 'chart': None, 'timelines': {},
             'columns': COLUMNS, 'rows': [], 'goals': {'met': 0, 'missed': 0}}
    failed = False
    for rep in range(a.reps):
        order = kernels if rep % 2 == 0 else kernels[::-1]
        for kern in order:
            busy_try = 0
            for attempt in (0, 1):
                try:
                    while True:
                        s, tl, version, load = boot(name, kern, images[kern], a.initrd,
                                                    a.out, rep, m, attempt, busy_try)
                        if load <= busy_limit():
                            break
                        kept = busy_try == BUSY_RETRIES
                        busy.append({'kernel': kern, 'rep': rep + 1, 'cpus': round(load, 2),
                                     'kept': kept})
                        if kept:
                            print('[%s] %s rep %d on %s: kept, the host was busy on all %d '
                                  'attempts' % (time.strftime('%H:%M:%S'), name, rep + 1,
                                                kern, BUSY_RETRIES + 1), flush=True)
                            break
                        busy_try += 1
                        print('[%s] %s rep %d on %s: booting again on a quieter host' % (
                            time.strftime('%H:%M:%S'), name, rep + 1, kern), flush=True)
                    break
                except BootError as e:
                    if attempt == 0:
                        print('[%s] %s rep %d on %s: FAILED: %s (log: %s); retrying this '
                              'boot once' % (time.strftime('%H:%M:%S'), name, rep + 1, kern,
                                             e, e.log), flush=True)
                        retries.append({'kernel': kern, 'rep': rep + 1, 'cause': str(e),
                                        'log': os.path.relpath(e.log, TOP)})
                        continue
                    entry.update(status='failed', cause=str(e), log=os.path.relpath(e.log, TOP))
                    print('error: %s (log: %s); %s stopped, the other benchmarks go on' % (
                        e, e.log, name), flush=True)
                    failed = True
            if failed:
                break
            entry['boots'] += 1
            if version and kern not in run['env']['kernels']:
                run['env']['kernels'][kern] = '%s; %s' % (version, build_info(images[kern]))
            for case, metric, unit, v in s:
                samples.setdefault((case, metric, unit, kern), []).append(v)
            for t in tl:
                key = ', '.join(x for x in (timeline.parse(t)[0], kern) if x)
                if key not in drawn:
                    drawn[key] = draw_timeline(name, kern, t, a.out)
        if failed:
            break

    retried = {k: sum(1 for r in retries if r['kernel'] == k) for k in kernels}
    rows = []
    for (case, metric, unit, kern), vs in sorted(samples.items()):
        rows.append({'benchmark': name, 'case': case, 'kernel': kern, 'metric': metric,
                     'unit': unit, 'median': statistics.median(vs), 'min': min(vs),
                     'max': max(vs), 'runs': len(vs), 'retried': retried[kern]})
    table, problems, met, missed = table_rows(name, m, rows)
    if problems and not failed:
        entry.update(status='failed', cause=problems[0])
        print('error: %s' % problems[0], flush=True)
    if steps:
        entry['steps'] = {
            'columns': ['case', 'metric', 'unit'] + [
                k if k in KERNELS else k + ' (ratio)' for k in kernels],
            'rows': step_rows(rows, kernels),
            'kernels': {lab: 'the test-only patches and %s up to %s: %s' % (
                m.get('steps', name).split()[0], lab[5:], patch_subject(lab[5:]))
                for lab, _ in steps}}
    entry.update(rows=table, goals={'met': met, 'missed': missed},
                 updated=time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()),
                 timelines={k: os.path.basename(p) for k, p in drawn.items() if p})
    if rows:
        png = os.path.join(a.out, name + '.png')
        if chart(name, m['title'], rows, png):
            entry['chart'] = os.path.basename(png)
    return entry, rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True)
    ap.add_argument('--reps', type=int, default=5)
    ap.add_argument('--baseline', required=True)
    ap.add_argument('--patched', required=True)
    ap.add_argument('--step', action='append', default=[],
                    help='BENCH=NNNN=BZIMAGE: a kernel with the topic up to patch NNNN')
    ap.add_argument('--initrd', required=True)
    ap.add_argument('--command', default='make bench')
    ap.add_argument('benches', nargs='+')
    a = ap.parse_args()
    if a.reps < 1:
        die('REPS must be at least 1')
    try:
        a.step = [(b, 'upto-' + n, img) for b, n, img in (x.split('=', 2) for x in a.step)]
    except ValueError:
        die('--step takes BENCH=NNNN=BZIMAGE')
    for name in a.benches:
        meta(name)
    os.makedirs(os.path.join(a.out, 'logs'), exist_ok=True)
    images = {'baseline': a.baseline, 'patched': a.patched}
    run = {'command': a.command,
           'started': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()),
           'env': environment(a.reps), 'benchmarks': []}
    csvpath = os.path.join(a.out, 'results.csv')
    runpath = os.path.join(a.out, 'run.json')
    table, csvrows, done = [], [], []
    for name in a.benches:
        entry, rows = run_bench(name, a, images, run)
        run['benchmarks'].append(entry)
        csvrows += rows
        done.append(name)
        # Written after every benchmark: what was measured is never lost.
        write_csv(csvpath, done, csvrows)
        write_run(runpath, run)
        table += [[name] + r for r in entry['rows']]
        print_table([[name] + r for r in entry['rows']])
        if entry.get('steps'):
            print_steps(name, entry['steps'])

    print('all benchmarks of this run:')
    print_table(table)
    failed = [b for b in run['benchmarks'] if b['status'] != 'ok']
    for b in run['benchmarks']:
        for r in b['retries']:
            print('retried: %s rep %d on %s: %s' % (b['name'], r['rep'], r['kernel'],
                                                   r['cause']))
        for r in b.get('busy', []):
            print('host busy: %s rep %d on %s: %.2f CPUs besides the guest%s' % (
                b['name'], r['rep'], r['kernel'], r['cpus'],
                ', kept' if r['kept'] else ', booted again'))
    print('results: %s, %s; charts in %s' % (csvpath, runpath, a.out))
    for b in failed:
        print('error: benchmark %s failed: %s (log: %s)' % (b['name'], b['cause'], b['log']))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
