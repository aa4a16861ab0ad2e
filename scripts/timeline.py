#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Chart of the device callbacks of one system suspend/resume transition.

usage: timeline.py IN OUT.png [TITLE]

IN holds what a benchmark printed between the lines LSX-TIMELINE-BEGIN and
LSX-TIMELINE-END: 'case NAME ...', the test_dpm_tree driver's devices file
with every line prefixed 'dev ' (IDX PARENT ASYNC DIRECT RPM SUPPLIERS) and
its log prefixed 'cb ' (IDX PHASE START_NS END_NS SEQ RPM RET).  One row per
device in the order of the 'dev' lines, first at the top (dpm_list order,
unless a 'rows TEXT' line says what order it is), one bar per callback: suspend
phases in blues on the left, resume phases in oranges on the right, each
from the first callback of its direction; sync devices' bars hatched.
bench.py calls render() for the first boot of each kernel.
"""

import sys

SUSPEND = ('suspend', 'suspend_late', 'suspend_noirq')
RESUME = ('resume_noirq', 'resume_early', 'resume')
COLOURS = {
    'suspend': '#9ecae1', 'suspend_late': '#4292c6', 'suspend_noirq': '#08519c',
    'resume_noirq': '#a63603', 'resume_early': '#f16913', 'resume': '#fdae6b',
}


def parse(lines):
    """(case, [(idx, async)] in dpm_list order, [(idx, phase, start_ns, end_ns)])"""
    case, devs, cbs = '', [], []
    for l in lines:
        f = l.split()
        if not f:
            continue
        if f[0] == 'case' and len(f) > 1:
            case = f[1]
        elif f[0] == 'dev' and len(f) >= 4:
            devs.append((int(f[1]), f[3] == '1'))
        elif f[0] == 'cb' and len(f) >= 5:
            cbs.append((int(f[1]), f[2], int(f[3]), int(f[4])))
    return case, devs, cbs


def row_order(lines):
    """What order the rows are in: a 'rows TEXT' line, or dpm_list order."""
    for l in lines:
        if l.startswith('rows '):
            return l[5:].strip()
    return 'dpm_list order'


def render(lines, path, title):
    """Write the chart to @path; False (with a warning) if it cannot."""
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch
    except ImportError:
        print('warning: python3-matplotlib missing, no timeline chart', file=sys.stderr)
        return False
    case, devs, cbs = parse(lines)
    if not devs or not cbs:
        print('warning: empty timeline, no chart %s' % path, file=sys.stderr)
        return False
    row = {idx: i for i, (idx, _) in enumerate(devs)}
    sync = {idx for idx, a in devs if not a}
    fig, axes = plt.subplots(1, 2, figsize=(15, 8), sharey=True, squeeze=False)
    for ax, phases, name in zip(axes[0], (SUSPEND, RESUME), ('suspend', 'resume')):
        mine = [c for c in cbs if c[1] in phases and c[0] in row]
        if not mine:
            ax.set_title('%s: no callbacks' % name)
            continue
        t0 = min(c[2] for c in mine)
        t1 = max(c[3] for c in mine)
        for ph in phases:
            for hatched in (False, True):
                bars = {}
                for idx, p, s, e in mine:
                    if p == ph and (idx in sync) == hatched:
                        bars.setdefault(idx, []).append(
                            ((s - t0) / 1e6, max((e - s) / 1e6, (t1 - t0) / 1e6 / 400)))
                for idx, spans in bars.items():
                    ax.broken_barh(spans, (row[idx] - 0.45, 0.9), facecolors=COLOURS[ph],
                                   edgecolor='black' if hatched else 'none',
                                   linewidth=0.2, hatch='////' if hatched else None)
        ax.set_title('%s: %.1f ms, %d callbacks' % (name, (t1 - t0) / 1e6, len(mine)))
        ax.set_xlabel('ms since the first %s callback' % name)
        ax.set_xlim(0, (t1 - t0) / 1e6 * 1.01)
    axes[0][0].set_ylim(len(devs), -1)
    axes[0][0].set_ylabel('%d devices in %s (%d sync)' % (len(devs), row_order(lines),
                                                          len(sync)))
    handles = [Patch(facecolor=COLOURS[p], label=p) for p in SUSPEND + RESUME]
    handles.append(Patch(facecolor='white', edgecolor='black', hatch='////',
                         label='sync device'))
    fig.legend(handles=handles, loc='lower center', ncol=len(handles), fontsize=8)
    fig.suptitle(title or case)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(sys.argv[1], errors='replace') as f:
        lines = f.read().splitlines()
    return 0 if render(lines, sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else '') else 1


if __name__ == '__main__':
    sys.exit(main())
