# SPDX-License-Identifier: GPL-2.0
"""Reading the console logs of the harness's guests."""

import re

TS = re.compile(r'^\[\s*\d+\.\d+\]\s?')

# Kernel messages that fail a run wherever they appear.
SPLATS = [
    r'------------\[ cut here \]------------',
    r'\bWARNING: .* at ',
    r'\bBUG: ',
    r'\bOops: ',
    r'Kernel panic - not syncing',
    r'general protection fault',
    r'WARNING: possible (circular|recursive) locking',
    r'WARNING: inconsistent lock state',
    r'WARNING: suspicious RCU usage',
    r'INFO: task .* blocked for more than',
    r'watchdog: BUG: soft lockup',
    r'rcu: INFO: rcu_.* detected stalls',
    r'UBSAN: ',
    r'\bkernel BUG at ',
    r'Unable to handle kernel',
    r'Unbalanced pm_runtime_enable!',
]
SPLAT_RE = re.compile('|'.join(SPLATS))


def read(path):
    with open(path, errors='replace') as f:
        return f.read().splitlines()


def _runs(lines, begin, end):
    """(lines, complete) for every run that starts with a begin marker line."""
    cur = None
    for l in lines:
        if l == begin:
            if cur is not None:
                yield cur, False
            cur = []
        elif l == end and cur is not None:
            yield cur, True
            cur = None
        elif cur is not None:
            cur.append(l)
    if cur is not None:
        yield cur, False


def section(lines, begin, end):
    """Lines between two marker lines, or None when the begin marker is absent.

    The first run that has its end marker; the last run begun if none has
    (a guest that died half-way)."""
    last = None
    for run, complete in _runs(lines, begin, end):
        if complete:
            return run
        last = run
    return last


def sections(lines, begin, end):
    """Every run of lines between two marker lines, in order (complete ones)."""
    return [run for run, complete in _runs(lines, begin, end) if complete]


def kernel_log(lines):
    """The guest's dmesg dump if it got that far, else the raw console."""
    d = section(lines, 'LSX-DMESG-BEGIN', 'LSX-DMESG-END')
    return d if d else lines


def splats(lines):
    found = []
    for l in lines:
        if SPLAT_RE.search(l):
            found.append(l.strip())
    return found


TAP_RE = re.compile(r'^(\s*)(ok|not ok) (\d+)\s*(?:- )?([^#]*?)\s*(?:#\s*(.*))?$')


def tap_result(line):
    """(indent, passed, name, directive) for a TAP/KTAP result line, else None."""
    m = TAP_RE.match(line)
    if not m:
        return None
    indent, status, _, name, directive = m.groups()
    directive = (directive or '').strip()
    if directive.upper().startswith('SKIP'):
        res = 'skip'
    elif status == 'ok':
        res = 'pass'
    else:
        res = 'fail'
    return len(indent.expandtabs()), res, name.strip(), directive


def kunit_results(klog):
    """KTAP from the kernel log: {suite: {'result': r, 'cases': [(name, r)]}}."""
    suites = {}
    stack = {}
    for raw in klog:
        l = TS.sub('', raw)
        m = re.match(r'^(\s*)# Subtest: (\S+)', l)
        if m:
            stack[len(m.group(1))] = m.group(2)
            if len(m.group(1)) == 4:
                suites.setdefault(m.group(2), {'result': None, 'cases': []})
            continue
        r = tap_result(l)
        if not r:
            continue
        indent, res, name, _ = r
        if indent == 0 and name in suites:
            suites[name]['result'] = res
        elif indent == 4 and stack.get(4) in suites:
            suites[stack[4]]['cases'].append((name, res))
    return suites


def kselftest_results(tap):
    """run_kselftest.sh TAP: {'coll:test': {'result': r, 'cases': [(name, r)],
    'output': {name: [lines]}}}, 'output' holding each case's diagnostic
    lines (those since the previous case's result, without the '# ')."""
    progs = {}
    cases = []
    output = {}
    lines = []
    for l in tap:
        if l.startswith('# '):
            r = tap_result(l[2:])
            if r and r[0] == 0:
                cases.append((r[2], r[1]))
                output[r[2]] = lines
                lines = []
            else:
                lines.append(l[2:])
            continue
        r = tap_result(l)
        if r and r[0] == 0:
            m = re.match(r'selftests: (\S+): (\S+)', r[2])
            if m:
                progs['%s:%s' % m.groups()] = {'result': r[1], 'cases': cases,
                                               'directive': r[3], 'output': output}
            cases = []
            output = {}
            lines = []
    return progs


def case_excerpt(lines, head=14, tail=4, width=240):
    """What to quote of a failed case's output: its first @head and last
    @tail diagnostic lines (the harness's RUN/FAIL lines left out), each cut
    to @width characters."""
    keep = [l for l in lines
            if not re.match(r'^#\s+(RUN|OK|FAIL|SKIP)\s', l) and l.strip('# ')]
    if len(keep) > head + tail:
        keep = keep[:head] + ['... %d line(s) left out' % (len(keep) - head - tail)] + \
            keep[-tail:]
    return [l if len(l) <= width else l[:width] + '...' for l in keep]


BENCH_RE = re.compile(r'^LSX-BENCH (\S+) (\S+) (\S+) (-?[0-9.]+(?:[eE][-+]?\d+)?)\s*$')


def bench_samples(lines):
    """[(case, metric, unit, value)] printed by a guest benchmark."""
    out = []
    for l in lines:
        m = BENCH_RE.match(l.strip())
        if m:
            out.append((m.group(1), m.group(2), m.group(3), float(m.group(4))))
    return out
