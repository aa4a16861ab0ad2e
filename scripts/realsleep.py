#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge a make real-sleep run.

    realsleep.py LOG:STATUS...      one argument per boot, in boot order

Each LOG is the console of one boot of the q35 guest (guest/real-sleep),
STATUS the exit status scripts/run-vm.sh gave for it.  The run passes when
  - every boot but the last ended in a hibernation (status 125 after
    LSX-REAL-HIBERNATE and the kernel's restart), the last with status 0
    after LSX-REAL-DONE, and no boot needed the host to wake S3 by force;
  - the KTAP results across the boots follow the plan, numbered 1..N,
    all ok;
  - no kernel log holds a splat (WARNING, BUG, Oops, lockdep, hung task,
    panic);
  - in every traced transition each device's PM callback ran at most once
    per phase, ended without error (except in the refusal transition,
    where one device refuses and every device that had suspended by then
    is resumed),
    and in the suspend phases ended before its parent's and suppliers'
    callbacks started, in the resume phases started only after theirs
    ended (parents from the trace, device links from the guest's
    /sys/class/devlink dump, SYNC_STATE_ONLY and dormant links excluded,
    as the PM core excludes them).
Prints a table per transition (phase times, callbacks, the most that ran
at once) and one last line with the verdict; exits 1 on a failure.
"""
import os
import re
import sys
from collections import defaultdict

SPLAT = re.compile(r"(WARNING:|BUG:|Oops|Call Trace:|possible circular locking|"
                   r"possible recursive locking|inconsistent lock state|"
                   r"INFO: task .* blocked|Kernel panic|general protection fault|"
                   r"UBSAN:|KASAN:|KCSAN:)")
RESULT = re.compile(r"^(not ok|ok) (\d+) (.*)$")
TRACE = re.compile(r"\s(\d+\.\d+): (device_pm_callback_start|device_pm_callback_end|"
                   r"suspend_resume): (.*)$")
SUSPEND_PHASES = ("dpm_suspend", "dpm_suspend_late", "dpm_suspend_noirq")
RESUME_PHASES = ("dpm_resume_noirq", "dpm_resume_early", "dpm_resume")
PHASES = ("dpm_prepare",) + SUSPEND_PHASES + RESUME_PHASES + ("dpm_complete",)


def guest_pattern(name):
    """BAD or BENIGN of guest/real-sleep (extended regexps that Python's re
    reads alike): its check_all's kernel log patterns, for the part of a
    hibernation that only the console sees (after the snapshot: thaw,
    writing the image, restart; the resume replaces that memory)."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "guest", "real-sleep")
    with open(path) as f:
        for line in f:
            if line.startswith(name + "='"):
                return re.compile(line.split("'")[1])
    raise SystemExit("realsleep.py: no %s= in %s" % (name, path))


BAD = guest_pattern("BAD")
BENIGN = guest_pattern("BENIGN")


def expected_phases(label):
    """The phases a transition must have traced, with callbacks in those
    whose name is not *_late or *_early (few devices have those)."""
    if label.startswith("refusal") or label.startswith("hibernation_pm_test_devices"):
        return ("dpm_prepare", "dpm_suspend", "dpm_resume", "dpm_complete")
    if label.startswith("hibernation_pm_test_freezer"):
        return ()
    return PHASES


def parse_topology(lines):
    links = []
    inside = False
    for line in lines:
        if line.startswith("LSX-TOPO-BEGIN"):
            inside = True
        elif line.startswith("LSX-TOPO-END"):
            inside = False
        elif inside and line.startswith("link "):
            f = line.split()
            if len(f) >= 5 and f[3] == "0" and f[4] != "dormant":
                links.append((f[1], f[2]))
    return links


def parse_traces(lines):
    """[(label, [(ts, event, text)])] for every LSX-PMTRACE block."""
    blocks = []
    cur = None
    for line in lines:
        if line.startswith("LSX-PMTRACE-BEGIN "):
            cur = (line.split(" ", 1)[1].strip(), [])
        elif line.startswith("LSX-PMTRACE-END"):
            if cur:
                blocks.append(cur)
            cur = None
        elif cur is not None:
            m = TRACE.search(line)
            if m:
                cur[1].append((float(m.group(1)), m.group(2), m.group(3)))
    return blocks


def phases_of(events):
    """Split a transition's events into phase instances.

    Returns [(phase, begin, end, recs)], recs a list of callbacks
    {"drv", "dev", "parent", "start", "end", "err"}.  A device name is
    not unique (ata1 is a port and its transport device, every USB device
    has an ep_00): a callback is known by its driver string, name and
    parent, and an end goes to the open start of the same driver string
    and name.
    """
    out = []
    cur = None
    for ts, ev, text in events:
        if ev == "suspend_resume":
            m = re.match(r"(\w+)\[(\d+)\] (begin|end)", text)
            if not m or m.group(1) not in PHASES:
                continue
            if m.group(3) == "begin":
                cur = [m.group(1), ts, None, []]
                out.append(cur)
            elif cur and cur[0] == m.group(1):
                cur[2] = ts
                cur = None
            continue
        if cur is None:
            continue
        if ev == "device_pm_callback_start":
            head, _, rest = text.partition(", parent: ")
            drv, _, dev = head.rpartition(" ")
            parent = rest.rsplit(", ", 1)[0] if rest else "none"
            cur[3].append({"drv": drv, "dev": dev, "parent": parent,
                           "start": ts, "end": None, "err": 0})
        else:
            head, _, err = text.rpartition(", err=")
            drv, _, dev = head.rpartition(" ")
            for r in reversed(cur[3]):
                if r["dev"] == dev and r["drv"] == drv and r["end"] is None:
                    r["end"] = ts
                    try:
                        r["err"] = int(err)
                    except ValueError:
                        pass
                    break
    return out


def ident(r):
    """What names a callback's device in a phase (phases_of())."""
    return (r["drv"], r["dev"], r["parent"])


def concurrency(recs):
    pts = []
    for r in recs:
        if r["end"] is not None:
            pts.append((r["start"], 1))
            pts.append((r["end"], -1))
    best = now = 0
    for _, d in sorted(pts, key=lambda p: (p[0], p[1])):
        now += d
        best = max(best, now)
    return best


def check_complete(label, phases, problems):
    """Every phase the transition must have, begun, ended, with callbacks."""
    have = {}
    for phase, begin, end, recs in phases:
        if end is None:
            problems.append("%s %s: the phase never ended in the trace" % (label, phase))
        have.setdefault(phase, 0)
        have[phase] += len(recs)
    for phase in expected_phases(label):
        if phase not in have:
            problems.append("%s: no %s in the trace" % (label, phase))
        elif not have[phase] and not phase.endswith(("_late", "_early")):
            problems.append("%s %s: no callback traced" % (label, phase))
    if not label.startswith("refusal"):
        return
    if not any(r["err"] == -16 for p in phases if p[0] == "dpm_suspend" for r in p[3]):
        problems.append("%s: no suspend callback returned -EBUSY" % label)
    # The failure stops the phase; what had suspended by then resumes.
    resumed = {ident(r) for p in phases if p[0] == "dpm_resume" for r in p[3]}
    for p in phases:
        if p[0] != "dpm_suspend":
            continue
        for r in p[3]:
            if r["end"] is not None and not r["err"] and ident(r) not in resumed:
                problems.append("%s: %s %s suspended and was not resumed" %
                                (label, r["drv"], r["dev"]))


def check_order(label, phases, links, problems):
    """Order checks of one transition; returns the pairs checked.

    Pairs whose names are ambiguous in the phase (two callbacks of devices
    with that name) are left out; a device called twice is a problem.
    """
    checked = 0
    refusal = label.startswith("refusal")
    for phase, begin, end, recs in phases:
        seen = {}
        byname = defaultdict(list)
        for r in recs:
            k = ident(r)
            if k in seen:
                problems.append("%s %s: %s %s (parent %s) called more than once" %
                                (label, phase, r["drv"], r["dev"], r["parent"]))
            seen[k] = r
            byname[r["dev"]].append(r)
            if r["end"] is None and not refusal:
                problems.append("%s %s: %s started and never ended" % (label, phase, r["dev"]))
            if r["err"] and not refusal:
                problems.append("%s %s: %s returned %d" % (label, phase, r["dev"], r["err"]))

        def one(name):
            c = byname.get(name, [])
            return c[0] if len(c) == 1 else None

        # (the one that must end first, the one that may start after)
        pairs = []
        for r in recs:
            p = one(r["parent"])
            if p is None:
                continue
            if phase in SUSPEND_PHASES:
                pairs.append((r, p))
            elif phase in RESUME_PHASES:
                pairs.append((p, r))
        for sup, con in links:
            s, c = one(sup), one(con)
            if s is None or c is None:
                continue
            if phase in SUSPEND_PHASES:
                pairs.append((c, s))
            elif phase in RESUME_PHASES:
                pairs.append((s, c))
        for first, then in pairs:
            checked += 1
            e = first["end"]
            if e is None or then["start"] < e:
                problems.append("%s %s: %s started at %.6f before %s ended (%s)" %
                                (label, phase, then["dev"], then["start"], first["dev"],
                                 "never" if e is None else "%.6f" % e))
    return checked


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    boots = []
    for a in argv:
        path, _, st = a.rpartition(":")
        try:
            with open(path, errors="replace") as f:
                lines = f.read().splitlines()
        except OSError as e:
            print("real-sleep: FAIL: cannot read %s: %s" % (path, e))
            return 1
        boots.append((path, int(st), lines))

    problems = []
    plan = None
    results = []
    links = []
    forced = 0
    for i, (path, st, lines) in enumerate(boots):
        last = i == len(boots) - 1
        name = path.rsplit("/", 1)[-1]
        if not links:
            links = parse_topology(lines)
        for line in lines:
            if plan is None and re.match(r"^1\.\.\d+$", line):
                plan = int(line[3:])
            m = RESULT.match(line)
            if m:
                results.append((m.group(1) == "ok", int(m.group(2)), m.group(3)))
            if SPLAT.search(line):
                problems.append("%s: kernel splat: %s" % (name, line.strip()))
            if line.startswith("LSX-REAL-NOIMAGE") or line.startswith("Bail out!"):
                problems.append("%s: %s" % (name, line.strip()))
        wlog = path.replace("boot-", "waker-")
        try:
            with open(wlog) as f:
                for wl in f:
                    if wl.startswith("LSX-WAKER-ERROR"):
                        problems.append("%s: the host's waker failed: %s" % (name, wl.strip()))
                    if wl.startswith("LSX-WAKER-FORCED"):
                        forced += 1
                        problems.append("%s: the RTC did not wake S3: %s" % (name, wl.strip()))
        except OSError:
            pass
        hib = any(l.startswith("LSX-REAL-HIBERNATE") for l in lines)
        # the console from the hibernation to the restart
        after = False
        for line in lines:
            if line.startswith("LSX-REAL-HIBERNATE"):
                after = True
            elif after and "reboot: Restarting system" in line:
                after = False
            elif after and BAD.search(line) and not BENIGN.search(line):
                problems.append("%s: after the snapshot: %s" % (name, line.strip()))
        reboot = any("reboot: Restarting system" in l for l in lines)
        if not last:
            if not (st == 125 and hib and reboot):
                problems.append("%s: ended with status %d, not in a hibernation" % (name, st))
        elif st == 124:
            problems.append("%s: the guest hung (no result within the time limit)" % name)
        elif st == 125 and hib and reboot:
            problems.append("%s: hibernated, but no boot resumed it (too few boots)" % name)
        elif st != 0:
            problems.append("%s: ended with status %d" % (name, st))
        if last and not any(l.startswith("LSX-REAL-DONE") for l in lines):
            problems.append("%s: the plan did not finish (no LSX-REAL-DONE)" % name)

    if plan is None:
        problems.append("no KTAP plan in the first boot")
    for want, (ok, num, name) in enumerate(results, 1):
        if num != want:
            problems.append("test %d is numbered %d (%s)" % (want, num, name))
            break
    for ok, num, name in results:
        if not ok:
            problems.append("not ok %d %s" % (num, name))
    if plan is not None and len(results) != plan:
        problems.append("%d of %d planned tests reported" % (len(results), plan))

    checked = 0
    ntrans = 0
    announced = [l.split(" ", 1)[1].strip() for _, _, lines in boots for l in lines
                 if l.startswith("LSX-REAL-TRANSITION ")]
    traced = [label for _, _, lines in boots for label, _ in parse_traces(lines)]
    for label in announced:
        if label not in traced:
            problems.append("%s: no complete callback trace" % label)
    print("%-44s %-17s %9s %5s %4s" % ("transition", "phase", "ms", "calls", "par"))
    for path, st, lines in boots:
        for label, events in parse_traces(lines):
            ntrans += 1
            phases = phases_of(events)
            check_complete(label, phases, problems)
            checked += check_order(label, phases, links, problems)
            for phase, begin, end, recs in phases:
                ms = (end - begin) * 1000 if end is not None else float("nan")
                print("%-44s %-17s %9.1f %5d %4d" %
                      (label[:44], phase, ms, len(recs), concurrency(recs)))
    # how long the freezer took, per transition (the zombie load's)
    for path, st, lines in boots:
        label = None
        for line in lines:
            if line.startswith("LSX-REAL-TRANSITION "):
                label = line.split(" ", 1)[1]
            m = re.search(r"Freezing (user space processes|remaining freezable tasks) "
                          r"completed \(elapsed ([0-9.]+) seconds\)", line)
            if m and label:
                print("# %s: freezing %s took %s s" % (label, m.group(1), m.group(2)))

    tests = len(results)
    if problems:
        for p in problems[:40]:
            print("# %s" % p)
        print("real-sleep: FAIL: %s (%d problem(s); %d boots, %d of %s tests)" %
              (problems[0], len(problems), len(boots), sum(r[0] for r in results),
               plan))
        return 1
    print("real-sleep: PASS: %d tests ok in %d boots, %d traced transitions, "
          "%d callback orderings checked against parents and %d device links, "
          "no splat" % (tests, len(boots), ntrans, checked, len(links)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
