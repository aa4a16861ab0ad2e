# SPDX-License-Identifier: GPL-2.0
"""scripts/lava-jobs.py: the LAVA jobs of the real-sleep plan validate with
lava-common's schemas, and the expected results follow each job's states.
Skipped where lava-common is not installed (make lava-jobs installs it)."""

import pytest

pytest.importorskip("lava_common.schemas")
import yaml  # noqa: E402
from lava_common.schemas import validate  # noqa: E402

import importlib.util  # noqa: E402
import os  # noqa: E402

from conftest import TOP  # noqa: E402

spec = importlib.util.spec_from_file_location(
    "lava_jobs", os.path.join(TOP, "scripts", "lava-jobs.py"))
lava_jobs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lava_jobs)

RUN = """LSX-REAL-START cycles=1
KTAP version 1
1..5
[   3.1] virtio_blk virtio0: [vda] 2097152 512-byte logical blocks
ok 1 setup
ok 2 s2idle_async1_cycle1
ok 3 refusal_async1
ok 4 S3_async0_cycle1
ok 5 hibernation_pm_test_core_async1
"""


def make(tmp_path, run=RUN):
    rd = tmp_path / "run"
    rd.mkdir()
    (rd / "boot-1.log").write_text(run)
    out = tmp_path / "out"
    out.mkdir()
    rc = lava_jobs.main([str(out), "file:///srv/lava/", str(rd)])
    return rc, out


def test_jobs_validate_and_expect_their_states(tmp_path):
    rc, out = make(tmp_path)
    assert rc == 0
    for name in ("real-sleep-qemu.yaml", "real-sleep-x86-board.yaml"):
        with open(out / name) as f:
            job = yaml.safe_load(f)
        validate(job, strict=True)
    qemu = yaml.safe_load((out / "real-sleep-qemu.yaml").read_text())
    kernel = qemu["actions"][0]["deploy"]["images"]["kernel"]
    assert kernel["url"] == "file:///srv/lava/bzImage"
    assert "lsx.states=mem,disk" in kernel["image_arg"]
    exp = (out / "expected.txt").read_text().splitlines()
    assert "real-sleep-qemu s3_async0_cycle1 pass" in exp
    assert "real-sleep-qemu hibernation_pm_test_core_async1 pass" in exp
    assert not any(e.startswith("real-sleep-qemu s2idle") for e in exp)
    assert "real-sleep-board s2idle_async1_cycle1 pass" in exp
    assert not any(e.startswith("real-sleep-board hibernation") for e in exp)


def test_a_broken_job_does_not_validate(tmp_path):
    job = lava_jobs.qemu_job("file:///x", 1)
    del job["timeouts"]
    with pytest.raises(Exception):
        validate(job, strict=True)


def test_a_failed_or_missing_run_is_refused(tmp_path):
    rc, _ = make(tmp_path, RUN.replace("ok 4 S3", "not ok 4 S3"))
    assert rc == 1
    (tmp_path / "b").mkdir()
    rc, _ = make(tmp_path / "b", "nothing here\n")
    assert rc == 1


def test_monitor_pattern_on_a_pty_console():
    """LAVA reads the console through a pty: lines end in \\r\\r\\n, and a
    read may stop in the middle of a name, which must not match yet."""
    import re
    m = re.search(lava_jobs.PATTERN, "x\r\r\nok 5 S3_async1_cycle1\r\r\n")
    assert m.group("test_case_id") == "S3_async1_cycle1"
    assert m.group("result") == "ok"
    assert re.search(lava_jobs.PATTERN, "\nnot ok 5 S3_asy") is None
    assert re.search(lava_jobs.PATTERN, "\n[ 1.0] clocksource: lock 2 ns \r\n") is None
    assert lava_jobs.lava_case("S3_async1_cycle1") == "s3_async1_cycle1"
