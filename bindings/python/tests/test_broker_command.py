# SPDX-License-Identifier: Apache-2.0
"""kgroups.Broker's command line: which kgroupsd it runs and the flags its options become,
and the errors when that binary is missing or does not start. (Brokers that start are tested
against kgroupsd in tests/clients/test_harness_*.py.)"""

import os
import pathlib
import stat

import pytest

import kgroups
from kgroups import _kgroupsd_command
from kgroups._kgroupsd_command import find_kgroupsd, kgroupsd_arguments


def executable(path: pathlib.Path, text: str = "#!/bin/sh\nexit 0\n") -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_topics_manual_clock_and_other_options_become_flags():
    arguments = kgroupsd_arguments(
        {"orders": 3, "payments": 1},
        {"manual_clock": True, "initial_rebalance_delay_ms": 0, "default_partitions": 2,
         "no_auto_create": False, "advertise": None, "max_memory": "256MiB"},
        ["--verbose"])
    assert arguments == ["--topic", "orders:3", "--topic", "payments:1", "--manual-clock",
                         "--initial-rebalance-delay-ms", "0", "--default-partitions", "2",
                         "--max-memory", "256MiB", "--verbose"]


def test_topics_may_be_specs_and_list_values_repeat_the_flag():
    assert kgroupsd_arguments(["orders:3"], {"topic": ["a:1", "b:2"]}, []) == [
        "--topic", "orders:3", "--topic", "a:1", "--topic", "b:2"]


@pytest.mark.parametrize("partitions", [0, -1, "3", 2.0, True])
def test_a_topic_needs_an_int_number_of_partitions(partitions):
    with pytest.raises(ValueError, match="'orders': partitions must be an int >= 1"):
        kgroupsd_arguments({"orders": partitions}, {}, [])


def test_topics_as_one_string_is_a_type_error():
    with pytest.raises(TypeError, match="mapping"):
        kgroupsd_arguments("orders:3", {}, [])


@pytest.mark.parametrize("options,extra", [({"listen": "127.0.0.1:9092"}, []),
                                           ({"http": "127.0.0.1:8080"}, []),
                                           ({}, ["--listen", "127.0.0.1:9092"]),
                                           ({}, ["--http=127.0.0.1:1"])])
def test_the_listen_addresses_are_the_brokers_to_choose(options, extra):
    with pytest.raises(ValueError, match="chosen by Broker"):
        kgroupsd_arguments(None, options, extra)


def test_the_argument_wins_over_the_environment(tmp_path, monkeypatch):
    chosen = executable(tmp_path / "chosen" / "kgroupsd")
    monkeypatch.setenv("KGROUPSD", str(executable(tmp_path / "env" / "kgroupsd")))
    assert find_kgroupsd(chosen) == chosen


def test_the_environment_wins_over_the_bundled_copy_and_path(tmp_path, monkeypatch):
    from_env = executable(tmp_path / "env" / "kgroupsd")
    monkeypatch.setenv("KGROUPSD", str(from_env))
    monkeypatch.setattr(_kgroupsd_command, "BUNDLED_KGROUPSD",
                        executable(tmp_path / "bundled" / "kgroupsd"))
    monkeypatch.setenv("PATH", str(executable(tmp_path / "path" / "kgroupsd").parent))
    assert find_kgroupsd() == from_env


def test_the_bundled_copy_wins_over_path(tmp_path, monkeypatch):
    monkeypatch.delenv("KGROUPSD", raising=False)
    bundled = executable(tmp_path / "bundled" / "kgroupsd")
    monkeypatch.setattr(_kgroupsd_command, "BUNDLED_KGROUPSD", bundled)
    monkeypatch.setenv("PATH", str(executable(tmp_path / "path" / "kgroupsd").parent))
    assert find_kgroupsd() == bundled


def test_path_is_the_last_place(tmp_path, monkeypatch):
    monkeypatch.delenv("KGROUPSD", raising=False)
    monkeypatch.setattr(_kgroupsd_command, "BUNDLED_KGROUPSD", tmp_path / "absent" / "kgroupsd")
    on_path = executable(tmp_path / "path" / "kgroupsd")
    monkeypatch.setenv("PATH", str(on_path.parent))
    assert find_kgroupsd() == on_path


def test_no_kgroupsd_anywhere_names_every_place_looked_at(tmp_path, monkeypatch):
    monkeypatch.delenv("KGROUPSD", raising=False)
    bundled = tmp_path / "absent" / "kgroupsd"
    monkeypatch.setattr(_kgroupsd_command, "BUNDLED_KGROUPSD", bundled)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(FileNotFoundError) as raised:
        kgroups.Broker()
    message = str(raised.value)
    assert "KGROUPSD (not set)" in message
    assert str(bundled) in message
    assert "kgroupsd on PATH" in message


def test_a_named_binary_that_is_not_executable_is_refused(tmp_path, monkeypatch):
    plain = tmp_path / "kgroupsd"
    plain.write_text("not a program")
    with pytest.raises(FileNotFoundError, match="the kgroupsd= argument.*not an executable"):
        kgroups.Broker(kgroupsd=plain)
    monkeypatch.setenv("KGROUPSD", str(tmp_path / "missing"))
    with pytest.raises(FileNotFoundError, match="KGROUPSD environment variable"):
        kgroups.Broker()


def test_a_broker_that_exits_at_start_is_an_error_with_its_stderr(tmp_path):
    failing = executable(tmp_path / "kgroupsd",
                         "#!/bin/sh\necho \"bad flag: $*\" >&2\nexit 3\n")
    with pytest.raises(RuntimeError) as raised:
        kgroups.Broker(kgroupsd=failing, manual_clock=True)
    message = str(raised.value)
    assert "exited with code 3 before it was ready" in message
    assert "bad flag: --listen 127.0.0.1:0 --http 127.0.0.1:0 --manual-clock" in message


def test_a_broker_that_prints_no_ready_line_is_stopped_after_the_timeout(tmp_path):
    pid_file = tmp_path / "pid"
    silent = executable(tmp_path / "kgroupsd",
                        f"#!/bin/sh\necho $$ > {pid_file}\necho starting >&2\nexec sleep 30\n")
    with pytest.raises(RuntimeError, match=r"no ready line within 0\.5 s(.|\n)*starting"):
        kgroups.Broker(kgroupsd=silent, startup_timeout=0.5)
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # stopped, and reaped
