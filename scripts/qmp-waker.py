#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The host's hand on the q35 guest's power button during make real-sleep.

    qmp-waker.py QMP_SOCKET CONSOLE_LOG WAKER_LOG

QEMU's CMOS RTC alarm wakes the guest from S3 but not from suspend-to-idle
(QEMU raises the alarm as an ACPI fixed event only while the machine is
in S3), so the guest cannot wake itself from s2idle.  This helper follows
the console log and, each time the guest reports that it entered the
suspend-to-idle loop ("PM: suspend-to-idle", printed with
pm_debug_messages), presses the ACPI power button through QMP.  It also
watches QEMU's run state: a guest left in S3 for longer than
REAL_SLEEP_S3_LIMIT seconds (default 60) is woken with system_wakeup and
the event is logged, which scripts/realsleep.py counts as a failed RTC
wake.  It ends when QEMU closes the socket (status 0); any other end is
logged as LSX-WAKER-ERROR, which realsleep.py counts as a failure.
"""
import json
import os
import socket
import sys
import time


def connect(path, deadline):
    while time.time() < deadline:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s
        except OSError:
            s.close()
            time.sleep(0.2)
    return None


class Qmp:
    def __init__(self, sock):
        self.sock = sock
        self.buf = b""
        self.sock.settimeout(10)
        self.read()  # greeting
        self.cmd("qmp_capabilities")

    def read(self):
        while b"\n" not in self.buf:
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                # QEMU busy (TCG, a guest in the middle of a transition):
                # wait on, the socket only closes when QEMU ends
                continue
            if not data:
                raise EOFError
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def cmd(self, name):
        self.sock.sendall(json.dumps({"execute": name}).encode() + b"\n")
        while True:
            msg = self.read()
            if "return" in msg or "error" in msg:
                return msg


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    sock_path, console, wlog = sys.argv[1:]
    s3_limit = float(os.environ.get("REAL_SLEEP_S3_LIMIT", "60"))
    sock = connect(sock_path, time.time() + 120)
    if sock is None:
        return 1
    out = open(wlog, "a", buffering=1)
    try:
        qmp = Qmp(sock)
        pos = 0
        pending = 0
        press_at = None
        s3_since = None
        while True:
            try:
                with open(console, "rb") as f:
                    f.seek(pos)
                    data = f.read()
            except FileNotFoundError:
                data = b""
            if data.rfind(b"\n") >= 0:
                cut = data.rfind(b"\n") + 1
                pending += data[:cut].count(b"PM: suspend-to-idle\n")
                pos += cut
            now = time.time()
            if pending and press_at is None:
                press_at = now + 2
            if press_at is not None and now >= press_at:
                qmp.cmd("system_powerdown")
                out.write("%.3f power button (s2idle)\n" % now)
                pending -= 1
                press_at = None
            st = qmp.cmd("query-status").get("return", {}).get("status")
            if st == "suspended":
                s3_since = s3_since or now
                if now - s3_since > s3_limit:
                    qmp.cmd("system_wakeup")
                    out.write("LSX-WAKER-FORCED %.3f system_wakeup after %.0f s in S3\n"
                              % (now, now - s3_since))
                    s3_since = None
            else:
                s3_since = None
            time.sleep(0.5)
    except (EOFError, BrokenPipeError, ConnectionResetError):
        # QEMU ended (the guest's exit or a hibernation's restart)
        return 0
    except (OSError, ValueError) as e:
        out.write("LSX-WAKER-ERROR %s\n" % e)
        return 1


if __name__ == "__main__":
    sys.exit(main())
