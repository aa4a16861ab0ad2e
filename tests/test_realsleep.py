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


def block(label, phases):
    """A trace block with every phase of a sleep transition: each phase
    gets the callbacks PHASES gives it, or one of device z."""
    out = ["LSX-PMTRACE-BEGIN " + label]
    t = 1.0
    for name in realsleep.PHASES:
        cbs = phases.get(name)
        if cbs is None:
            t += 0.01
            cbs = [start(t, "z", "none"), end(t + 0.001, "z")]
        ts = [float(c.split(": ")[0].split()[-1]) for c in cbs] or [t]
        first, last = min(ts), max(ts)
        out.append(phase(min(t, first) - 0.001, name, "begin"))
        out += cbs
        out.append(phase(max(t, last) + 0.001, name, "end"))
        t = max(t, last) + 0.01
    return out + ["LSX-PMTRACE-END"]


def good_trace(label="S3 async=1 cycle 1"):
    """child c1 of port p; consumer k of supplier c1 (a device link)."""
    return block(label, {
        "dpm_suspend": [start(11.1, "k", "none"), end(11.2, "k"),
                        start(11.3, "c1", "p"), end(11.4, "c1"),
                        start(11.5, "p", "none"), end(11.6, "p")],
        "dpm_resume": [start(12.1, "p", "none"), end(12.2, "p"),
                       start(12.3, "c1", "p"), end(12.4, "c1"),
                       start(12.5, "k", "none"), end(12.6, "k")]})


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
    bad = block("S3 async=1 cycle 2", {"dpm_suspend": [
        start(11.1, "c1", "p"), end(11.2, "c1"),
        start(11.15, "k", "none"), end(11.3, "k")]})
    rc = realsleep.main(passing(tmp_path, first_extra=bad))
    out = capsys.readouterr().out
    assert rc == 1
    assert "dpm_suspend: c1 started at 11.100000 before k ended" in out


def test_child_resumed_before_its_parent_fails(tmp_path, capsys):
    bad = block("S3 async=0 cycle 1", {"dpm_resume_noirq": [
        start(12.1, "c1", "p"), end(12.2, "c1"),
        start(12.15, "p", "none"), end(12.3, "p")]})
    rc = realsleep.main(passing(tmp_path, second_extra=bad))
    out = capsys.readouterr().out
    assert rc == 1
    assert "dpm_resume_noirq: c1 started at 12.100000 before p ended" in out


def test_callback_twice_and_error_fail(tmp_path, capsys):
    bad = block("s2idle async=1 cycle 1", {"dpm_suspend_late": [
        start(11.1, "k", "none"), end(11.2, "k"),
        start(11.3, "k", "none"), end(11.4, "k", err=-5)]})
    rc, _ = run(passing(tmp_path, first_extra=bad), capsys)
    assert rc == 1
    args = passing(tmp_path, first_extra=bad)
    realsleep.main(args)
    out = capsys.readouterr().out
    assert "pci k (parent none) called more than once" in out
    assert "k returned -5" in out


def test_refusal_error_is_expected(tmp_path, capsys):
    ok = [l for l in block("refusal async=1", {"dpm_suspend": [
        start(11.1, "dev1", "none", drv="test_dpm_tree"),
        end(11.2, "dev1", err=-16, drv="test_dpm_tree")]})
        if not any(p in l for p in ("_late", "_early", "_noirq"))]
    rc, last = run(passing(tmp_path, first_extra=ok), capsys)
    assert rc == 0, last


def test_refusal_resumes_what_suspended(tmp_path, capsys):
    """In a refused suspend every device whose callback succeeded before
    the failure is resumed; one left suspended fails the run."""
    def refusal(resume):
        return [l for l in block("refusal_async1", {
            "dpm_suspend": [
                start(11.1, "dpmt-0", "dpmt-root", drv="test_dpm_tree"),
                end(11.2, "dpmt-0", drv="test_dpm_tree"),
                start(11.1, "dpmt-1", "dpmt-root", drv="test_dpm_tree"),
                end(11.3, "dpmt-1", err=-16, drv="test_dpm_tree")],
            "dpm_resume": resume})
            if not any(p in l for p in ("_late", "_early", "_noirq"))]
    resumed = refusal([start(12.1, "dpmt-0", "dpmt-root", drv="test_dpm_tree"),
                       end(12.2, "dpmt-0", drv="test_dpm_tree")])
    rc, last = run(passing(tmp_path, first_extra=resumed), capsys)
    assert rc == 0, last
    left = refusal([start(12.1, "z", "none"), end(12.2, "z")])
    rc = realsleep.main(passing(tmp_path, first_extra=left))
    out = capsys.readouterr().out
    assert rc == 1
    assert "refusal_async1: test_dpm_tree dpmt-0 suspended and was not resumed" in out
    assert "dpmt-1 suspended" not in out


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
    two = block("S3 async=1 cycle 3", {"dpm_suspend": [
        start(11.1, "ep_00", "1-1", drv="usb"), end(11.2, "ep_00", drv="usb"),
        start(11.3, "ep_00", "1-2", drv="usb"), end(11.4, "ep_00", drv="usb"),
        start(11.05, "x", "ep_00"), end(11.5, "x")]})
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


def test_missing_or_cut_trace_fails(tmp_path, capsys):
    """An announced transition without its trace, a phase missing, a
    phase without callbacks, a refusal that nobody refused: all fail."""
    cut = [l for l in block("S3_async1_cycle9", {}) if "dpm_resume_noirq" not in l]
    empty = block("S3_async0_cycle9", {"dpm_suspend": []})
    lazy = [l for l in block("refusal_async1", {}) if "_late" not in l and
            "_early" not in l and "_noirq" not in l]
    extra = ["LSX-REAL-TRANSITION s2idle_async1_cycle9"] + cut + empty + lazy
    rc = realsleep.main(passing(tmp_path, first_extra=extra))
    out = capsys.readouterr().out
    assert rc == 1
    assert "s2idle_async1_cycle9: no complete callback trace" in out
    assert "S3_async1_cycle9: no dpm_resume_noirq in the trace" in out
    assert "S3_async0_cycle9 dpm_suspend: no callback traced" in out
    assert "refusal_async1: no suspend callback returned -EBUSY" in out


def test_error_after_the_snapshot_fails(tmp_path, capsys):
    args = passing(tmp_path)
    log = args[0].rsplit(":", 1)[0]
    text = open(log).read().replace(
        "reboot: Restarting system",
        "[  9.1] PM: Device 0000:00:02.0 failed to thaw: error -5\n"
        "[  9.2] xhci_hcd 0000:04:00.0: xHC error in resume, USBSTS 0x401, Reinit\n"
        "reboot: Restarting system")
    open(log, "w").write(text)
    rc, last = run(args, capsys)
    assert rc == 1
    assert "after the snapshot: [  9.1] PM: Device 0000:00:02.0 failed to thaw" in last
