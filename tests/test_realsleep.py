# SPDX-License-Identifier: GPL-2.0
"""scripts/realsleep.py: judging the boots of a make real-sleep run.

Synthetic consoles in the shape guest/real-sleep prints: a plan across
boots that end in hibernation, the callback traces whose order is checked
against parents and device links, and each way a run must fail.
"""

import realsleep


def trace(ts, ev, text):
    return "    kworker/u8:1-42    [001] .....  %.6f: %s: %s" % (ts, ev, text)


def start(ts, dev, parent, drv="pci"):
    return trace(ts, "device_pm_callback_start",
                 "%s %s, parent: %s, bus[suspend]" % (drv, dev, parent))


def end(ts, dev, err=0, drv="pci"):
    return trace(ts, "device_pm_callback_end", "%s %s, err=%d" % (drv, dev, err))


def phase(ts, name, what):
    return trace(ts, "suspend_resume", "%s[2] %s" % (name, what))


def good_trace(label="S3 async=1 cycle 1"):
    """child c1 of port p; consumer k of supplier c1 (a device link)."""
    return ["LSX-PMTRACE-BEGIN " + label,
            phase(1.0, "dpm_suspend", "begin"),
            start(1.1, "k", "none"), end(1.2, "k"),
            start(1.3, "c1", "p"), end(1.4, "c1"),
            start(1.5, "p", "none"), end(1.6, "p"),
            phase(1.7, "dpm_suspend", "end"),
            phase(2.0, "dpm_resume", "begin"),
            start(2.1, "p", "none"), end(2.2, "p"),
            start(2.3, "c1", "p"), end(2.4, "c1"),
            start(2.5, "k", "none"), end(2.6, "k"),
            phase(2.7, "dpm_resume", "end"),
            "LSX-PMTRACE-END"]


TOPO = ["LSX-TOPO-BEGIN", "dev /devices/p", "link c1 k 0 active",
        "link x k 1 active", "LSX-TOPO-END"]


def write_run(tmp_path, boots):
    args = []
    for i, (lines, status) in enumerate(boots, 1):
        p = tmp_path / ("boot-%d.log" % i)
        p.write_text("\n".join(lines) + "\n")
        args.append("%s:%d" % (p, status))
    return args


def passing(tmp_path, first_extra=(), second_extra=()):
    b1 = ["LSX-REAL-START cycles=1", "KTAP version 1", "1..2"] + TOPO + \
        ["ok 1 setup"] + good_trace() + list(first_extra) + \
        ["LSX-REAL-HIBERNATE hibernation async=1 cycle 1", "reboot: Restarting system"]
    b2 = ["# resuming from the image on vda2 (254:2)"] + list(second_extra) + \
        good_trace("hibernation async=1 cycle 1") + \
        ["ok 2 hibernation async=1 cycle 1", "LSX-REAL-DONE tests=2 failed=0",
         "LSX-EXIT 0"]
    return write_run(tmp_path, [(b1, 125), (b2, 0)])


def run(args, capsys):
    rc = realsleep.main(args)
    return rc, capsys.readouterr().out.splitlines()[-1]


def test_passing_run_across_a_hibernation(tmp_path, capsys):
    rc, last = run(passing(tmp_path), capsys)
    assert rc == 0, last
    assert "2 tests ok in 2 boots, 2 traced transitions" in last
    assert "1 device links" in last


def test_sync_state_only_link_is_not_an_ordering(tmp_path):
    assert realsleep.parse_topology(TOPO) == [("c1", "k")]


def test_supplier_suspended_before_its_consumer_fails(tmp_path, capsys):
    bad = ["LSX-PMTRACE-BEGIN S3 async=1 cycle 2",
           phase(1.0, "dpm_suspend", "begin"),
           start(1.1, "c1", "p"), end(1.2, "c1"),
           start(1.15, "k", "none"), end(1.3, "k"),
           phase(1.7, "dpm_suspend", "end"), "LSX-PMTRACE-END"]
    rc, last = run(passing(tmp_path, first_extra=bad), capsys)
    assert rc == 1
    assert "dpm_suspend: c1 started at 1.100000 before k ended" in last


def test_child_resumed_before_its_parent_fails(tmp_path, capsys):
    bad = ["LSX-PMTRACE-BEGIN S3 async=0 cycle 1",
           phase(2.0, "dpm_resume_noirq", "begin"),
           start(2.1, "c1", "p"), end(2.2, "c1"),
           start(2.15, "p", "none"), end(2.3, "p"),
           phase(2.7, "dpm_resume_noirq", "end"), "LSX-PMTRACE-END"]
    rc, last = run(passing(tmp_path, second_extra=bad), capsys)
    assert rc == 1
    assert "dpm_resume_noirq: c1 started at 2.100000 before p ended" in last


def test_callback_twice_and_error_fail(tmp_path, capsys):
    bad = ["LSX-PMTRACE-BEGIN s2idle async=1 cycle 1",
           phase(1.0, "dpm_suspend_late", "begin"),
           start(1.1, "k", "none"), end(1.2, "k"),
           start(1.3, "k", "none"), end(1.4, "k", err=-5),
           phase(1.7, "dpm_suspend_late", "end"), "LSX-PMTRACE-END"]
    rc, _ = run(passing(tmp_path, first_extra=bad), capsys)
    assert rc == 1
    args = passing(tmp_path, first_extra=bad)
    realsleep.main(args)
    out = capsys.readouterr().out
    assert "pci k (parent none) called more than once" in out
    assert "k returned -5" in out


def test_refusal_error_is_expected(tmp_path, capsys):
    ok = ["LSX-PMTRACE-BEGIN refusal async=1",
          phase(1.0, "dpm_suspend", "begin"),
          start(1.1, "dev1", "none", drv="test_dpm_tree"),
          end(1.2, "dev1", err=-16, drv="test_dpm_tree"),
          phase(1.7, "dpm_suspend", "end"), "LSX-PMTRACE-END"]
    rc, last = run(passing(tmp_path, first_extra=ok), capsys)
    assert rc == 0, last


def test_driver_name_with_a_space(tmp_path):
    ev = [(1.0, "suspend_resume", "dpm_suspend[2] begin"),
          (1.1, "device_pm_callback_start",
           "i6300ESB timer 0000:00:04.0, parent: pci0000:00, driver[suspend]"),
          (1.2, "device_pm_callback_end", "i6300ESB timer 0000:00:04.0, err=0"),
          (1.3, "suspend_resume", "dpm_suspend[2] end")]
    ph = realsleep.phases_of(ev)
    assert ph[0][3] == [{"drv": "i6300ESB timer", "dev": "0000:00:04.0",
                         "parent": "pci0000:00", "start": 1.1, "end": 1.2, "err": 0}]


def test_same_name_twice_is_not_a_repeat(tmp_path, capsys):
    """ep_00 of two USB devices: two callbacks, neither called twice, and
    a child of the ambiguous name is not ordered against either."""
    two = ["LSX-PMTRACE-BEGIN S3 async=1 cycle 3",
           phase(1.0, "dpm_suspend", "begin"),
           start(1.1, "ep_00", "1-1", drv="usb"), end(1.2, "ep_00", drv="usb"),
           start(1.3, "ep_00", "1-2", drv="usb"), end(1.4, "ep_00", drv="usb"),
           start(1.05, "x", "ep_00"), end(1.5, "x"),
           phase(1.7, "dpm_suspend", "end"), "LSX-PMTRACE-END"]
    rc, last = run(passing(tmp_path, first_extra=two), capsys)
    assert rc == 0, last


def test_splat_fails(tmp_path, capsys):
    rc, last = run(passing(tmp_path, second_extra=[
        "[   12.3] WARNING: CPU: 1 PID: 7 at drivers/base/power/main.c:99"]), capsys)
    assert rc == 1
    assert "kernel splat" in last


def test_hang_and_missing_resume_fail(tmp_path, capsys):
    args = passing(tmp_path)
    rc, last = run([args[0].rsplit(":", 1)[0] + ":124"], capsys)
    assert rc == 1
    assert "hung" in last
    rc, last = run([args[0]], capsys)
    assert rc == 1
    assert "no boot resumed it" in last


def test_failed_test_and_short_plan_fail(tmp_path, capsys):
    b1 = ["KTAP version 1", "1..3", "ok 1 setup", "not ok 2 S3 async=1 cycle 1",
          "LSX-REAL-DONE tests=2 failed=1", "LSX-EXIT 1"]
    rc, _ = run(write_run(tmp_path, [(b1, 1)]), capsys)
    assert rc == 1
    realsleep.main(write_run(tmp_path, [(b1, 1)]))
    out = capsys.readouterr().out
    assert "not ok 2 S3 async=1 cycle 1" in out
    assert "2 of 3 planned tests reported" in out


def test_forced_wake_fails(tmp_path, capsys):
    args = passing(tmp_path)
    (tmp_path / "waker-1.log").write_text(
        "LSX-WAKER-FORCED 1.0 system_wakeup after 61 s in S3\n")
    rc, last = run(args, capsys)
    assert rc == 1
    assert "the RTC did not wake S3" in last
