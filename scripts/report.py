#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""HTML and markdown report of a benchmark run, and a browser check of it.

usage: report.py [--in build/bench] [--out build/report]
       report.py --check OUT/index.html [--in DIR] [--screenshot PNG]

The first form reads IN/run.json (written by bench.py) and the charts it
names and writes OUT/index.html, one self-contained page (charts embedded
as data: URIs, inline CSS, no external resources), and OUT/summary.md, the
same tables in GitHub markdown.  A chart named in run.json but missing on
disk is left out and named on the page; the files are still written and
the exit status is 1.  The directories default to $BUILD/bench and
$BUILD/report, $BUILD being build/ at the top of the repository.

The second form renders the page in headless chromium: the DOM after load
must show every image loaded (a small script on the page counts them into
#render-check), as many images as run.json names charts and timelines
(IN/run.json, by default the one the page was made from), and a
screenshot (default: screenshot.png next to the page) that is not blank.
"""

import argparse
import base64
import html
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get('BUILD') or os.path.join(TOP, 'build')
CHROMIUM = '/usr/bin/chromium'
TIMEOUT = 60
PNG_MAGIC = b'\x89PNG\r\n\x1a\n'
ENV = [  # (key, label); 'kernels' is shown per variant
    ('host_cpu', 'host CPU'), ('host_cores', 'host cores'), ('host_kernel', 'host kernel'),
    ('vcpus', 'guest vCPUs'), ('guest_mem', 'guest memory'), ('accel', 'QEMU accelerator'),
    ('qemu', 'QEMU'), ('gcc', 'gcc'), ('base_package', 'base package'),
    ('base_commit', 'base commit'), ('series_commit', 'series commit'),
    ('reps', 'boots per kernel (REPS)'), ('inner', 'measurements per boot (INNER)'),
]
CSS = '''
body { font: 14px/1.4 sans-serif; margin: 1.5em auto; max-width: 1240px; padding: 0 1em;
       color: #222; background: #fff; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { border-bottom: 1px solid #ccc; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #bbb; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #eee; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.met { background: #dff0d8; }
td.missed { background: #f2dede; color: #a00; font-weight: bold; }
.meta { color: #555; }
.ok { color: #2a7a2a; font-weight: bold; }
.failed { color: #a00; font-weight: bold; }
.alert { border: 2px solid #a00; background: #fbeaea; padding: 0.5em 1em; margin: 0.6em 0; }
.alert code { font-size: 1.05em; }
figure { margin: 0.8em 0; }
figcaption { color: #555; font-size: 0.9em; }
img { max-width: 100%; border: 1px solid #ddd; }
code { background: #f4f4f4; padding: 0 3px; }
#render-check { color: #999; font-size: 0.8em; margin-top: 2em; }
'''
# Counts the images that rendered; --check reads the result from the DOM.
SCRIPT = '''
window.addEventListener('load', function () {
  var imgs = document.images, n = 0;
  for (var i = 0; i < imgs.length; i++)
    if (imgs[i].complete && imgs[i].naturalWidth > 0)
      n++;
  var e = document.getElementById('render-check');
  e.setAttribute('data-images', imgs.length);
  e.setAttribute('data-loaded', n);
  e.setAttribute('data-height', document.documentElement.scrollHeight);
  e.textContent = 'render check: ' + n + '/' + imgs.length + ' images loaded';
});
'''


def die(msg):
    print('error: ' + msg, file=sys.stderr)
    sys.exit(1)


def esc(v):
    return html.escape('-' if v is None else str(v))


def load_run(path):
    try:
        with open(path) as f:
            run = json.load(f)
    except OSError as e:
        die('cannot read %s: %s' % (path, e.strerror))
    except ValueError as e:
        die('%s: bad JSON: %s' % (path, e))
    if not isinstance(run, dict) or not isinstance(run.get('benchmarks', []), list):
        die('%s: not a bench run (no benchmarks list)' % path)
    return run


def images(b):
    """[(label, file name)] of a benchmark's chart and timelines."""
    out = [('chart', b['chart'])] if b.get('chart') else []
    tl = sorted((b.get('timelines') or {}).items())
    return out + [('timeline, %s kernel' % k, v) for k, v in tl if v]


def goal_class(text):
    if 'MISSED' in text:
        return 'missed'
    return 'met' if 'met' in text else ''


def missed_goals(b):
    cols = b.get('columns') or []
    if 'goal' not in cols:
        return []
    gi = cols.index('goal')
    out = []
    for r in b.get('rows') or []:
        for g in str(r[gi]).split(';'):
            if 'MISSED' in g:
                out.append('%s %s: %s' % (r[0], r[1] if len(r) > 1 else '', g.strip()))
    return out


def goal_counts(b):
    g = b.get('goals') or {}
    if 'met' in g or 'missed' in g:
        return g.get('met', 0), g.get('missed', 0)
    cols = b.get('columns') or []
    gi = cols.index('goal') if 'goal' in cols else None
    parts = [p for r in b.get('rows') or [] if gi is not None for p in str(r[gi]).split(';')]
    return sum(' met' in p for p in parts), sum('MISSED' in p for p in parts)


def env_rows(env):
    rows = [(label, env.get(k)) for k, label in ENV]
    for k, v in sorted((env.get('kernels') or {}).items()):
        rows.append(('%s kernel' % k, v))
    known = {k for k, _ in ENV} | {'kernels'}
    rows += [(k, env[k]) for k in sorted(env) if k not in known]
    return [(l, 'from bench meta' if l.startswith('measurements') and v is None else v)
            for l, v in rows]


def md_env(env):
    g = lambda k: '-' if env.get(k) is None else str(env[k])  # noqa: E731
    out = ['- host: %s, %s cores, kernel %s' % (g('host_cpu'), g('host_cores'), g('host_kernel')),
           '- guest: %s vCPUs, %s memory, %s, %s' % (g('vcpus'), g('guest_mem'), g('accel'),
                                                     g('qemu')),
           '- compiler: %s' % g('gcc'),
           '- base: %s, commit %s; series commit %s' % (g('base_package'), g('base_commit'),
                                                       g('series_commit'))]
    out += ['- %s kernel: %s' % kv for kv in sorted((env.get('kernels') or {}).items())]
    out.append('- REPS %s, INNER %s' % (g('reps'), 'from bench meta' if env.get('inner') is None
                                        else g('inner')))
    known = {k for k, _ in ENV} | {'kernels'}
    return out + ['- %s: %s' % (k, env[k]) for k in sorted(env) if k not in known]


def html_table(b):
    cols = b.get('columns') or []
    out = ['<table>', '<tr>' + ''.join('<th>%s</th>' % esc(c) for c in cols) + '</tr>']
    for r in b.get('rows') or []:
        cells = []
        for c, v in zip(cols, r):
            cls = goal_class(str(v)) if c == 'goal' else (
                'num' if c in ('ratio', 'runs', 'baseline', 'patched') or 'median' in c
                or '(ratio)' in c else '')
            cells.append('<td%s>%s</td>' % (' class="%s"' % cls if cls else '', esc(v)))
        out.append('<tr>' + ''.join(cells) + '</tr>')
    return '\n'.join(out + ['</table>'])


def md_cell(v):
    s = '-' if v is None else str(v).replace('|', '\\|').replace('\n', ' ')
    return '**%s**' % s if 'MISSED' in s else s


def md_table(b):
    cols = b.get('columns') or []
    out = ['| ' + ' | '.join(md_cell(c) for c in cols) + ' |',
           '|' + '|'.join('---' for _ in cols) + '|']
    return out + ['| ' + ' | '.join(md_cell(v) for v in r) + ' |' for r in b.get('rows') or []]


def status_text(b):
    s = '%s, %s boots' % (b.get('status', '?'), b.get('boots', '?'))
    if b.get('status') != 'ok':
        s += '; cause: %s; log: %s' % (b.get('cause') or 'unknown', b.get('log') or '-')
    return s


def retry_text(r):
    return '%s kernel rep %s: %s (log: %s)' % (
        r.get('kernel', '?'), r.get('rep', '?'), r.get('cause') or '?', r.get('log') or '-')


def write_report(indir, outdir):
    run = load_run(os.path.join(indir, 'run.json'))
    env = run.get('env') or {}
    benches = run.get('benchmarks') or []
    missing = []  # (benchmark, label, file)
    nok = sum(b.get('status') == 'ok' for b in benches)
    met = sum(goal_counts(b)[0] for b in benches)
    nmissed = sum(goal_counts(b)[1] for b in benches)
    allmissed = [(b.get('name', '?'), g) for b in benches for g in missed_goals(b)]

    # Sections first: they find the missing charts the summary names.
    sections, md_sections, nimg = [], [], 0
    for b in benches:
        name = b.get('name', '?')
        failed = b.get('status') != 'ok'
        h = ['<section id="bench-%s">' % esc(name),
             '<h2>%s: %s</h2>' % (esc(name), esc(b.get('title', ''))),
             '<p>status: <span class="%s">%s</span>, %s boots</p>' % (
                 'failed' if failed else 'ok', esc(b.get('status', '?')), esc(b.get('boots')))]
        if failed:
            h.append('<div class="alert"><b>FAILED:</b> %s<br>log: <code>%s</code></div>' % (
                esc(b.get('cause') or 'unknown cause'), esc(b.get('log'))))
        retries = b.get('retries') or []
        if retries:
            h.append('<p>retries (%d):</p><ul>' % len(retries) + ''.join(
                '<li>%s</li>' % esc(retry_text(r)) for r in retries) + '</ul>')
        if b.get('rows'):
            h.append(html_table(b))
        else:
            h.append('<p class="meta">no measurements</p>')
        st = b.get('steps')
        if st and st.get('rows'):
            h.append('<h3>Patch by patch (ratio to the baseline)</h3><ul>' + ''.join(
                '<li><code>%s</code>: %s</li>' % (esc(k), esc(v))
                for k, v in sorted((st.get('kernels') or {}).items())) + '</ul>')
            h.append(html_table(st))
        for label, fn in images(b):
            path = os.path.join(indir, fn)
            try:
                with open(path, 'rb') as f:
                    data = f.read()
                if not data.startswith(PNG_MAGIC):
                    raise OSError('not a PNG file')
            except OSError as e:
                missing.append((name, label, fn))
                h.append('<div class="alert"><b>MISSING %s:</b> <code>%s</code> (%s)</div>' % (
                    esc(label), esc(path), esc(getattr(e, 'strerror', None) or e)))
                continue
            nimg += 1
            h.append('<figure><img src="data:image/png;base64,%s" alt="%s %s">'
                     '<figcaption>%s %s (%s)</figcaption></figure>' % (
                         base64.b64encode(data).decode(), esc(name), esc(label),
                         esc(name), esc(label), esc(fn)))
        sections.append('\n'.join(h + ['</section>']))

        m = ['## %s: %s' % (name, b.get('title', '')), '', '- status: ' + status_text(b)]
        m += ['- retry: ' + retry_text(r) for r in retries]
        m += ['- missing %s: %s' % (l, fn) for n, l, fn in missing if n == name]
        m += [''] + (md_table(b) if b.get('rows') else ['no measurements']) + ['']
        if st and st.get('rows'):
            m += ['Patch by patch (ratio to the baseline):', '']
            m += ['- %s: %s' % kv for kv in sorted((st.get('kernels') or {}).items())]
            m += [''] + md_table(st) + ['']
        md_sections.append('\n'.join(m))

    # Page.
    title = 'Benchmark report: %s' % run.get('command', '?')
    p = ['<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8">',
         '<meta name="lsx-run" content="%s">' % esc(os.path.abspath(
             os.path.join(indir, 'run.json'))),
         '<title>%s</title>' % esc(title), '<style>%s</style>' % CSS, '</head><body>',
         '<h1>%s</h1>' % esc(title),
         '<p class="meta">command <code>%s</code>, started %s, updated %s</p>' % (
             esc(run.get('command')), esc(run.get('started')), esc(run.get('updated'))),
         '<h2>Environment</h2>', '<table>'] + [
         '<tr><th>%s</th><td>%s</td></tr>' % (esc(l), esc(v)) for l, v in env_rows(env)] + [
         '</table>', '<h2>Summary</h2>', '<ul>',
         '<li>benchmarks: %d ok, <span class="%s">%d failed</span>%s</li>' % (
             nok, 'failed' if len(benches) - nok else '', len(benches) - nok, ''.join(
                 ' &mdash; %s: %s' % (esc(b.get('name')), esc(b.get('cause') or 'failed'))
                 for b in benches if b.get('status') != 'ok')),
         '<li>goals: %d met, <span class="%s">%d missed</span></li>' % (
             met, 'failed' if nmissed else '', nmissed)]
    if allmissed:
        p.append('<li>missed goals:<ul>' + ''.join('<li class="failed">%s %s</li>' % (
            esc(n), esc(g)) for n, g in allmissed) + '</ul></li>')
    p.append('<li>charts: %d embedded%s</li>' % (nimg, ''.join(
        ', <span class="failed">MISSING %s %s (%s)</span>' % (esc(n), esc(l), esc(fn))
        for n, l, fn in missing)))
    p += ['</ul>'] + sections
    p += ['<div id="render-check">render check: not run</div>',
          '<script>%s</script>' % SCRIPT, '</body></html>', '']

    md = ['# ' + title, '', 'command `%s`, started %s, updated %s' % (
        run.get('command', '?'), run.get('started', '?'), run.get('updated', '?')), '',
        '## Environment', '']
    md += md_env(env)
    md += ['', '## Summary', '', '- benchmarks: %d ok, %d failed' % (nok, len(benches) - nok)]
    md += ['  - %s failed: %s' % (b.get('name'), b.get('cause') or '?')
           for b in benches if b.get('status') != 'ok']
    md += ['- goals: %d met, %d missed' % (met, nmissed)]
    md += ['  - %s %s' % (n, g) for n, g in allmissed]
    md += ['- missing chart: %s %s (%s)' % (n, l, fn) for n, l, fn in missing]
    md += [''] + md_sections

    os.makedirs(outdir, exist_ok=True)
    for fn, text in (('index.html', '\n'.join(p)), ('summary.md', '\n'.join(md))):
        with open(os.path.join(outdir, fn), 'w') as f:
            f.write(text)
    if missing:
        die('%s written without %s' % (os.path.join(outdir, 'index.html'), ', '.join(
            '%s %s (%s missing)' % (n, l, os.path.join(indir, fn)) for n, l, fn in missing)))
    print('report: %s, %s (%d benchmarks, %d charts)' % (
        os.path.join(outdir, 'index.html'), os.path.join(outdir, 'summary.md'),
        len(benches), nimg))
    return 0


def chromium(url, *args):
    """Run headless chromium on url; its stdout, or die."""
    if not os.access(CHROMIUM, os.X_OK):
        die('%s not found (Debian package chromium)' % CHROMIUM)
    prof = tempfile.mkdtemp(prefix='report-chromium-')
    cmd = [CHROMIUM, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
           '--no-first-run', '--disable-background-networking', '--disable-component-update',
           '--disable-sync', '--user-data-dir=' + prof] + list(args) + [url]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        die('chromium timed out after %d s on %s' % (TIMEOUT, url))
    finally:
        shutil.rmtree(prof, ignore_errors=True)
    if p.returncode != 0:
        last = err.decode(errors='replace').strip().splitlines()[-1:] or ['']
        die('chromium exited with status %d: %s' % (p.returncode, last[0]))
    return out.decode(errors='replace')


def distinct_colours(path):
    """True when the PNG at path has more than one colour."""
    try:
        import matplotlib.image
    except ImportError:
        die('python3-matplotlib missing, cannot read the screenshot')
    try:
        a = matplotlib.image.imread(path)
    except Exception as e:  # noqa: BLE001 - any decoding error means a bad file
        die('cannot read screenshot %s: %s' % (path, e))
    return a.size > 0 and bool((a != a[0, 0]).any())


def check(page, indir, shot):
    try:
        with open(page) as f:
            text = f.read()
    except OSError as e:
        die('cannot read %s: %s' % (page, e.strerror))
    m = re.search(r'<meta name="lsx-run" content="([^"]*)">', text)
    if indir:
        rj = os.path.join(indir, 'run.json')
    elif m:
        rj = html.unescape(m.group(1))
    else:
        die('%s does not name its run.json; give --in DIR' % page)
    run = load_run(rj)
    want = sum(len(images(b)) for b in run.get('benchmarks') or [])
    url = pathlib.Path(os.path.abspath(page)).as_uri()
    dom = chromium(url, '--window-size=1280,800', '--dump-dom')
    m = re.search(r'<div id="render-check"([^>]*)>', dom)
    if not m:
        die('%s: no #render-check element in the rendered DOM' % page)
    attrs = dict(re.findall(r'data-(\w+)="(\d+)"', m.group(1)))
    if 'images' not in attrs or 'loaded' not in attrs:
        die('%s: the render check script did not run' % page)
    n, loaded = int(attrs['images']), int(attrs['loaded'])
    if loaded != n:
        die('%s: only %d of %d images rendered in chromium' % (page, loaded, n))
    if n != want:
        die('%s: %d images on the page, %s names %d charts and timelines' % (
            page, n, rj, want))
    height = min(max(int(attrs.get('height', 0)) + 20, 800), 30000)
    if os.path.exists(shot):
        os.unlink(shot)
    chromium(url, '--window-size=1280,%d' % height, '--hide-scrollbars', '--screenshot=' +
             os.path.abspath(shot))
    if not os.path.isfile(shot) or os.path.getsize(shot) == 0:
        die('chromium wrote no screenshot %s' % shot)
    if not distinct_colours(shot):
        die('screenshot %s is blank (one colour)' % shot)
    print('report: %s renders in chromium: %d/%d charts, screenshot %s' % (
        page, loaded, n, shot))
    return 0


def main():
    ap = argparse.ArgumentParser(description='HTML/markdown report of a bench run.')
    ap.add_argument('--in', dest='indir')
    ap.add_argument('--out', default=os.path.join(BUILD, 'report'))
    ap.add_argument('--check', metavar='INDEX_HTML')
    ap.add_argument('--screenshot', metavar='PNG')
    a = ap.parse_args()
    if a.check:
        return check(a.check, a.indir, a.screenshot or os.path.join(
            os.path.dirname(a.check), 'screenshot.png'))
    return write_report(a.indir or os.path.join(BUILD, 'bench'), a.out)


if __name__ == '__main__':
    sys.exit(main())
