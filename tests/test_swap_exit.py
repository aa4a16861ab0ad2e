# SPDX-License-Identifier: GPL-2.0
"""bench/swap-exit: the meta's goals against what the guest measures.

Every goal names a case that guest.sh runs by default and a metric that
swapexit.c prints; swapexit.c builds as the initramfs builds it (static),
without a warning under -Wall -Wextra, and refuses a bad command line
before it touches the system (cgroups, swap).
"""

import os
import re
import subprocess

import pytest

from conftest import TOP
import bench

DIR = os.path.join(TOP, 'bench', 'swap-exit')
CASES = {'s128-1', 's512-1', 's512-4', 's512-8', 's512-floor', 'm256-1'}


def source(name):
    with open(os.path.join(DIR, name)) as f:
        return f.read()


def default_cases():
    m = re.search(r'^CASES=\$\{LSX_SWAPEXIT_CASES:-([^}]*)\}', source('guest.sh'), re.M)
    return set(m.group(1).split())


def printed_metrics():
    return set(re.findall(r'LSX-BENCH %s (\w+) ', source('swapexit.c')))


def test_cases():
    assert default_cases() == CASES


def test_goals_name_cases_run_and_metrics_printed():
    m = bench.meta('swap-exit')
    cases, metrics = default_cases(), printed_metrics()
    named = [(c, mt) for c, mt, _ in m['goals']] + [(c, mt) for c, mt, *_ in m['vs']] + \
        [(c, mt) for c, mt, _ in m['limits']] + [(c, mt) for c, mt, _ in m['bounds']]
    named += [(o, mt) for _, mt, o, *_ in m['vs']] + [(c, o) for c, _, o in m['bounds']]
    for c, mt in named:
        assert c in cases and mt in metrics, (c, mt)


def test_goals_of_version_2():
    m = bench.meta('swap-exit')
    goals = {(c, mt): r for c, mt, r in m['goals']}
    assert goals.pop(('s512-1', 'exit_latency_us')) == 0.25
    for c in ('s512-1', 's512-4', 's512-8'):
        assert goals.pop((c, 'memory_back_ms')) == 1.0
        assert goals.pop((c, 'swap_release_ms')) == 1.0
    for c in CASES:
        assert goals.pop((c, 'cpu_total_ms')) == 1.05
    assert goals == {}
    assert m['vs'] == [('s512-1', 'exit_latency_us', 's512-floor', 'exit_latency_us',
                        's512-floor', 2.0)]
    assert sorted(m['bounds']) == sorted((c, 'pending_peak_mib', 'pending_bound_mib')
                                         for c in CASES)
    assert m['limits'] == [('s512-4', 'probe_slowdown_pct', 13.0)]
    assert int(m['timeout']) >= 720


def test_no_v1_interface_left():
    for name in ('guest.sh', 'swapexit.c', 'meta'):
        text = source(name)
        assert 'swap_defer' not in text and 'batch_peak' not in text, name


@pytest.fixture(scope='module')
def swapexit(tmp_path_factory):
    exe = str(tmp_path_factory.mktemp('swapexit') / 'swapexit')
    p = subprocess.run(['gcc', '-static', '-O2', '-Wall', '-Wextra', '-Werror', '-o', exe,
                        os.path.join(DIR, 'swapexit.c')], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return exe


@pytest.mark.parametrize('args,err', [
    ([], 'usage: swapexit'),
    (['x512-1', '1', 'zram0'], 'usage: swapexit'),
    (['m256-floor', '1', 'zram0'], 'm256-floor: bad case or REPS'),
    (['s512-9', '1', 'zram0'], 's512-9: bad case or REPS'),
    (['s512-1', '0', 'zram0'], 's512-1: bad case or REPS'),
])
def test_bad_command_line(swapexit, args, err):
    p = subprocess.run([swapexit] + args, capture_output=True, text=True, timeout=10)
    assert p.returncode == 1
    assert p.stdout.startswith('LSX-ERROR swap-exit: ') and err in p.stdout
