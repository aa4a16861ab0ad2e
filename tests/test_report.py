# SPDX-License-Identifier: GPL-2.0
"""Tests of scripts/report.py on a made-up bench run.

usage: /usr/bin/python3 -m pytest -q tests/test_report.py

The chromium tests are skipped when /usr/bin/chromium is absent.
"""

import json
import os
import re
import subprocess
import sys

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPORT = os.path.join(TOP, 'scripts', 'report.py')
sys.path.insert(0, os.path.join(TOP, 'scripts'))
import report as report_py  # noqa: E402
CHROMIUM = '/usr/bin/chromium'
need_chromium = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                   reason='%s absent (Debian package chromium)' % CHROMIUM)
COLS = ['case', 'metric', 'unit', 'baseline median (min-max)', 'patched median (min-max)',
        'ratio', 'runs', 'goal']
ENV = {'host_cpu': 'AMD EPYC 7B13', 'host_cores': 2, 'host_kernel': '6.1.0-28-amd64',
       'vcpus': 2, 'guest_mem': '2G', 'accel': 'tcg', 'qemu': 'QEMU emulator version 7.2.15',
       'gcc': 'gcc (Debian 12.2.0-14) 12.2.0',
       'base_package': 'linux-source-6.12 6.12.117-1~deb12u1', 'base_commit': '9233d19aa1',
       'series_commit': '42b8e2e0bb',
       'kernels': {'baseline': 'Linux version 6.12.117 (base) #1 SMP',
                   'patched': 'Linux version 6.12.117 (series) #1 SMP'},
       'reps': 5, 'inner': None}
RUN = {
    'command': 'make bench BENCH="freezer dpm-async"', 'started': '2026-12-01T11:40:02Z',
    'updated': '2026-12-01T12:20:11Z', 'env': ENV,
    'benchmarks': [
        {'name': 'dpm-async', 'title': 'Async suspend <ordering> & timelines', 'status': 'ok',
         'cause': None, 'log': None, 'boots': 10,
         'retries': [{'kernel': 'patched', 'rep': 3, 'cause': 'guest hung',
                      'log': 'build/bench/logs/dpm-async-patched-3.log'}],
         'chart': 'dpm-async.png',
         'timelines': {'baseline': 'dpm-async-timeline-baseline.png',
                       'patched': 'dpm-async-timeline-patched.png'},
         'columns': COLS,
         'rows': [['chain-16', 'suspend_us', 'us', '1368 (1337-1539)', '1362 (1339-1451)',
                   '1.00', '10', '<= 1.10 met'],
                  ['tree-64', 'suspend_us', 'us', '5000 (4900-5100)', '4000 (3900-4100)',
                   '0.80', '10', '<= 0.50 MISSED'],
                  ['tree-64', 'resume_us', 'us', '300 (290-310)', '290 (280-300)',
                   '0.97', '10', '']],
         'goals': {'met': 1, 'missed': 1},
         'steps': {'columns': ['case', 'metric', 'unit', 'baseline', 'upto-0011 (ratio)',
                               'patched'],
                   'rows': [['tree-64', 'suspend_us', 'us', '5000', '4500 (0.90)',
                             '4000 (0.80)']],
                   'kernels': {'upto-0011': 'the test-only patches and dpm-async up to '
                                            '0011: PM: sleep: <first> part'}}},
        {'name': 'freezer', 'title': 'Freezer latency with tasks that never freeze',
         'status': 'failed',
         'cause': 'freezer on patched: kernel splat: WARNING at kernel/freezer.c',
         'log': 'build/bench/logs/freezer-patched-2.log', 'boots': 5, 'retries': [],
         'chart': None, 'timelines': {}, 'columns': COLS,
         'rows': [['zombies-0', 'freeze_total_us', 'us', '1368 (1337-1539)',
                   '1362 (1339-1451)', '1.00', '4', '<= 1.10 met']],
         'goals': {'met': 1, 'missed': 0}},
    ]}


def png(path, colour):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 2))
    ax.bar([0, 1], [3, 2], color=colour)
    ax.set_title(os.path.basename(path))
    fig.savefig(path, dpi=60)
    plt.close(fig)


@pytest.fixture
def bench(tmp_path):
    d = tmp_path / 'bench'
    d.mkdir()
    (d / 'run.json').write_text(json.dumps(RUN))
    for fn, c in (('dpm-async.png', '#2b7bb9'), ('dpm-async-timeline-baseline.png', '#8c8c8c'),
                  ('dpm-async-timeline-patched.png', '#f16913')):
        png(str(d / fn), c)
    return d


def report(*args):
    return subprocess.run([sys.executable, REPORT] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=120)


def test_report(bench, tmp_path):
    out = tmp_path / 'report'
    r = report('--in', bench, '--out', out)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith('report: ') and r.stderr == ''
    page = (out / 'index.html').read_text()
    md = (out / 'summary.md').read_text()

    # Environment, kernels per variant, run command and date.
    for v in ('AMD EPYC 7B13', '6.1.0-28-amd64', 'QEMU emulator version 7.2.15', 'tcg',
              'linux-source-6.12 6.12.117-1~deb12u1', '9233d19aa1', '42b8e2e0bb',
              'Linux version 6.12.117 (base) #1 SMP', 'Linux version 6.12.117 (series) #1 SMP',
              '2026-12-01T11:40:02Z', 'gcc (Debian 12.2.0-14) 12.2.0'):
        assert v in page and v in md, v
    assert '<th>baseline kernel</th>' in page and '<th>patched kernel</th>' in page
    assert 'make bench BENCH=&quot;freezer dpm-async&quot;' in page

    # Escaping, tables, goals, failure, retries.
    assert 'Async suspend &lt;ordering&gt; &amp; timelines' in page
    assert '<ordering>' not in page
    assert '<th>baseline median (min-max)</th>' in page
    assert '<td class="missed">&lt;= 0.50 MISSED</td>' in page
    assert '<td class="met">&lt;= 1.10 met</td>' in page
    assert re.search(r'goals: 2 met, <span[^>]*>1 missed', page)
    assert 'dpm-async tree-64 suspend_us: &lt;= 0.50 MISSED' in page
    assert 'benchmarks: 1 ok' in page and '1 failed' in page
    assert 'class="alert"><b>FAILED:</b> freezer on patched: kernel splat' in page
    assert 'build/bench/logs/freezer-patched-2.log' in page
    assert 'patched kernel rep 3: guest hung' in page
    assert '<td>zombies-0</td>' in page  # the failed benchmark's partial table
    # The per-patch table of a benchmark with kernels in between.
    assert '<h3>Patch by patch (ratio to the baseline)</h3>' in page
    assert '<li><code>upto-0011</code>: the test-only patches and dpm-async up to 0011: ' \
        'PM: sleep: &lt;first&gt; part</li>' in page
    assert '<th>upto-0011 (ratio)</th>' in page and '<td class="num">4500 (0.90)</td>' in page

    # Self-contained: three embedded PNGs, nothing fetched from elsewhere.
    assert len(re.findall(r'<img src="data:image/png;base64,[A-Za-z0-9+/=]+"', page)) == 3
    assert not re.search(r'(?:src|href)="(?!data:)', page)
    assert not re.search(r'https?://|url\(', page)

    # Markdown.
    assert '| case | metric | unit | baseline median (min-max) |' in md
    assert '| chain-16 | suspend_us | us | 1368 (1337-1539) | 1362 (1339-1451) | 1.00 | 10 | ' \
        '<= 1.10 met |' in md
    assert '**<= 0.50 MISSED**' in md
    assert '| tree-64 | suspend_us | us | 5000 | 4500 (0.90) | 4000 (0.80) |' in md
    assert '- upto-0011: the test-only patches and dpm-async up to 0011: PM: sleep: <first> ' \
        'part' in md
    assert '- status: failed, 5 boots; cause: freezer on patched: kernel splat: WARNING at ' \
        'kernel/freezer.c; log: build/bench/logs/freezer-patched-2.log' in md
    assert '- retry: patched kernel rep 3: guest hung' in md
    assert '- goals: 2 met, 1 missed' in md
    assert '- REPS 5, INNER from bench meta' in md


@need_chromium
def test_check(bench, tmp_path):
    out = tmp_path / 'report'
    assert report('--in', bench, '--out', out).returncode == 0
    shot = out / 'screenshot.png'
    r = report('--check', out / 'index.html', '--screenshot', shot)  # run.json named in the page
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == 'report: %s renders in chromium: 3/3 charts, screenshot %s' % (
        out / 'index.html', shot)
    assert shot.read_bytes().startswith(b'\x89PNG')


def test_missing_run_json(tmp_path):
    r = report('--in', tmp_path / 'nothing', '--out', tmp_path / 'report')
    assert r.returncode == 1
    assert r.stdout == ''
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith('error: ') and 'run.json' in lines[0]
    assert not (tmp_path / 'report' / 'index.html').exists()


def test_missing_chart(bench, tmp_path):
    (bench / 'dpm-async-timeline-patched.png').unlink()
    out = tmp_path / 'report'
    r = report('--in', bench, '--out', out)
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith('error: ')
    assert 'dpm-async-timeline-patched.png' in lines[0]
    page = (out / 'index.html').read_text()
    assert 'MISSING timeline, patched kernel:' in page
    assert 'dpm-async-timeline-patched.png' in page
    assert len(re.findall(r'<img src="data:', page)) == 2
    assert 'missing chart: dpm-async timeline, patched kernel' in (out / 'summary.md').read_text()
    if os.path.exists(CHROMIUM):  # the page itself renders, but a chart is short
        r = report('--check', out / 'index.html', '--in', bench)
        assert r.returncode == 1 and '2 images on the page' in r.stderr


@need_chromium
def test_check_broken_image(bench, tmp_path):
    page = tmp_path / 'broken.html'
    page.write_text('<!DOCTYPE html><html><body><h1>broken</h1>'
                    '<img src="data:image/png;base64,iVBORw0KGgoAAAAbroken==">'
                    '<div id="render-check"></div><script>%s</script></body></html>'
                    % report_py.SCRIPT)
    r = report('--check', page, '--in', bench, '--screenshot', tmp_path / 'shot.png')
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0] == 'error: %s: only 0 of 1 images rendered in chromium' \
        % page
    assert not (tmp_path / 'shot.png').exists()
