#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Verdict of a 'make test' run from the guest's console log.

usage: results.py LOG VM_STATUS KUNIT_SUITES_FILE KSELFTESTS_FILE

Prints one line per test program or KUnit suite, what each failed
kselftest case printed (an excerpt), every failing case, and ends with
the plain line 'N passed, N failed, N skipped'.  Exit status 1 when
anything failed or did not report.
"""

import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsxlog  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Base-kernel KCSAN reports a run tolerates (make test SAN=kcsan)
KCSAN_TOLERATED = os.path.join(TOP, 'config', 'kcsan-tolerated')


def listed(path):
    with open(path) as f:
        return [l.split('#')[0].strip() for l in f if l.split('#')[0].strip()]


def main():
    if len(sys.argv) != 5:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    logpath, status, kfile, sfile = sys.argv[1:]
    status = int(status)
    lines = lsxlog.read(logpath)
    klog = lsxlog.kernel_log(lines)
    npass = nfail = nskip = 0
    problems = []
    excerpts = []

    def count(res):
        nonlocal npass, nfail, nskip
        if res == 'pass':
            npass += 1
        elif res == 'skip':
            nskip += 1
        else:
            nfail += 1

    def judge(kind, name, info):
        """Count one suite or test program and its cases."""
        nonlocal nfail
        if not info or info['result'] is None:
            problems.append('%s %s: never reported' % (kind, name))
            nfail += 1
            return
        c = [r for _, r in info['cases']]
        print('%-5s %s %s (%d passed, %d failed, %d skipped)' % (
            info['result'].upper(), kind, name, c.count('pass'), c.count('fail'),
            c.count('skip')))
        for case, r in info['cases']:
            count(r)
            if r == 'fail':
                problems.append('%s %s: %s failed' % (kind, name, case))
                excerpts.append(('%s %s: %s' % (kind, name, case),
                                 lsxlog.case_excerpt(info.get('output', {}).get(case, []))))
        if not c:
            count(info['result'])
        if info['result'] == 'fail' and 'fail' not in c:
            problems.append('%s %s: failed (%s)' % (
                kind, name, info.get('directive') or 'exit status'))
            if c:
                nfail += 1

    suites = lsxlog.kunit_results(klog)
    for s in listed(kfile):
        judge('kunit', s, suites.get(s))

    tap = lsxlog.section(lines, 'LSX-KSFT-BEGIN', 'LSX-KSFT-END') or []
    progs = lsxlog.kselftest_results(tap)
    for t in listed(sfile):
        judge('kselftest', t, progs.get(t))

    # A KCSAN report from the base kernel that config/kcsan-tolerated
    # lists, with no function of the series in its stacks, is noted only.
    skip = set()
    if lsxlog.kcsan_reports(klog):
        ours = lsxlog.series_functions(sorted(glob.glob(os.path.join(TOP, 'patches', '0*.patch'))))
        for r, reason in lsxlog.tolerated_kcsan(klog, lsxlog.kcsan_rules(KCSAN_TOLERATED), ours):
            skip.add(r['index'])
            print('NOTE  tolerated KCSAN report: %s (%s)' % (r['title'], reason))
    bad = lsxlog.splats(klog, skip)
    if bad:
        nfail += 1
        problems.append('kernel log: %d splat line(s), first: %s' % (len(bad), bad[0]))
    else:
        npass += 1
        print('PASS  kernel log clean (no WARN, BUG, oops, lockdep or hung-task report)')

    if status == 124:
        problems.append('guest hung: no result before the host-side timeout')
        nfail += 1
    elif status == 125:
        problems.append('guest ended without a result (panic or reboot)')
        nfail += 1
    elif status != 0:
        problems.append('guest test runner exited with status %d' % status)
        nfail += 1

    # What the failed kselftest cases printed, so that a CI log that keeps
    # only the end of the output still shows why.
    for what, lines in excerpts:
        if lines:
            print('----  %s printed:' % what)
            for l in lines:
                print('      | ' + l)
    for p in problems:
        print('FAIL  ' + p)
    if problems:
        print('console log: %s' % os.path.abspath(logpath))
    print('%d passed, %d failed, %d skipped' % (npass, nfail, nskip))
    return 1 if nfail else 0


if __name__ == '__main__':
    sys.exit(main())
