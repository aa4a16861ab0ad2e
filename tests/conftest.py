# SPDX-License-Identifier: GPL-2.0
"""Shared fixtures of the harness's tests: paths and the recorded inputs."""

import os
import sys

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(TOP, 'tests', 'data')
sys.path.insert(0, os.path.join(TOP, 'scripts'))


@pytest.fixture
def data():
    def path(*parts):
        return os.path.join(DATA, *parts)
    return path
