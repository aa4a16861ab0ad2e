#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Record freezer traces from benchmark console logs as test data.

usage: harvest-ftrace.py OUTDIR LOG [LOG ...]

Reads the traces the freezer benchmark's guest printed between
'LSX-TRACE-BEGIN freezer CASE' and 'LSX-TRACE-END', classifies the form
of each traced call (leaf: 'name();'; open-close: 'name() {' ... '} /*
name */'; migrated: an open-close pair whose lines carry different CPU
numbers), and writes the first trace of every new combination of forms to
OUTDIR/KERNEL-CASE-FORMS.trace with a '# lsx-expect' line: the durations
and total read here, independently of trace.awk, for tests/test_freezer_trace.py
to compare.  Check a new file by eye before committing it.
"""

import os
import re
import sys

CPU = re.compile(r'\|\s+(\d+)\)')
DUR = re.compile(r'([0-9]+(?:\.[0-9]+)?) us')
FUNCS = ('freeze_processes', 'freeze_kernel_threads')
METRIC = {'freeze_processes': 'freeze_user_us', 'freeze_kernel_threads': 'freeze_kernel_us'}


def classify(lines):
    forms, want, opened = set(), {}, {}
    b = e = None
    for l in lines:
        for f in FUNCS:
            cpu = CPU.search(l)
            if f + '();' in l:
                forms.add('leaf')
                want[METRIC[f]] = DUR.search(l).group(1)
            elif f + '() {' in l:
                opened[f] = cpu.group(1) if cpu else None
            elif '} /* %s */' % f in l:
                forms.add('open-close')
                if cpu and opened.get(f) not in (None, cpu.group(1)):
                    forms.add('migrated')
                want[METRIC[f]] = DUR.search(l).group(1)
        if 'suspend_resume: freeze_processes[0] begin' in l:
            b = float(l.split()[0])
        if 'suspend_resume: freeze_processes[0] end' in l:
            e = float(l.split()[0])
    if len(want) == 2 and b is not None and e is not None:
        want['freeze_total_us'] = '%.1f' % ((e - b) * 1e6)
        return forms, want
    return forms, None


def main():
    out, logs = sys.argv[1], sys.argv[2:]
    seen = set()
    for log in logs:
        kern = 'patched' if 'patched' in os.path.basename(log) else 'baseline'
        cur, case = None, None
        with open(log, errors='replace') as f:
            for l in f.read().splitlines():
                if l.startswith('LSX-TRACE-BEGIN freezer '):
                    cur, case = [], l.split()[2]
                elif l == 'LSX-TRACE-END' and cur is not None:
                    forms, want = classify(cur)
                    key = (kern, tuple(sorted(forms)))
                    if want and key not in seen:
                        seen.add(key)
                        name = '%s-%s-%s.trace' % (kern, case, '+'.join(sorted(forms)))
                        with open(os.path.join(out, name), 'w') as o:
                            o.write('# lsx-expect forms=%s %s\n' % (
                                ','.join(sorted(forms)),
                                ' '.join('%s=%s' % kv for kv in sorted(want.items()))))
                            o.write('\n'.join(cur) + '\n')
                        print(name)
                    cur = None
                elif cur is not None:
                    cur.append(l)


if __name__ == '__main__':
    main()
