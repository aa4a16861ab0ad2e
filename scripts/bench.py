#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run benchmarks on the baseline and patched bench kernels, interleaved.

usage: bench.py --out DIR --reps N --baseline BZIMAGE --patched BZIMAGE
                --initrd INITRAMFS BENCH [BENCH ...]

Each repetition boots both kernels, the order alternating between
repetitions; each boot runs the benchmark's guest script, which prints
'LSX-BENCH case metric unit value' lines.  For every benchmark, case,
kernel and metric the samples of all boots are reduced to median, min and
max.  Writes DIR/results.csv (all benchmarks of this run, merged with
rows of benchmarks not run this time), DIR/NAME.png and prints a table.
A guest that prints a device callback timeline between LSX-TIMELINE-BEGIN
and LSX-TIMELINE-END also gets DIR/NAME-timeline-KERNEL.png (and .txt)
from its first boot on each kernel.
"""

import argparse
import csv
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsxlog  # noqa: E402
import timeline  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = ('baseline', 'patched')
HEADER = ['benchmark', 'case', 'kernel', 'metric', 'unit', 'median', 'min', 'max', 'runs']


def die(msg):
    print('error: ' + msg, file=sys.stderr)
    sys.exit(1)


def meta(name):
    path = os.path.join(TOP, 'bench', name, 'meta')
    m = {'title': name, 'timeout': '300', 'inner': '1', 'goals': [], 'vs': [], 'limits': []}
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
            elif l.startswith('limit '):
                _, case, metric, most = l.split()
                m['limits'].append((case, metric, float(most)))
            elif '=' in l:
                k, v = l.split('=', 1)
                m[k.strip()] = v.strip()
    return m


def boot(name, kernel, image, initrd, out, rep, m):
    log = os.path.join(out, 'logs', '%s-%s-%d.log' % (name, kernel, rep))
    args = [os.path.join(TOP, 'scripts', 'run-vm.sh'), image, initrd, log, m['timeout'],
            'lsx.mode=bench', 'lsx.bench=' + name,
            'lsx.reps=' + (os.environ.get('INNER') or m['inner']), 'quiet']
    t0 = time.time()
    rc = subprocess.call(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    lines = lsxlog.read(log) if os.path.exists(log) else []
    for l in lines:
        if l.startswith('LSX-ERROR'):
            die('%s on %s: %s (log: %s)' % (name, kernel, l[10:], log))
    if rc == 124:
        die('%s on %s: guest hung (no result in %s s; log: %s)' % (name, kernel, m['timeout'], log))
    if rc != 0:
        die('%s on %s: guest failed with status %d (log: %s)' % (name, kernel, rc, log))
    bad = lsxlog.splats(lsxlog.kernel_log(lines))
    if bad:
        die('%s on %s: kernel splat: %s (log: %s)' % (name, kernel, bad[0], log))
    s = lsxlog.bench_samples(lines)
    if not s:
        die('%s on %s: the benchmark produced no number (log: %s)' % (name, kernel, log))
    print('[%s] %s rep %d on %s: %d samples in %.0f s' % (
        time.strftime('%H:%M:%S'), name, rep + 1, kernel, len(s), time.time() - t0),
        flush=True)
    return s, lsxlog.section(lines, 'LSX-TIMELINE-BEGIN', 'LSX-TIMELINE-END')


def draw_timeline(name, kernel, lines, out):
    """DIR/NAME-timeline-KERNEL.txt and .png from a boot's timeline lines."""
    base = os.path.join(out, '%s-timeline-%s' % (name, kernel))
    with open(base + '.txt', 'w') as f:
        f.write('\n'.join(lines) + '\n')
    case = timeline.parse(lines)[0]
    if timeline.render(lines, base + '.png', '%s %s on the %s kernel' % (name, case, kernel)):
        return base + '.png'
    return None


def fmt(v):
    if v >= 100:
        return '%.0f' % v
    if v >= 10:
        return '%.1f' % v
    return '%.2f' % v


def chart(name, title, rows, path):
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        print('warning: python3-matplotlib missing, no chart for %s' % name, file=sys.stderr)
        return
    keys = sorted({(r['case'], r['metric'], r['unit']) for r in rows},
                  key=lambda k: (k[1], k[0]))
    metrics = sorted({k[1] for k in keys})
    fig, axes = plt.subplots(len(metrics), 1, figsize=(9, 2.8 * len(metrics)), squeeze=False)
    for ax, metric in zip(axes[:, 0], metrics):
        ks = [k for k in keys if k[1] == metric]
        for i, kern in enumerate(KERNELS):
            med, lo, hi = [], [], []
            for k in ks:
                r = next((r for r in rows if (r['case'], r['metric'], r['unit']) == k
                          and r['kernel'] == kern), None)
                med.append(r['median'] if r else 0)
                lo.append(r['median'] - r['min'] if r else 0)
                hi.append(r['max'] - r['median'] if r else 0)
            x = [j + (i - 0.5) * 0.38 for j in range(len(ks))]
            ax.bar(x, med, 0.38, yerr=[lo, hi], capsize=3, label=kern,
                   color=('#8c8c8c', '#2b7bb9')[i])
        ax.set_xticks(range(len(ks)))
        ax.set_xticklabels([k[0] for k in ks])
        ax.set_ylabel('%s (%s)' % (metric, ks[0][2]))
        ax.legend(fontsize=8)
    fig.suptitle('%s: median, min-max bars' % title)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True)
    ap.add_argument('--reps', type=int, default=5)
    ap.add_argument('--baseline', required=True)
    ap.add_argument('--patched', required=True)
    ap.add_argument('--initrd', required=True)
    ap.add_argument('benches', nargs='+')
    a = ap.parse_args()
    if a.reps < 1:
        die('REPS must be at least 1')
    os.makedirs(os.path.join(a.out, 'logs'), exist_ok=True)
    images = {'baseline': a.baseline, 'patched': a.patched}

    allrows = []
    table = []
    timelines = []
    for name in a.benches:
        m = meta(name)
        samples = {}
        drawn = {}
        for rep in range(a.reps):
            order = KERNELS if rep % 2 == 0 else KERNELS[::-1]
            for kern in order:
                s, tl = boot(name, kern, images[kern], a.initrd, a.out, rep, m)
                for case, metric, unit, v in s:
                    samples.setdefault((case, metric, unit, kern), []).append(v)
                if tl and kern not in drawn:
                    drawn[kern] = draw_timeline(name, kern, tl, a.out)
        rows = []
        for (case, metric, unit, kern), vs in sorted(samples.items()):
            rows.append({'benchmark': name, 'case': case, 'kernel': kern, 'metric': metric,
                         'unit': unit, 'median': statistics.median(vs), 'min': min(vs),
                         'max': max(vs), 'runs': len(vs)})
        allrows += rows
        chart(name, m['title'], rows, os.path.join(a.out, name + '.png'))
        timelines += [p for p in drawn.values() if p]
        keys = sorted({(r['case'], r['metric'], r['unit']) for r in rows})
        for k in keys:
            rb = next((r for r in rows if (r['case'], r['metric'], r['unit']) == k
                       and r['kernel'] == 'baseline'), None)
            rp = next((r for r in rows if (r['case'], r['metric'], r['unit']) == k
                       and r['kernel'] == 'patched'), None)
            if not rb or not rp:
                die('%s %s %s: no samples on the %s kernel' % (
                    name, k[0], k[1], 'baseline' if not rb else 'patched'))
            ratio = rp['median'] / rb['median'] if rb['median'] else float('nan')
            goal = next((g for g in m['goals'] if g[0] == k[0] and g[1] == k[1]), None)
            gtxt = []
            if goal:
                gtxt.append('<= %.2f %s' % (goal[2], 'met' if ratio <= goal[2] else 'MISSED'))
            for case, metric, ocase, ometric, label, most in m['vs']:
                ro = next((r for r in rows if (r['case'], r['metric']) == (ocase, ometric)
                           and r['kernel'] == 'patched'), None)
                if (case, metric) == k[:2] and ro and ro['median']:
                    vs = rp['median'] / ro['median']
                    gtxt.append('%.2fx %s (<= %.2f %s)' % (
                        vs, label, most, 'met' if vs <= most else 'MISSED'))
            for case, metric, most in m['limits']:
                if (case, metric) == k[:2]:
                    gtxt.append('<= %s %s' % (fmt(most), 'met' if rp['median'] <= most
                                               else 'MISSED'))
            gtxt = '; '.join(gtxt)
            table.append((name, k[0], k[1], k[2],
                          '%s (%s-%s)' % (fmt(rb['median']), fmt(rb['min']), fmt(rb['max'])),
                          '%s (%s-%s)' % (fmt(rp['median']), fmt(rp['min']), fmt(rp['max'])),
                          '%.2f' % ratio, str(rb['runs']), gtxt))

    # Merge with the rows of benchmarks not run this time.
    path = os.path.join(a.out, 'results.csv')
    old = []
    if os.path.exists(path):
        with open(path) as f:
            old = [r for r in csv.DictReader(f) if r['benchmark'] not in a.benches]
    with open(path, 'w', newline='') as f:
        w = csv.DictWriter(f, HEADER)
        w.writeheader()
        for r in old:
            w.writerow(r)
        for r in allrows:
            w.writerow({k: (('%.3f' % r[k]) if isinstance(r[k], float) else r[k])
                        for k in HEADER})

    head = ('benchmark', 'case', 'metric', 'unit', 'baseline median (min-max)',
            'patched median (min-max)', 'ratio', 'runs', 'goal')
    widths = [max(len(str(x[i])) for x in table + [head]) for i in range(len(head))]
    print()
    for t in [head] + table:
        print('  '.join(str(c).ljust(w) for c, w in zip(t, widths)).rstrip())
    print()
    print('results: %s; charts: %s' % (path, ', '.join(
        [os.path.join(a.out, n + '.png') for n in a.benches] + timelines)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
