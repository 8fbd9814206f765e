# SPDX-License-Identifier: Apache-2.0
"""pytest fixtures for the client tests: a fresh kgroupsd per test, stopped cleanly after."""
import importlib.util

import pytest

from kgroupsd_process import Kgroupsd

# The kgroups_broker fixture of test_harness_*.py, when the kgroups package is on PYTHONPATH
# (scripts/test-clients puts the build's there). Without it the other tests still run, and
# the harness files fail at their `import kgroups`, saying why.
if importlib.util.find_spec("kgroups") is not None:
    pytest_plugins = ["kgroups.pytest_plugin"]


@pytest.fixture
def start_kgroupsd(tmp_path):
    """Returns start(*args) -> Kgroupsd; every broker started is stopped after the test, and
    must exit 0 on SIGTERM (clean shutdown)."""
    started = []

    def start(*args):
        broker = Kgroupsd(tmp_path / f"kgroupsd-{len(started)}.log", *args)
        started.append(broker)
        return broker

    yield start
    for broker in started:
        code = broker.stop()
        assert code == 0, f"kgroupsd exited with {code} on SIGTERM; log:\n{broker.log()}"


@pytest.fixture
def kgroupsd(start_kgroupsd):
    """A kgroupsd with default settings (6 partitions for auto-created topics)."""
    return start_kgroupsd()
