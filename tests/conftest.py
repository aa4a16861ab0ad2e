# SPDX-License-Identifier: GPL-2.0
"""Shared fixtures of the harness's tests: paths and the recorded inputs."""

import os
import sys

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(TOP, 'tests', 'data')
sys.path.insert(0, os.path.join(TOP, 'scripts'))


def pytest_configure(config):
    config.addinivalue_line('markers', 'slow: a whole run of a slow tool (make check runs '
                            'it; make test leaves it out)')


@pytest.fixture
def data():
    def path(*parts):
        return os.path.join(DATA, *parts)
    return path
