# SPDX-License-Identifier: GPL-2.0
"""bench/real-sleep/trace.awk: one S3 transition's trace to phase totals,
per-driver callback time and the timeline, under busybox awk (as in the
guest) and the host's awk."""

import os
import shutil
import subprocess

import pytest

from conftest import TOP
import timeline

AWK = os.path.join(TOP, 'bench', 'real-sleep', 'trace.awk')
AWKS = [a for a in (['busybox', 'awk'], ['awk']) if shutil.which(a[0])]


def ev(ts, what, cpu=0):
    return '     kworker/%d:1-%d      [00%d] .....   %.6f: %s' % (cpu, 12 + cpu, cpu, ts, what)


def phase(name, b, e):
    return [ev(b, 'suspend_resume: %s[2] begin' % name), ev(e, 'suspend_resume: %s[2] end' % name)]


def cb(drv, dev, parent, start, end, cpu=0, err=0):
    return [ev(start, 'device_pm_callback_start: %s %s, parent: %s, bus [suspend]'
               % (drv, dev, parent), cpu),
            ev(end, 'device_pm_callback_end: %s %s, err=%d' % (drv, dev, err), cpu)]


def transition(skip=None):
    """An S3 trace: two e1000e-like devices overlapping in dpm_suspend, one
    callback of the same name on another bus, the resume phases."""
    t = ['# tracer: nop']
    t += phase('freeze_processes', 10.0, 10.002)
    t += phase('dpm_prepare', 10.003, 10.004)
    t += [ev(10.005, 'suspend_resume: dpm_suspend[2] begin')]
    a = cb('e1000e', '0000:03:00.0', '0000:00:04.0', 10.0051, 10.0071)
    # two devices named ep_00 whose callbacks overlap in two tasks
    b = cb('usb', 'ep_00', '1-1', 10.0052, 10.0056, cpu=1)
    c = cb('usb', 'ep_00', 'usb1', 10.0053, 10.0058, cpu=2)
    t += [a[0], b[0], c[0], b[1], c[1], a[1]]
    # a driver string with a space, and an empty one
    t += cb('i6300ESB timer', '0000:00:05.0', 'pci0000:00', 10.0060, 10.0065)
    t += cb('', 'cooling_device0', 'LNXSYSTM:00', 10.0066, 10.0067)
    # the e1000e's port suspends 0.2 ms after its child ended
    t += cb('pcieport', '0000:00:04.0', '0000:00:00.0', 10.0073, 10.0074)
    t += [ev(10.008, 'suspend_resume: dpm_suspend[2] end')]
    for name, b0 in (('dpm_suspend_late', 10.009), ('dpm_suspend_noirq', 10.011),
                     ('dpm_resume_noirq', 15.0), ('dpm_resume_early', 15.002)):
        t += phase(name, b0, b0 + 0.001)
    t += [ev(15.004, 'suspend_resume: dpm_resume[16] begin')]
    # the port resumes first, its child starts 0.1 ms after it ended
    t += cb('pcieport', '0000:00:04.0', '0000:00:00.0', 15.0040, 15.0045)
    t += cb('e1000e', '0000:03:00.0', '0000:00:04.0', 15.0046, 15.0146)
    t += [ev(15.02, 'suspend_resume: dpm_resume[16] end')]
    t += phase('dpm_complete', 15.021, 15.0215)
    t += phase('thaw_processes', 15.03, 15.031)
    if skip:
        t = [l for l in t if skip not in l]
    return '\n'.join(t) + '\n'


def run(awk, tmp_path, text, *args):
    path = tmp_path / 'trace'
    path.write_text(text)
    amap = tmp_path / 'async'
    amap.write_text('0000:03:00.0 enabled\nep_00 disabled\n')
    p = subprocess.run(awk + ['-v', 'asyncmap=' + str(amap)] + list(args) +
                       ['-f', AWK, str(path)], capture_output=True, text=True, timeout=30)
    return p.returncode, p.stdout.splitlines()


def bench(lines):
    return {tuple(l.split()[1:3]): float(l.split()[4]) for l in lines
            if l.startswith('LSX-BENCH ')}


@pytest.mark.parametrize('awk', AWKS, ids=[a[0] for a in AWKS])
def test_phases_and_drivers(awk, tmp_path):
    rc, out = run(awk, tmp_path, transition(), '-v', 'c=s3-async1',
                  '-v', 'drivers=e1000e usb ahci i6300ESB')
    assert rc == 0, out
    got = bench(out)
    assert got[('s3-async1', 'suspend_us')] == 3000
    assert got[('s3-async1', 'resume_us')] == 16000
    assert got[('s3-async1', 'prepare_us')] == 1000
    assert got[('s3-async1', 'complete_us')] == 500
    assert got[('s3-async1', 'freeze_us')] == 2000
    assert got[('s3-async1', 'thaw_us')] == 1000
    assert got[('s3-async1-e1000e', 'cb_suspend_us')] == 2000
    assert got[('s3-async1-e1000e', 'cb_resume_us')] == 10000
    assert got[('s3-async1', 'start_delay_suspend_us')] == 200
    assert got[('s3-async1', 'start_delay_resume_us')] == 100
    assert got[('s3-async1', 'start_delay_max_resume_us')] == 100
    # two devices named ep_00 at once, each end matched in its own task
    assert got[('s3-async1-usb', 'cb_suspend_us')] == 900
    assert got[('s3-async1-i6300ESB', 'cb_suspend_us')] == 0
    # a listed driver without devices reports 0, so both kernels have it
    assert got[('s3-async1-ahci', 'cb_resume_us')] == 0
    assert not any(l.startswith('LSX-TIMELINE') for l in out)


@pytest.mark.parametrize('awk', AWKS, ids=[a[0] for a in AWKS])
def test_timeline_reads_back(awk, tmp_path):
    rc, out = run(awk, tmp_path, transition(), '-v', 'c=s3-async0', '-v', 'drivers=e1000e',
                  '-v', 'timeline=1')
    assert rc == 0, out
    sec = out[out.index('LSX-TIMELINE-BEGIN') + 1:out.index('LSX-TIMELINE-END')]
    case, devs, cbs = timeline.parse(sec)
    assert case == 's3-async0'
    assert timeline.row_order(sec) == 'the order of their first resume callback'
    # the port resumed first (row 1, not in the map: sync), then the
    # e1000e (async); ep_00 suspended only
    assert devs[0] == (1, False) and devs[1] == (2, True) and devs[2] == (3, False)
    # without the map (pm_async=0) every device is drawn sync
    rc, out = run(awk, tmp_path, transition(), '-v', 'c=s3-async0', '-v', 'drivers=',
                  '-v', 'timeline=1', '-v', 'asyncmap=')
    assert rc == 0, out
    assert all(not a for _, a in timeline.parse(out)[1])
    assert (2, 'resume', 15004600000, 15014600000) in cbs
    assert len([c for c in cbs if c[1] == 'suspend']) == 6
    assert len(devs) == 5  # port, e1000e, the two ep_00 (one name), watchdog, fan
    assert timeline.render(sec, str(tmp_path / 't.png'), 'x')


@pytest.mark.parametrize('awk', AWKS, ids=[a[0] for a in AWKS])
def test_freeze_only(awk, tmp_path):
    rc, out = run(awk, tmp_path, transition(), '-v', 'c=zombies-30000',
                  '-v', 'only=freeze_s3_us')
    assert rc == 0, out
    assert bench(out) == {('zombies-30000', 'freeze_s3_us'): 2000}


@pytest.mark.parametrize('awk', AWKS, ids=[a[0] for a in AWKS])
@pytest.mark.parametrize('skip,only', [('dpm_resume_early', ''),
                                       ('freeze_processes', 'freeze_pmtest_us')])
def test_missing_phase_is_an_error(awk, tmp_path, skip, only):
    rc, out = run(awk, tmp_path, transition(skip), '-v', 'c=c', '-v', 'only=' + only)
    assert rc != 0
    assert any(l.startswith('LSX-ERROR real-sleep: c: no ') for l in out), out
