# SPDX-License-Identifier: GPL-2.0
"""bench/freezer/trace.awk on every form of function_graph output.

Each tests/data/ftrace/*.trace is the ftrace buffer of one freeze as the
freezer benchmark's guest printed it (between LSX-TRACE-BEGIN/END, taken
from real boots), with a first line '# lsx-expect METRIC=VALUE ...' stating
what trace.awk must print for it, or '# lsx-expect error=TEXT'.  The
*-printk-events.trace files come from boots with the printk:console event
enabled as well, so that events nest inside the calls on the same CPU (the
open/close form without migration).  The script runs under busybox awk,
as in the guest, and under the host's awk.  The sleepers-1000 traces
hold the form that v1's parser, which knew only 'freeze_processes();',
failed on ('trace lacks a timestamp').
"""

import glob
import os
import shutil
import subprocess

import pytest

from conftest import DATA, TOP

AWK = os.path.join(TOP, 'bench', 'freezer', 'trace.awk')
SAMPLES = sorted(glob.glob(os.path.join(DATA, 'ftrace', '*.trace')))
AWKS = [a for a in (['busybox', 'awk'], ['awk']) if shutil.which(a[0])]


def expect(path):
    with open(path) as f:
        first = f.readline().split()
    assert first[:2] == ['#', 'lsx-expect'], '%s: no lsx-expect line' % path
    return dict(kv.split('=', 1) for kv in first[2:])


def run(awk, path, case='c'):
    p = subprocess.run(awk + ['-v', 'c=' + case, '-f', AWK, path], capture_output=True,
                       text=True, timeout=30)
    return p.returncode, p.stdout.splitlines()


def test_samples_cover_every_form():
    forms = set()
    for s in SAMPLES:
        forms |= set(expect(s).get('forms', '').split(','))
    assert {'leaf', 'open-close', 'migrated'} <= forms, forms
    # An open/close pair on one CPU, too.
    assert any(expect(s).get('forms') == 'open-close' for s in SAMPLES)


@pytest.mark.parametrize('awk', AWKS, ids=[a[0] for a in AWKS])
@pytest.mark.parametrize('path', SAMPLES, ids=[os.path.basename(s) for s in SAMPLES])
def test_sample(awk, path):
    want = expect(path)
    rc, out = run(awk, path, 'x')
    if 'error' in want:
        assert rc == 1
        assert len(out) == 1 and out[0].startswith('LSX-ERROR freezer: x: '), out
        assert want['error'].replace('_', ' ') in out[0]
        return
    assert rc == 0, out
    got = {}
    for l in out:
        f = l.split()
        assert f[0] == 'LSX-BENCH' and f[1] == 'x' and f[3] == 'us', l
        got[f[2]] = float(f[4])
    assert sorted(got) == ['freeze_kernel_us', 'freeze_total_us', 'freeze_user_us']
    for k in got:
        assert got[k] == pytest.approx(float(want[k]), abs=0.11), k


@pytest.mark.parametrize('awk', AWKS, ids=[a[0] for a in AWKS])
def test_truncated_trace_is_an_error(awk, tmp_path):
    """A trace cut before the functions returned names what is missing."""
    src = next(s for s in SAMPLES if 'open-close' in expect(s).get('forms', ''))
    with open(src) as f:
        lines = f.read().splitlines()
    cut = next(i for i, l in enumerate(lines) if 'freeze_processes() {' in l)
    p = tmp_path / 'cut.trace'
    p.write_text('\n'.join(lines[:cut + 1]) + '\n')
    rc, out = run(awk, str(p))
    assert rc == 1 and len(out) == 1
    assert 'freeze_processes()' in out[0] and 'freeze_kernel_threads()' in out[0]


@pytest.mark.parametrize('awk', AWKS, ids=[a[0] for a in AWKS])
def test_empty_trace_is_an_error(awk, tmp_path):
    p = tmp_path / 'empty.trace'
    p.write_text('# tracer: function_graph\n#\n')
    rc, out = run(awk, str(p))
    assert rc == 1 and out == ['LSX-ERROR freezer: c: trace lacks freeze_processes() '
                               'freeze_kernel_threads() suspend_resume:freeze_processes']
