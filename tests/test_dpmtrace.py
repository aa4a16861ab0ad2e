# SPDX-License-Identifier: GPL-2.0
"""bench/dpm-async/dpmtrace.c on small hand-written ftrace text traces.

The phase windows come from power:suspend_resume, the CPU time from
sched:sched_switch: a CPU is busy from a switch away from pid 0 to the next
switch to pid 0, and only the part inside a window counts.
"""

import os
import subprocess

import pytest

from conftest import TOP

SRC = os.path.join(TOP, 'bench', 'dpm-async', 'dpmtrace.c')


@pytest.fixture(scope='module')
def dpmtrace(tmp_path_factory):
    exe = str(tmp_path_factory.mktemp('dpmtrace') / 'dpmtrace')
    subprocess.run(['gcc', '-O2', '-Wall', '-Werror', '-o', exe, SRC], check=True)
    return exe


def ev(ts, cpu, event, payload, pid=1):
    return '%16s-%-7d [%03d] d..2. %12.6f: %s: %s' % ('task', pid, cpu, ts, event, payload)


def sw(ts, cpu, prev, nxt, state='S'):
    return ev(ts, cpu, 'sched_switch',
              'prev_comm=a prev_pid=%d prev_prio=120 prev_state=%s ==> '
              'next_comm=b next_pid=%d next_prio=120' % (prev, state, nxt), pid=prev)


def phase(ts, name, begin):
    return ev(ts, 0, 'suspend_resume', '%s[2] %s' % (name, 'begin' if begin else 'end'))


def work(ts, cpu, pid, start):
    if start:
        return ev(ts, cpu, 'workqueue_execute_start',
                  'work struct 00000000: function dpm_async_work_fn', pid=pid)
    return ev(ts, cpu, 'workqueue_execute_end', 'work struct 00000000: function '
              'dpm_async_work_fn', pid=pid)


def run(exe, tmp_path, body, ncpus=2):
    lines = ['# tracer: nop', '#',
             '# entries-in-buffer/entries-written: %d/%d   #P:2' % (len(body), len(body)),
             '#'] + body
    trace = tmp_path / 'trace'
    trace.write_text('\n'.join(lines) + '\n')
    env = dict(os.environ, DPMTRACE_NCPUS=str(ncpus))
    p = subprocess.run([exe, 'c', str(trace), 'workers'], capture_output=True, text=True,
                       env=env)
    out = {}
    for l in p.stdout.splitlines():
        f = l.split()
        if f[0] == 'LSX-BENCH':
            out[f[2]] = float(f[4])
        elif f[0] == 'LSX-ERROR':
            out['error'] = l
    return out


def transition(extra):
    """suspend window 10.0-10.1 s, resume window 20.0-20.2 s"""
    body = [phase(10.0, 'dpm_suspend', True), phase(10.1, 'dpm_suspend_noirq', False),
            phase(20.0, 'dpm_resume_noirq', True), phase(20.2, 'dpm_resume', False),
            work(10.0, 1, 50, True), work(10.01, 1, 50, False)]
    return sorted(body + extra, key=lambda l: float(l.split(':')[0].split()[-1]))


def test_busy_inside_the_windows_only(dpmtrace, tmp_path):
    # CPU 1: busy 9.9-10.05 (0.05 s in the window), idle, busy 10.08 to the
    # end (0.02 s); busy 19.0-20.05 (0.05 s); CPU 0 idle from 9.0 on
    out = run(dpmtrace, tmp_path, transition([
        sw(9.0, 0, 7, 0), sw(9.9, 1, 0, 50), sw(10.05, 1, 50, 0), sw(10.08, 1, 0, 51),
        sw(10.5, 1, 51, 0), sw(19.0, 1, 0, 52), sw(20.05, 1, 52, 0)]))
    assert 'error' not in out
    assert out['cpu_busy_suspend_us'] == pytest.approx(70000, abs=1)
    assert out['cpu_share_suspend_us'] == pytest.approx(35000, abs=1)
    assert out['cpu_busy_resume_us'] == pytest.approx(50000, abs=1)
    assert out['suspend_us'] == pytest.approx(100000, abs=1)


def test_busy_before_the_first_switch(dpmtrace, tmp_path):
    # CPU 0's first switch leaves pid 12 for idle at 10.04: busy before it
    out = run(dpmtrace, tmp_path, transition([sw(10.04, 0, 12, 0), sw(20.1, 1, 0, 3)]),
              ncpus=4)
    assert out['cpu_busy_suspend_us'] == pytest.approx(40000, abs=1)
    assert out['cpu_share_suspend_us'] == pytest.approx(10000, abs=1)
    # CPU 1 idle until 20.1, then busy to the end of the window
    assert out['cpu_busy_resume_us'] == pytest.approx(100000, abs=1)


def test_both_cpus_busy_all_through(dpmtrace, tmp_path):
    out = run(dpmtrace, tmp_path, transition([sw(1.0, 0, 0, 5), sw(1.0, 1, 0, 6),
                                              sw(10.05, 0, 5, 8, 'R')]))
    assert out['cpu_busy_suspend_us'] == pytest.approx(200000, abs=1)
    assert out['cpu_share_suspend_us'] == pytest.approx(100000, abs=1)
    assert out['cpu_busy_resume_us'] == pytest.approx(400000, abs=1)


def test_no_switch_is_an_error(dpmtrace, tmp_path):
    assert 'no sched_switch' in run(dpmtrace, tmp_path, transition([]))['error']
