#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Text work of scripts/send-ready.sh (make send-ready); not run by hand.

usage: send-ready.py prepare --patches DIR --topics FILE --results FILE
                             --out DIR --work DIR --name NAME --email EMAIL
       send-ready.py finish --out DIR --work DIR --base SHA TOPIC

prepare: check everything first (the topic files patches/topics/NAME.txt,
the benchmark results, 'Changes in vN:' when a topic is at version 2 or
later, the git identity) and refuse with one line 'error: ...' before
writing anything.  Then write OUT/TOPIC/000k-*.patch: the topic's patches
renumbered on their own ([PATCH vN k/m]), From: and the placeholder
Signed-off-by rewritten to the sender, the harness-only
'checkpatch-ignore:' note lines dropped.  Everything from the first
'diff --git' line on stays byte for byte as in patches/.  WORK/TOPIC/
gets what 'finish' needs: the cover letter's parts and the map from each
original patch to its new file.

finish: given WORK/TOPIC/gm/FILE (get_maintainer.pl output with role
statistics, one file per patch), WORK/TOPIC/shortlog and WORK/TOPIC/
diffstat, add To: (maintainers, reviewers) and Cc: (lists) after each
patch's Subject and write OUT/TOPIC/0000-cover-letter.patch with the
union of them.  Prints 'PATCHES TO CC' (the cover letter's counts).

FILE = topics file, one line per topic: NAME<TAB>PATCH PATCH ...
"""

import argparse
import email.utils
import json
import os
import re
import shutil
import sys
import textwrap

PLACEHOLDER = ('Kernel Series Developers', 'series@invalid')
MAIL_WRAP = 78          # git's Subject: folding width
TABLE_WIDTH = 80


def die(msg):
    print('error: ' + msg, file=sys.stderr)
    sys.exit(1)


def warn(msg):
    print('warning: ' + msg, file=sys.stderr)


def show(path):
    """A path as the user should see it: relative to the current directory if below it."""
    rel = os.path.relpath(path)
    return path if rel.startswith('..') else rel


def read(path):
    with open(path, encoding='utf-8', newline='') as f:
        return f.read()


def write(path, text):
    with open(path, 'w', encoding='utf-8', newline='') as f:
        f.write(text)


# ---------------------------------------------------------------- mail text

def fold(head, text, width=MAIL_WRAP):
    """head + text folded as git format-patch folds Subject: (utf8.c,
    strbuf_add_wrapped_text with indent1 = -len(head), indent2 = 1)."""
    lines, cur, col, first = [], head, len(head), True
    for word in text.split(' '):
        if first:
            if col + len(word) <= width:
                cur += word
                col += len(word)
            else:
                lines.append(cur)
                cur, col = ' ' + word, 1 + len(word)
            first = False
        elif col + 1 + len(word) <= width:
            cur += ' ' + word
            col += 1 + len(word)
        else:
            lines.append(cur)
            cur, col = ' ' + word, 1 + len(word)
    lines.append(cur)
    return '\n'.join(lines)


def prefix(version, k, m):
    """[PATCH], [PATCH k/m], [PATCH vN k/m]: git format-patch's subject prefixes."""
    v = 'v%d ' % version if version > 1 else ''
    if m == 1 and k == 1:
        return '[PATCH %s]' % v.strip() if v else '[PATCH]'
    return '[PATCH %s%0*d/%d]' % (v, len(str(m)), k, m)


def addr(name, mail):
    """Name <mail> as a header wants it: quoted if needed, RFC 2047 if not ASCII."""
    return email.utils.formataddr((name, mail), charset='utf-8')


def header_addr(text):
    """An address line of get_maintainer.pl, made fit for a mail header."""
    if text.isascii():
        return text
    name, mail = email.utils.parseaddr(text)
    return addr(name, mail) if mail else text


def addr_header(field, addrs):
    if not addrs:
        return ''
    return '%s: %s\n' % (field, ',\n    '.join(addrs))


def split_mail(text, what):
    """(header lines with continuations joined by '\\n', body)."""
    head, sep, body = text.partition('\n\n')
    if not sep:
        die('%s: no blank line after the mail headers' % what)
    fields = []
    for line in head.split('\n'):
        if line[:1] in (' ', '\t') and fields:
            fields[-1] += '\n' + line
        else:
            fields.append(line)
    return fields, body


def field(fields, name):
    for i, f in enumerate(fields):
        if f.lower().startswith(name.lower() + ':'):
            return i, f[len(name) + 1:].replace('\n', '').strip()
    return None, None


# ---------------------------------------------------------------- inputs

def read_topic(path, topic):
    """(subject, version, [benchmarks], body) of patches/topics/TOPIC.txt."""
    if not os.path.exists(path):
        die('%s missing: write the cover letter of topic %s there (lines Subject:, '
            'Version:, Benchmark:, a blank line, the body)' % (show(path), topic))
    text = read(path)
    head, sep, body = text.partition('\n\n')
    h = {}
    for line in head.split('\n'):
        m = re.match(r'^([A-Za-z-]+):[ \t]*(.*?)[ \t]*$', line)
        if not m:
            die('%s: header line %r is not "Name: value" (a blank line ends the '
                'headers)' % (show(path), line))
        h[m.group(1).lower()] = m.group(2)
    for k in ('subject', 'version', 'benchmark'):
        if k not in h:
            die('%s: no %s: line in its header' % (show(path), k.capitalize()))
    if not h['subject']:
        die('%s: empty Subject:' % show(path))
    if not re.fullmatch(r'[1-9][0-9]*', h['version']):
        die('%s: Version: %r is not a positive integer' % (show(path), h['version']))
    benches = [b for b in re.split(r'[\s,]+', h['benchmark']) if b]
    if benches in ([], ['none']):
        benches = []
    body = body.strip('\n')
    if not sep or not body:
        die('%s: no body after the header lines' % show(path))
    return h['subject'], int(h['version']), benches, body + '\n'


def make_bench(names):
    """The command that runs these benchmarks."""
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    every = {n for n in os.listdir(os.path.join(top, 'bench'))
             if os.path.exists(os.path.join(top, 'bench', n, 'meta'))}
    if every and every <= set(names):
        return 'make bench'
    return 'make bench BENCH=%s' % (names[0] if len(names) == 1 else '"%s"' % ' '.join(names))


def load_results(path, wanted):
    """{bench: entry} for every benchmark named in wanted ({bench: [topic]})."""
    names = sorted(wanted)
    cmd = make_bench(names)
    if not os.path.exists(path):
        die('%s missing: no benchmark results for the cover letters; run \'%s\''
            % (show(path), cmd))
    try:
        run = json.loads(read(path))
        benchmarks = run['benchmarks']
    except (ValueError, KeyError, TypeError) as e:
        die('%s: not a benchmark run (%s); run \'%s\'' % (show(path), e, cmd))
    got, bad = {}, []
    for b in benchmarks:
        if isinstance(b, dict) and b.get('name') in wanted:
            got[b['name']] = b
    for name in names:
        b = got.get(name)
        if b is None:
            bad.append((name, 'has no results of benchmark %s' % name))
        elif b.get('status') != 'ok':
            bad.append((name, 'says benchmark %s failed (%s)' % (name, b.get('cause') or
                                                                   b.get('status'))))
        elif not b.get('rows'):
            bad.append((name, 'has no numbers of benchmark %s' % name))
    if bad:
        die('%s %s (topic %s); run \'%s\'' % (
            show(path), bad[0][1], ', '.join(wanted[bad[0][0]]), make_bench([n for n, _ in bad])))
    return run, got


# ---------------------------------------------------------------- numbers

def cell(row, cols, name, pos):
    i = cols.index(name) if name in cols else pos
    v = row[i] if i < len(row) else ''
    if v is None:
        return '-'
    if isinstance(v, float):
        return '%.2f' % v
    return str(v)


def median(text):
    return text.split(' (')[0].strip() or '-'


def table(rows, cols):
    """The rows of one benchmark as fixed-width text, goals inline if they fit."""
    data = []
    for r in rows:
        data.append(([cell(r, cols, 'case', 0), cell(r, cols, 'metric', 1),
                      median(cell(r, cols, 'baseline median (min-max)', 3)),
                      median(cell(r, cols, 'patched median (min-max)', 4)),
                      cell(r, cols, 'ratio', 5)],
                     cell(r, cols, 'goal', 7).strip()))
    head = ['case', 'metric', 'baseline', 'patched', 'ratio']
    widths = [max(len(x[i]) for x in [head] + [d[0] for d in data]) for i in range(5)]

    def line(c, goal=''):
        s = '  ' + '  '.join(v.ljust(w) if i < 2 else v.rjust(w)
                             for i, (v, w) in enumerate(zip(c, widths)))
        return (s + '  ' + goal).rstrip() if goal is not None else s.rstrip()

    inline = all(len(line(c)) + 2 + len(g) <= TABLE_WIDTH for c, g in data if g)
    out = [line(head, 'goal' if inline and any(g for _, g in data) else '')]
    for c, g in data:
        if inline:
            out.append(line(c, g))
            continue
        out.append(line(c))
        if g:
            ind = ' ' * (4 + widths[0])
            out += textwrap.wrap('goal: ' + g, TABLE_WIDTH, initial_indent=ind,
                                 subsequent_indent=ind + '      ', break_long_words=False,
                                 break_on_hyphens=False)
    return '\n'.join(out)


def numbers(run, entry, results_path):
    """The cover letter's section with one benchmark's numbers."""
    name = entry['name']
    rows, cols = entry['rows'], entry.get('columns') or []
    # bench.py keeps the entries of benchmarks not run the last time, so an
    # entry's own command and date, if it has them, come first.
    cmd = entry.get('command') or run.get('command') or '?'
    date = entry.get('updated') or run.get('updated') or '?'
    env = run.get('env') or {}
    runs = {}
    for r in rows:
        runs.setdefault(cell(r, cols, 'runs', 6), []).append(
            '%s %s' % (cell(r, cols, 'case', 0), cell(r, cols, 'metric', 1)))
    usual = max(sorted(runs), key=lambda k: len(runs[k]))
    odd = ['%s for %s' % (k, ', '.join(v) if len(v) <= 3 else '%d rows' % len(v))
           for k, v in sorted(runs.items()) if k != usual]
    setup = []
    if env.get('accel'):
        setup.append('QEMU (%s)' % env['accel'])
    if env.get('vcpus'):
        setup.append('%s vCPUs' % env['vcpus'])
    if env.get('guest_mem'):
        setup.append('%s of guest memory' % env['guest_mem'])
    title = entry.get('title')
    text = ('Numbers of benchmark %s%s from the last run, \'%s\' (%s of %s)'
            % (name, ' (%s)' % title if title and title != name else '', cmd,
               os.path.basename(results_path), date))
    text += ('; ' + ', '.join(setup) + '.  ') if setup else '.  '
    text += ('Baseline: the base plus the test-only patches of the whole series; '
             'patched: the whole series, this topic together with the others (which '
             'change other files).  Medians of %s runs on each kernel%s; ratio = '
             'patched/baseline' % (usual, ' (%s)' % '; '.join(odd) if odd else ''))
    g = entry.get('goals') or {}
    if g.get('met') or g.get('missed'):
        text += '; goals: %d met, %d missed' % (g.get('met', 0), g.get('missed', 0))
    return textwrap.fill(text + ':', 72, break_long_words=False,
                         break_on_hyphens=False) + '\n\n' + table(rows, cols) + '\n'


# ---------------------------------------------------------------- patches

def below_dashes(body):
    """(commit message with its '---' line, the part up to the first diff, the diff)."""
    m = re.search(r'^---\n', body, re.M)
    if not m:
        return None
    d = re.search(r'^diff --git ', body[m.end():], re.M)
    end = m.end() + (d.start() if d else len(body) - m.end())
    return body[:m.end()], body[m.end():end], body[end:]


def strip_notes(mid):
    """Drop 'checkpatch-ignore:' lines below '---', and an emptied Notes: block."""
    lines = mid.split('\n')
    lines = [l for l in lines if not re.match(r'^\s*checkpatch-ignore:', l)]
    out, i = [], 0
    while i < len(lines):
        l = lines[i]
        if re.match(r'^Notes( \(.*\))?:$', l):
            j = i + 1
            while j < len(lines) and (lines[j].strip() == '' or lines[j].startswith('    ')):
                j += 1
            note = lines[i + 1:j]
            while note and not note[0].strip():
                note.pop(0)
            while note and not note[-1].strip():
                note.pop()
            if note:
                out += [l] + note + ['']
            elif out and out[-1] == '':
                out.pop()          # the blank line format-patch puts before Notes:
            i = j
            continue
        out.append(l)
        i += 1
    return '\n'.join(out)


def rewrite(path, text, k, m, version, name, mail):
    """One patch of a topic, ready to send (without To:/Cc:)."""
    what = show(path)
    fields, body = split_mail(text, what)
    si, subject = field(fields, 'Subject')
    if si is None:
        die('%s: no Subject: header' % what)
    title = re.sub(r'^\[PATCH[^\]]*\]\s*', '', subject)
    pre = prefix(version, k, m)
    fields[si] = fold('Subject: %s ' % pre, title)
    fi, frm = field(fields, 'From')
    if fi is not None and email.utils.parseaddr(frm)[1].lower() == PLACEHOLDER[1]:
        fields[fi] = 'From: ' + addr(name, mail)
    parts = below_dashes(body)
    if not parts:
        die('%s: no \'---\' line after the commit message' % what)
    msg, mid, diff = parts
    sob = 'Signed-off-by: %s <%s>' % (name, mail)
    lines = msg.split('\n')
    have = any(re.match(r'^Signed-off-by:.*<%s>\s*$' % re.escape(mail), l, re.I) for l in lines)
    out = []
    for l in lines:
        m_ = re.match(r'^Signed-off-by:.*<([^<>]*)>\s*$', l, re.I)
        if m_ and m_.group(1).lower() == PLACEHOLDER[1]:
            if not have:
                out.append(sob)
                have = True
            continue
        out.append(l)
    msg = '\n'.join(out)
    mid = strip_notes(mid)
    out_head = '\n'.join(fields)
    out_body = msg + mid + diff
    for line in (out_head + '\n' + msg + mid).split('\n'):
        if re.search(r'@invalid\b', line, re.I):
            die('%s: an @invalid address is left after the rewrite: %s' % (what, line.strip()))
    if not (out_head + out_body).isascii() and not field(fields, 'Content-Type')[1]:
        out_head += ('\nMIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8'
                     '\nContent-Transfer-Encoding: 8bit')
    return out_head + '\n\n' + out_body


def changes_in(path, text, version):
    parts = below_dashes(split_mail(text, show(path))[1])
    if not parts or not re.search(r'^\s*Changes in v%d:' % version, parts[1], re.M | re.I):
        return False
    return True


def prepare(a):
    with open(a.topics) as f:
        topics = [l.rstrip('\n').split('\t') for l in f if l.strip()]
    if not topics:
        die('%s names no topic (# Topic: NAME lines)' % show(os.path.join(a.patches, 'series')))
    plan, wanted = [], {}
    for t in topics:
        topic, patches = t[0], (t[1].split() if len(t) > 1 else [])
        if not re.fullmatch(r'[A-Za-z0-9][A-Za-z0-9._-]*', topic):
            die('topic name %r in patches/series is not fit for a directory name' % topic)
        if not patches:
            die('topic %s has no patches in %s' % (topic, show(os.path.join(a.patches,
                                                                              'series'))))
        subject, version, benches, body = read_topic(
            os.path.join(a.patches, 'topics', topic + '.txt'), topic)
        for b in benches:
            wanted.setdefault(b, []).append(topic)
        plan.append((topic, patches, subject, version, benches, body))

    # Every refusal comes before anything is written.
    texts = {}
    for topic, patches, subject, version, benches, body in plan:
        for p in patches:
            path = os.path.join(a.patches, p)
            if not os.path.exists(path):
                die('patches/series names %s, which does not exist' % p)
            texts[p] = read(path)
            if version > 1 and not changes_in(path, texts[p], version):
                die('%s has no \'Changes in v%d:\' paragraph below its \'---\' line '
                    '(topic %s is at Version: %d; add it as a git note in the work tree, '
                    'see make tree)' % (show(path), version, topic, version))
    run, results = load_results(a.results, wanted) if wanted else ({}, {})

    out_plan = []
    for topic, patches, subject, version, benches, body in plan:
        m, files = len(patches), []
        for k, p in enumerate(patches, 1):
            new = rewrite(os.path.join(a.patches, p), texts[p], k, m, version, a.name, a.email)
            files.append(('%04d-%s' % (k, re.sub(r'^[0-9]+-', '', p)), new, p))
        if version > 1 and not re.search(r'^\s*Changes in v%d:' % version, body, re.M | re.I):
            warn('topic %s is at Version: %d but its cover letter has no \'Changes in v%d:\''
                 % (topic, version, version))
        _, date = field(split_mail(files[-1][1], topic)[0], 'Date')
        sections = [numbers(run, results[b], a.results) for b in benches]
        out_plan.append((topic, files, {
            'subject': subject, 'version': version, 'patches': m, 'date': date,
            'from': addr(a.name, a.email), 'body': body, 'numbers': sections,
            'files': [f[0] for f in files]}))

    for topic, files, cover in out_plan:
        d, w = os.path.join(a.out, topic), os.path.join(a.work, topic)
        shutil.rmtree(w, ignore_errors=True)
        os.makedirs(d)
        os.makedirs(os.path.join(w, 'gm'))
        with open(os.path.join(w, 'map'), 'w') as f:
            for name, text, orig in files:
                write(os.path.join(d, name), text)
                f.write('%s\t%s\n' % (os.path.join(a.patches, orig), os.path.join(d, name)))
        write(os.path.join(w, 'cover.json'), json.dumps(cover, indent=1, sort_keys=True))


# ---------------------------------------------------------------- finish

def maintainers(path):
    """(to, cc) from get_maintainer.pl output with role statistics."""
    to, cc = [], []
    for line in read(path).split('\n'):
        line = line.strip()
        if not line:
            continue
        m = re.match(r'^(.*?<[^<>]+>|[^\s<>()]+@[^\s<>()]+)(?: \((.*)\))?$', line)
        if not m:
            die('%s: cannot read get_maintainer.pl line %r' % (show(path), line))
        who, role = header_addr(m.group(1)), m.group(2) or ''
        (cc if re.match(r'^[a-z -]*\blist\b', role) else to).append(who)
    return to, cc


def union(lists, skip=()):
    out, seen = [], {email.utils.parseaddr(s)[1].lower() for s in skip}
    for l in lists:
        for x in l:
            key = email.utils.parseaddr(x)[1].lower() or x
            if key not in seen:
                seen.add(key)
                out.append(x)
    return out


def insert_after_subject(text, extra):
    fields, body = split_mail(text, 'patch')
    si, _ = field(fields, 'Subject')
    fields[si] += '\n' + extra.rstrip('\n') if extra else ''
    return '\n'.join(fields) + '\n\n' + body


def finish(a):
    d, w = os.path.join(a.out, a.topic), os.path.join(a.work, a.topic)
    cover = json.loads(read(os.path.join(w, 'cover.json')))
    with open(os.path.join(w, 'map')) as f:
        orig = {os.path.basename(n): o for o, n in (l.rstrip('\n').split('\t') for l in f)}
    tos, ccs = [], []
    for name in cover['files']:
        to, cc = maintainers(os.path.join(w, 'gm', name))
        to, cc = union([to]), union([cc], skip=to)
        tos.append(to)
        ccs.append(cc)
        p = os.path.join(d, name)
        text = insert_after_subject(read(p), addr_header('To', to) + addr_header('Cc', cc))
        # Below the commit message only the notes may change, never the diff.
        def diff(t):
            m_ = re.search(r'^diff --git .*', t, re.M | re.S)
            return m_.group(0) if m_ else ''
        if diff(text) != diff(read(orig[name])):
            die('%s: the diff differs from the one in %s' % (show(p), show(orig[name])))
        write(p, text)
    to = union(tos)
    cc = union(ccs, skip=to)
    m = cover['patches']
    v = 'v%d ' % cover['version'] if cover['version'] > 1 else ''
    head = ['From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001',
            'From: ' + cover['from'], 'Date: ' + cover['date'],
            fold('Subject: [PATCH %s0/%d] ' % (v, m), cover['subject'])]
    extra = (addr_header('To', to) + addr_header('Cc', cc)).rstrip('\n')
    if extra:
        head.append(extra)
    text = [cover['body']]
    for s in cover['numbers']:
        text.append('\n' + s)
    text.append('\n' + read(os.path.join(w, 'shortlog')).rstrip('\n') + '\n\n')
    text.append(read(os.path.join(w, 'diffstat')).rstrip('\n') + '\n')
    text.append('\nbase-commit: %s\n' % a.base)
    body = ''.join(text)
    if not (body + '\n'.join(head)).isascii():
        head.append('MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n'
                    'Content-Transfer-Encoding: 8bit')
    write(os.path.join(d, '0000-cover-letter.patch'), '\n'.join(head) + '\n\n' + body)
    print(m, len(to), len(cc))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('prepare')
    for opt in ('patches', 'topics', 'results', 'out', 'work', 'name', 'email'):
        p.add_argument('--' + opt, required=True)
    f = sub.add_parser('finish')
    for opt in ('out', 'work', 'base'):
        f.add_argument('--' + opt, required=True)
    f.add_argument('topic')
    a = ap.parse_args()
    prepare(a) if a.cmd == 'prepare' else finish(a)


if __name__ == '__main__':
    main()
