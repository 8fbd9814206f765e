# SPDX-License-Identifier: Apache-2.0
"""pytest plugin: a fresh kgroupsd for each test that asks for the `kgroups_broker` fixture.

Installed with the package, pytest loads it by itself (entry point `pytest11`, named
`kgroups.pytest_plugin`); from a source tree, load it with `-p kgroups.pytest_plugin` or
`pytest_plugins = ["kgroups.pytest_plugin"]` in the top conftest.py.

Options for the broker (the keyword arguments of kgroups.Broker), most specific first:
- for one test, the marker: `@pytest.mark.kgroups_broker(manual_clock=True)`;
- for a module or a folder, override the fixture `kgroups_broker_options` (it returns a
  dict) in the test module or a conftest.py.
The marker's keywords are laid over the fixture's dict.

`kgroups_session_broker` is one kgroupsd shared by the whole session (options: override the
session fixture `kgroups_session_broker_options`); tests sharing it should use their own
topic and group names, and it cannot take the marker.

A broker that exits with a non-zero code (or crashed) fails the test's teardown, and a
failed test's report shows the end of kgroupsd's log.
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from kgroups.broker import Broker

_LOG_LINES_IN_REPORT = 200


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "kgroups_broker(**options): kgroups.Broker options for this test's kgroups_broker "
        "fixture, e.g. manual_clock=True or topics={'orders': 3}")


@pytest.fixture
def kgroups_broker_options() -> dict[str, Any]:
    """The kgroups.Broker options of the `kgroups_broker` fixture; override it to change
    them for a module or folder. Default: none (kgroupsd's defaults)."""
    return {}


@pytest.fixture
def kgroups_broker(request: pytest.FixtureRequest,
                   kgroups_broker_options: dict[str, Any]) -> Iterator[Broker]:
    """A kgroupsd started for this test on free loopback ports; stopped after it."""
    options = dict(kgroups_broker_options)
    for marker in reversed(list(request.node.iter_markers("kgroups_broker"))):
        if marker.args:
            raise pytest.UsageError("@pytest.mark.kgroups_broker takes keyword options only, "
                                    f"got {marker.args!r}")
        options.update(marker.kwargs)
    broker = Broker(**options)
    yield broker
    _stop_cleanly(broker)


@pytest.fixture(scope="session")
def kgroups_session_broker_options() -> dict[str, Any]:
    """The kgroups.Broker options of `kgroups_session_broker`; override it (session scope)
    in a conftest.py to change them."""
    return {}


@pytest.fixture(scope="session")
def kgroups_session_broker(kgroups_session_broker_options: dict[str, Any]) -> Iterator[Broker]:
    """One kgroupsd for the whole test session; stopped at its end."""
    broker = Broker(**kgroups_session_broker_options)
    yield broker
    _stop_cleanly(broker)


def _stop_cleanly(broker: Broker) -> None:
    code = broker.stop()
    if code != 0:
        pytest.fail(f"kgroupsd exited with code {code} (0 is a clean shutdown); its log:\n"
                    f"{_log_tail(broker)}", pytrace=False)


def _log_tail(broker: Broker) -> str:
    return "\n".join(broker.log().splitlines()[-_LOG_LINES_IN_REPORT:])


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    funcargs = getattr(item, "funcargs", {})
    for name in ("kgroups_broker", "kgroups_session_broker"):
        broker = funcargs.get(name)
        if isinstance(broker, Broker):
            report.sections.append((f"kgroupsd log ({name}, last lines)", _log_tail(broker)))
