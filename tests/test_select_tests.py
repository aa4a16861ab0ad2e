# SPDX-License-Identifier: GPL-2.0
"""scripts/select-tests.sh: the kselftests that make test TESTS=... runs."""

import os
import subprocess

from conftest import TOP

LIST = os.path.join(TOP, 'guest', 'kselftests')


def select(*words):
    return subprocess.run([os.path.join(TOP, 'scripts', 'select-tests.sh'), LIST,
                           *words], capture_output=True, text=True, timeout=30)


def test_collection_program_and_full_name():
    assert select('swap_exit').stdout.split() == ['swap_exit:swap_exit_test']
    assert select('freezer_kthread_test').stdout.split() == [
        'freezer:freezer_kthread_test']
    assert select('cgroup:test_freezer').stdout.split() == ['cgroup:test_freezer']


def test_several_words_keep_the_list_order_once_each():
    r = select('swap_exit,freezer', 'freezer:freezer_test')
    assert r.returncode == 0
    assert r.stdout.split() == ['freezer:freezer_test', 'freezer:freezer_kthread_test',
                                'swap_exit:swap_exit_test']


def test_a_name_of_nothing_fails():
    r = select('swap_exit', 'swap_exitt')
    assert r.returncode == 1
    assert r.stdout == ''
    assert "'swap_exitt' is no kselftest" in r.stderr
    assert select('').returncode == 1
