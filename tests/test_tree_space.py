# SPDX-License-Identifier: GPL-2.0
"""scripts/tree.sh stops before a checkout that the disk cannot hold."""

import os
import subprocess

from conftest import TOP


def run_tree(tmp_path, free_mb):
    env = dict(os.environ, BUILD=str(tmp_path / 'build'),
               LSX_CACHE=str(tmp_path / 'cache'), LSX_FREE_MB=str(free_mb))
    return subprocess.run([os.path.join(TOP, 'scripts', 'tree.sh'), 'base',
                           str(tmp_path / 'build' / 'kernel' / 'base' / 'src')],
                          env=env, capture_output=True, text=True, timeout=60)


def test_tree_refuses_a_checkout_without_space(tmp_path):
    r = run_tree(tmp_path, 100)
    assert r.returncode == 1
    assert 'the base kernel tree needs about 5700 MiB free' in r.stderr
    assert 'which has 100 MiB' in r.stderr
    # Nothing was started: no cache, no scratch clone.
    assert not (tmp_path / 'cache').exists()
    assert not (tmp_path / 'build' / 'kernel').exists()
