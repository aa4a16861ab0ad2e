#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the real-sleep test plan as LAVA job definitions and validate them.

    lava-jobs.py OUTDIR URL RUNDIR

OUTDIR already holds bzImage, initramfs.cpio.gz and the blank disk images
(virtio.img.xz, ahci.img.xz, usb.img.xz) that scripts/lava-jobs.sh put
there; URL is where a lab will serve OUTDIR from (file:///... for a
dispatcher on this machine).  RUNDIR is a finished make real-sleep run:
its consoles give the expected KTAP results and the cycles of the jobs'
plans.  Writes
  real-sleep-qemu.yaml       LAVA's qemu device type: the q35 machine of
                             scripts/run-vm.sh, S3 and hibernation (QEMU's
                             RTC cannot wake s2idle, and LAVA has no hand
                             on the power button); QEMU restarts in place
                             after the hibernation and the guest resumes
                             from the image it finds on vda2
  real-sleep-x86-board.yaml  a template for a real x86 board booted by
                             iPXE (LAVA's x86 device type): s2idle and S3
                             woken by the RTC, hibernation only with a
                             scratch disk named in the template
  expected.txt               per job, each test case (as LAVA names it:
                             lower case) and its result
  qemu-device.yaml           a rendered qemu device configuration for a
                             local lava-run of the qemu job
and validates both with lava_common.schemas (the checks lava-server and
lava-run apply to a submitted job) and their test monitors' pattern
against the recorded consoles.  Exit status 1 on any failure.
"""
import glob
import os
import re
import sys

import yaml
from lava_common.schemas import validate

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def q35_options():
    """config/q35.qemu, as run-vm.sh reads it: (-drive options by disk
    name, every other option), each option a "-opt arg" string."""
    drives, other = {}, []
    with open(os.path.join(TOP, "config", "q35.qemu")) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            m = re.match(r"-drive file=\{(\w+)\},", line)
            if m:
                drives[m.group(1)] = line
            else:
                other.append(line)
    return drives, other


DRIVES, MACHINE = q35_options()
# The options LAVA's context takes apart (machine) stay out of
# extra_options; the exit port and the CPUs are what run-vm.sh adds.
QEMU_DEVICES = [o for o in MACHINE if not o.startswith("-machine ")] + [
    "-device isa-debug-exit,iobase=0xf4,iosize=0x01",
    "-smp 2",
]
BASE_ARGS = ("console=ttyS0,115200 panic=-1 oops=panic softlockup_panic=1 "
             "hung_task_panic=1 sysctl.kernel.hung_task_timeout_secs=60 "
             "log_buf_len=16M printk.devkmsg=on rdinit=/init no_console_suspend "
             "kunit.enable=0 hpet=disable lsx.mode=real")
# KTAP as guest/real-sleep prints it; names are [-_a-zA-Z0-9.]+.  A result
# starts a line (a kernel message may hold "clock 2 ns "), the name must end in white space, not at the end of what pexpect has read so
# far (a name cut short), and the console's line ends are "\r\r\n" by the
# time they reach LAVA through a pty.
PATTERN = r"\n(?P<result>ok|not ok) \d+ (?P<test_case_id>[-_a-zA-Z0-9.]+)(?=\s)"


def monitor(name, timeout_min):
    return {"test": {
        "timeout": {"minutes": timeout_min},
        "monitors": [{
            "name": name,
            "start": "LSX-REAL-START",
            "end": "LSX-REAL-DONE",
            "pattern": PATTERN,
            "fixupdict": {"ok": "pass", "not ok": "fail"},
        }],
    }}


def qemu_job(url, cycles):
    # tsc=reliable as scripts/run-vm.sh gives it: under TCG the guest's
    # TSC checks are meaningless, and without it the first resume from S3
    # stopped after bringing CPU1 back up (lava-run on this machine).
    cmdline = "%s tsc=reliable lsx.cycles=%d lsx.states=mem,disk" % (BASE_ARGS, cycles)
    minutes = 30 + 15 * cycles
    return {
        "device_type": "qemu",
        "job_name": "linux-6.12-series real-sleep (q35, S3 and hibernation)",
        "timeouts": {"job": {"minutes": minutes + 10},
                     "action": {"minutes": minutes},
                     "connection": {"minutes": 5}},
        "priority": "medium",
        "visibility": "public",
        "context": {
            "arch": "x86_64",
            "machine": "q35",
            "cpu": "max",
            "memory": 2048,
            "no_kvm": True,
            "extra_options": QEMU_DEVICES,
        },
        "metadata": {"series": "linux-6.12-series", "plan": "guest/real-sleep",
                     "cycles": cycles},
        "actions": [
            {"deploy": {
                "to": "tmpfs",
                "timeout": {"minutes": 10},
                "images": {
                    "kernel": {"url": url + "/bzImage",
                               "image_arg": "-kernel {kernel} -append \"%s\"" % cmdline},
                    "initrd": {"url": url + "/initramfs.cpio.gz",
                               "image_arg": "-initrd {initrd}"},
                    "virtio": {"url": url + "/virtio.img.xz", "compression": "xz",
                               "image_arg": DRIVES["virtio"]},
                    "ahci": {"url": url + "/ahci.img.xz", "compression": "xz",
                             "image_arg": DRIVES["ahci"]},
                    "usb": {"url": url + "/usb.img.xz", "compression": "xz",
                            "image_arg": DRIVES["usb"]},
                },
            }},
            {"boot": {
                "method": "qemu",
                "media": "tmpfs",
                "timeout": {"minutes": 5},
                "parameters": {"kernel-start-message": "Linux version"},
            }},
            monitor("real-sleep-qemu", minutes),
        ],
    }


def board_job(url, cycles):
    cmdline = ("%s lsx.cycles=%d lsx.states=freeze,mem lsx.machine=board "
               "lsx.s2idle_wake=rtc" % (BASE_ARGS, cycles))
    cmdline = cmdline.replace("console=ttyS0,115200", "console=ttyS0,115200n8")
    minutes = 20 + 5 * cycles
    return {
        "device_type": "x86",
        "job_name": "linux-6.12-series real-sleep (x86 board, s2idle and S3)",
        "timeouts": {"job": {"minutes": minutes + 15},
                     "action": {"minutes": minutes},
                     "connection": {"minutes": 5}},
        "priority": "medium",
        "visibility": "public",
        "context": {"extra_kernel_args": cmdline},
        "metadata": {"series": "linux-6.12-series", "plan": "guest/real-sleep",
                     "cycles": cycles,
                     "hibernation": "add lsx.disk=NAME (a scratch disk with "
                                    "partitions 1 and 2, overwritten) and disk "
                                    "to lsx.states"},
        "actions": [
            {"deploy": {
                "to": "tftp",
                "timeout": {"minutes": 10},
                "kernel": {"url": url + "/bzImage", "type": "zimage"},
                "ramdisk": {"url": url + "/initramfs.cpio.gz"},
            }},
            {"boot": {
                "method": "ipxe",
                "commands": "ramdisk",
                "timeout": {"minutes": 10},
                "parameters": {"kernel-start-message": "Linux version"},
            }},
            monitor("real-sleep-board", minutes),
        ],
    }


def qemu_device(name="lsx-qemu"):
    """A device configuration for lava-run on this machine, as lava-server
    would render the qemu device type with real-sleep-qemu.yaml's context
    (lava-run takes rendered configurations; it has no templates)."""
    return {
        "device_type": "qemu",
        "hostname": name,
        "available_architectures": ["x86_64"],
        "constants": {
            "shutdown-message": "reboot: Restarting system",
            "kernel-start-message": "Linux version [0-9]",
            "default-shell-prompt": "lava-test: # ",
            "posix": {"lava_test_sh_cmd": "/bin/sh",
                      "lava_test_results_dir": "/lava-%s",
                      "lava_test_shell_file": "~/.bashrc"},
            "broken_fs_interface": [],
            "failure_retry": 1,
            "boot_retry": 1,
            "boot_retry_interval": 0,
        },
        "actions": {
            "deploy": {"methods": {
                "tmpfs": {},
                "image": {"parameters": {"guest": {"size": 512, "interface": "virtio",
                                                   "driveid": "lava"}}},
            }},
            "boot": {
                "connections": {"serial": None},
                "methods": {"qemu": {"parameters": {
                    "command": "qemu-system-x86_64",
                    "options": [o for o in MACHINE if o.startswith("-machine ")] +
                               ["-cpu max", "-m 2048", "-accel tcg", "-nographic",
                                "-nodefaults", "-serial stdio", "-monitor none"] +
                               QEMU_DEVICES,
                }}},
            },
        },
        "timeouts": {"actions": {"apply-overlay-image": {"minutes": 2}},
                     "connections": {"lava-test-shell": {"seconds": 10}}},
    }


def recorded(rundir):
    """The cycles and the test cases with results of the recorded run."""
    cycles = None
    out = []
    logs = sorted(glob.glob(os.path.join(rundir, "boot-*.log")),
                  key=lambda p: int(re.search(r"boot-(\d+)", p).group(1)))
    for path in logs:
        with open(path, errors="replace") as f:
            text = f.read().replace("\r", "")
        m = re.search(r"(?m)^LSX-REAL-START cycles=(\d+)", text)
        if m:
            cycles = int(m.group(1))
        # the monitor's own pattern, as LAVA will apply it to the console
        for m in re.finditer(PATTERN, "\n" + text):
            out.append((m.group("test_case_id"),
                        "pass" if m.group("result") == "ok" else "fail"))
    return cycles, out


def lava_case(name):
    """The test case id LAVA's monitor makes of a name."""
    return re.sub(r"\W+", "_", name.strip().lower())


def expected_for(cases, states):
    keep = {"setup"}
    prefixes = {"freeze": ("s2idle_",), "mem": ("S3_", "refusal_"),
                "disk": ("hibernation_",)}
    out = []
    for name, res in cases:
        if name in keep or any(name.startswith(p) for s in states for p in prefixes[s]):
            out.append((name, res))
    return out


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    outdir, url, rundir = argv
    url = url.rstrip("/")
    cycles, cases = recorded(rundir)
    if not cases or cycles is None:
        print("lava-jobs: no KTAP results in %s (run make real-sleep first)" % rundir,
              file=sys.stderr)
        return 1
    bad = [c for c in cases if c[1] != "pass"]
    if bad:
        print("lava-jobs: the recorded run has failures (%s); expected results "
              "come from a passing run" % ", ".join(n for n, _ in bad[:5]), file=sys.stderr)
        return 1
    rc = 0
    lines = []
    for fname, job, states in (("real-sleep-qemu.yaml", qemu_job(url, cycles), ("mem", "disk")),
                               ("real-sleep-x86-board.yaml", board_job(url, cycles),
                                ("freeze", "mem"))):
        path = os.path.join(outdir, fname)
        with open(path, "w") as f:
            f.write("# SPDX-License-Identifier: GPL-2.0\n"
                    "# Generated by scripts/lava-jobs.py (make lava-jobs).\n")
            yaml.safe_dump(job, f, sort_keys=False, width=1000)
        with open(path) as f:
            back = yaml.safe_load(f)
        try:
            validate(back, strict=True)
            print("lava-jobs: %s: valid" % fname)
        except Exception as e:  # voluptuous raises several kinds
            print("lava-jobs: %s: INVALID: %s" % (fname, e))
            rc = 1
        exp = expected_for(cases, states)
        mon = job["actions"][-1]["test"]["monitors"][0]["name"]
        lines.append("# %s: test monitor %s, %d cases" % (fname, mon, len(exp)))
        lines += ["%s %s %s" % (mon, lava_case(n), r) for n, r in exp]
    with open(os.path.join(outdir, "qemu-device.yaml"), "w") as f:
        f.write("# SPDX-License-Identifier: GPL-2.0\n"
                "# For lava-run on this machine (scripts/lava-jobs.sh).\n")
        yaml.safe_dump(qemu_device(), f, sort_keys=False, width=1000)
    with open(os.path.join(outdir, "expected.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("lava-jobs: expected.txt: %d cases from %s" % (len(lines) - 2, rundir))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
