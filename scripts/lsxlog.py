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


def splats(lines, skip=()):
    """Splat lines of a kernel log, but for those at the indices in @skip."""
    found = []
    for i, l in enumerate(lines):
        if i not in skip and SPLAT_RE.search(l):
            found.append(l.strip())
    return found


KCSAN_RE = re.compile(r'BUG: KCSAN: (.*\S)')
FRAME_RE = re.compile(r'^\s*([A-Za-z_][\w.]*)\+0x[0-9a-f]+/0x[0-9a-f]+')


def kcsan_reports(lines):
    """KCSAN reports in a kernel log: [{'index': i, 'title': t, 'functions': set}],
    i the index of the 'BUG: KCSAN:' line, t what follows it ('data-race in
    a / b'), and the functions of every stack the report printed (compiler
    suffixes such as .isra.0 cut off)."""
    out = []
    cur = None
    for i, raw in enumerate(lines):
        l = TS.sub('', raw)
        m = KCSAN_RE.search(l)
        if m:
            cur = {'index': i, 'title': m.group(1), 'functions': set()}
            out.append(cur)
            continue
        if cur is None:
            continue
        if l.startswith('=========='):
            cur = None
            continue
        f = FRAME_RE.match(l)
        if f:
            cur['functions'].add(f.group(1).split('.')[0])
    return out


def kcsan_rules(path):
    """config/kcsan-tolerated: [(compiled title pattern, reason)].  One rule
    a line, 'PATTERN | REASON'; '#' starts a comment line."""
    rules = []
    with open(path) as f:
        for n, l in enumerate(f, 1):
            l = l.strip()
            if not l or l.startswith('#'):
                continue
            if ' | ' not in l:
                raise ValueError('%s:%d: no " | REASON"' % (path, n))
            pat, reason = l.split(' | ', 1)
            rules.append((re.compile(pat.strip()), reason.strip()))
    return rules


HUNK_FN_RE = re.compile(r'^@@ [^@]* @@.*?\b([A-Za-z_]\w*)\s*\(')
DEF_RE = re.compile(r'^\+(?:[A-Za-z_][\w]*[\s*]+)+\**([A-Za-z_]\w*)\s*\([^;]*$')


def series_functions(patches):
    """Names of the kernel functions a series defines or changes, from its
    patch files: every function a hunk of a C file sits in (the hunk
    header's context) and every function definition a patch adds.  The
    selftests (tools/) and documentation are left out."""
    names = set()
    for p in patches:
        kernel_file = False
        with open(p, errors='replace') as f:
            for l in f:
                if l.startswith('diff --git '):
                    path = l.split()[-1][2:]
                    kernel_file = (path.endswith(('.c', '.h')) and
                                   not path.startswith(('tools/', 'Documentation/')))
                    continue
                if not kernel_file:
                    continue
                m = HUNK_FN_RE.match(l) or DEF_RE.match(l)
                if m and m.group(1) not in ('if', 'for', 'while', 'switch', 'return', 'sizeof',
                                                  'int', 'void', 'bool', 'long'):
                    names.add(m.group(1))
    return names


def tolerated_kcsan(lines, rules, ours):
    """[(report, reason)] for the KCSAN reports of a log that a rule
    tolerates: the title matches the rule and no function in the report's
    stacks is one the series defines or changes (@ours)."""
    out = []
    for r in kcsan_reports(lines):
        if r['functions'] & ours or TS.sub('', r['title']) in ours:
            continue
        for pat, reason in rules:
            if pat.search(r['title']):
                out.append((r, reason))
                break
    return out


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
