# SPDX-License-Identifier: Apache-2.0
"""The kgroups CLI (tools/cli) against kgroupsd, with confluent-kafka making the state it
inspects: `groups describe` shows the lag the clients left (and a share group's members and
share-partitions, driven with raw share requests), `groups list` and `topics
list|describe` what they created, and `groups reset-offsets` moves a group's offsets (dry
run by default, refused while the group has members) so that a consumer then starts there.

The binary comes from $KGROUPS_CLI (scripts/test-clients sets it) or build/broker."""
import json
import os
import socket
import subprocess
import time
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition

from kgroupsd_process import ROOT
from kip848_wire import create_topic_v7
from raw_client import RawConnection
from share_wire import acquired_offsets, share_acknowledge, share_fetch, share_heartbeat

TIMEOUT_S = 30
PARTITIONS = 6  # kgroupsd's default for auto-created topics


def cli_binary():
    path = Path(os.environ.get("KGROUPS_CLI", ROOT / "build/broker/tools/cli/kgroups"))
    if not path.is_file():
        raise FileNotFoundError(
            f"kgroups binary not found at {path}: run scripts/test-clients, or set KGROUPS_CLI")
    return path


def run_cli(*args):
    """Runs kgroups with `args`; returns the CompletedProcess (text stdout and stderr)."""
    return subprocess.run([str(cli_binary()), *args], capture_output=True, text=True,
                          timeout=TIMEOUT_S)


def cli_json(broker, *args):
    """Runs a kgroups command with --json against `broker`; returns the parsed output."""
    result = run_cli(*args, "--bootstrap-server", broker.bootstrap, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def produce(bootstrap, topic, counts):
    """Sends counts[p] records to partition p of `topic`."""
    producer = Producer({"bootstrap.servers": bootstrap})
    for partition, count in enumerate(counts):
        for i in range(count):
            producer.produce(topic, value=b"%d-%d" % (partition, i), partition=partition)
    assert producer.flush(TIMEOUT_S) == 0


def member(bootstrap, group, **config):
    return Consumer({"bootstrap.servers": bootstrap, "group.id": group,
                     "client.id": "cli-test-consumer", "enable.auto.commit": False,
                     "auto.offset.reset": "earliest", **config})


def read(consumer, count):
    """Polls until `count` records arrived (bounded); returns [(partition, offset)]."""
    got = []
    deadline = time.monotonic() + TIMEOUT_S
    while len(got) < count and time.monotonic() < deadline:
        message = consumer.poll(0.2)
        if message is None:
            continue
        assert message.error() is None, message.error()
        got.append((message.partition(), message.offset()))
    assert len(got) >= count, f"read {len(got)} of {count} records"
    return got


def committed_by_partition(described):
    return {(row["topic"], row["partition"]): row["committed_offset"]
            for row in described["partitions"]}


def wait_until_empty(broker, group):
    """Waits (bounded) until the group has no members, as a closed consumer leaves it."""
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        if cli_json(broker, "groups", "describe", group)["state"] == "Empty":
            return
        time.sleep(0.1)
    raise AssertionError(f"group {group} still has members")


@pytest.fixture
def lagging_group(kgroupsd):
    """Topic "orders" with 10, 20 and 5 records in partitions 0-2; group "billing"'s one
    consumer read some of them, committed offsets 4, 15 and 1 (lag 6, 5 and 4), and left.
    Returns the committed offsets."""
    produce(kgroupsd.bootstrap, "orders", [10, 20, 5])
    consumer = member(kgroupsd.bootstrap, "billing")
    consumer.subscribe(["orders"])
    read(consumer, 12)
    consumer.commit(offsets=[TopicPartition("orders", 0, 4), TopicPartition("orders", 1, 15),
                             TopicPartition("orders", 2, 1)], asynchronous=False)
    positions = consumer.committed(
        [TopicPartition("orders", p) for p in range(PARTITIONS)], timeout=TIMEOUT_S)
    consumer.close()
    wait_until_empty(kgroupsd, "billing")
    committed = {("orders", tp.partition): tp.offset for tp in positions if tp.offset >= 0}
    assert committed == {("orders", 0): 4, ("orders", 1): 15, ("orders", 2): 1}
    return committed


def test_describe_shows_the_lag_the_consumer_left(kgroupsd, lagging_group):
    described = cli_json(kgroupsd, "groups", "describe", "billing")
    assert described["state"] == "Empty"
    assert described["members"] == []
    ends = {0: 10, 1: 20, 2: 5}
    rows = {(row["topic"], row["partition"]): row for row in described["partitions"]}
    assert set(rows) == set(lagging_group)
    for key, committed in lagging_group.items():
        assert rows[key]["committed_offset"] == committed
        assert rows[key]["end_offset"] == ends[key[1]]
        assert rows[key]["lag"] == ends[key[1]] - committed
    expected_total = sum(ends[p] - c for (_, p), c in lagging_group.items())
    assert described["total_lag"] == expected_total == 15

    table = run_cli("groups", "describe", "billing", "--bootstrap-server", kgroupsd.bootstrap)
    assert table.returncode == 0, table.stderr
    assert f"total lag {expected_total}" in table.stdout
    assert "CURRENT-OFFSET  LOG-END-OFFSET  LAG" in table.stdout
    for (topic, partition), committed in lagging_group.items():
        lag = ends[partition] - committed
        assert any(line.split()[:5] == [topic, str(partition), str(committed),
                                        str(ends[partition]), str(lag)]
                   for line in table.stdout.splitlines()), table.stdout


def test_describe_shows_an_active_member_and_reset_is_refused(kgroupsd):
    produce(kgroupsd.bootstrap, "orders", [3, 3])
    consumer = member(kgroupsd.bootstrap, "live")
    try:
        consumer.subscribe(["orders"])
        read(consumer, 6)
        consumer.commit(asynchronous=False)
        described = cli_json(kgroupsd, "groups", "describe", "live")
        assert described["state"] == "Stable"
        assert described["protocol_type"] == "consumer"
        [only] = described["members"]
        assert only["client_id"] == "cli-test-consumer"
        assert only["host"]
        assert only["assignment"] == [{"topic": "orders", "partitions": list(range(PARTITIONS))}]
        owned = [row for row in described["partitions"] if row["member_id"] == only["member_id"]]
        assert len(owned) == PARTITIONS

        before = committed_by_partition(described)
        refused = run_cli("groups", "reset-offsets", "live", "--to-earliest", "--execute",
                          "--bootstrap-server", kgroupsd.bootstrap)
        assert refused.returncode == 1
        assert refused.stdout == ""
        assert "cannot reset the offsets of group 'live'" in refused.stderr
        assert "1 active member" in refused.stderr
        assert committed_by_partition(cli_json(kgroupsd, "groups", "describe", "live")) == before
    finally:
        consumer.close()


def test_groups_list_lists_the_group(kgroupsd, lagging_group):
    listed = cli_json(kgroupsd, "groups", "list")
    assert {"group_id": "billing", "protocol_type": "consumer", "state": "Empty",
            "type": "classic"} in listed["groups"]
    table = run_cli("groups", "list", "--bootstrap-server", kgroupsd.bootstrap)
    assert table.returncode == 0, table.stderr
    assert ["billing", "Empty", "consumer", "classic"] in [
        line.split() for line in table.stdout.splitlines()]


def test_share_group_is_listed_with_its_type_and_described_per_share_partition(kgroupsd):
    connection = RawConnection(kgroupsd.bootstrap)
    created = create_topic_v7(connection, "jobs", 1)
    assert created["error"] == 0, created
    topic_id = created["id"]
    assert share_heartbeat(connection, "workers", "member-a", 0, ["jobs"])["error"] == 0
    produce(kgroupsd.bootstrap, "jobs", [5])
    fetched = share_fetch(connection, "workers", "member-a", 0, {topic_id: [0]}, max_records=2,
                          max_wait_ms=2000)
    assert len(acquired_offsets(fetched, topic_id)) == 2
    share_acknowledge(connection, "workers", "member-a", 1, {topic_id: {0: [(0, 1, [1])]}})

    listed = cli_json(kgroupsd, "groups", "list")
    assert {"group_id": "workers", "protocol_type": "share", "state": "Stable",
            "type": "share"} in listed["groups"]
    table = run_cli("groups", "list", "--bootstrap-server", kgroupsd.bootstrap)
    assert ["workers", "Stable", "share", "share"] in [
        line.split() for line in table.stdout.splitlines()]

    described = cli_json(kgroupsd, "groups", "describe", "workers")
    assert (described["type"], described["state"], described["protocol"]) == (
        "share", "Stable", "simple")
    assert [(m["member_id"], m["assignment"]) for m in described["members"]] == [
        ("member-a", [{"topic": "jobs", "partitions": [0]}])]
    assert described["partitions"] == [
        {"topic": "jobs", "partition": 0, "start_offset": 2, "end_offset": 5, "lag": 3}]
    text = run_cli("groups", "describe", "workers", "--bootstrap-server", kgroupsd.bootstrap)
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("Share group workers: state Stable")
    assert ["jobs", "0", "2", "5", "3"] in [line.split() for line in text.stdout.splitlines()]


def test_topics_list_and_describe_show_partitions_and_end_offsets(kgroupsd):
    produce(kgroupsd.bootstrap, "orders", [4, 0, 7])
    listed = cli_json(kgroupsd, "topics", "list")
    assert {"name": "orders", "partitions": PARTITIONS, "internal": False} in listed["topics"]

    described = cli_json(kgroupsd, "topics", "describe", "orders")
    assert described["name"] == "orders"
    assert [row["partition"] for row in described["partitions"]] == list(range(PARTITIONS))
    assert [row["end_offset"] for row in described["partitions"]] == [4, 0, 7, 0, 0, 0]
    assert all(row["log_start_offset"] == 0 for row in described["partitions"])

    table = run_cli("topics", "describe", "orders", "--bootstrap-server", kgroupsd.bootstrap)
    assert table.returncode == 0, table.stderr
    assert ["2", "0", "0", "7", "7"] in [line.split() for line in table.stdout.splitlines()]


def test_reset_to_earliest_moves_the_offsets_and_a_consumer_starts_there(kgroupsd, lagging_group):
    before = committed_by_partition(cli_json(kgroupsd, "groups", "describe", "billing"))

    dry_run = run_cli("groups", "reset-offsets", "billing", "--to-earliest",
                      "--bootstrap-server", kgroupsd.bootstrap)
    assert dry_run.returncode == 0, dry_run.stderr
    assert "Dry run" in dry_run.stdout
    planned = cli_json(kgroupsd, "groups", "reset-offsets", "billing", "--to-earliest")
    assert planned["executed"] is False
    assert {(row["topic"], row["partition"]): row["new_offset"]
            for row in planned["partitions"]} == {key: 0 for key in lagging_group}
    assert committed_by_partition(cli_json(kgroupsd, "groups", "describe", "billing")) == before

    executed = cli_json(kgroupsd, "groups", "reset-offsets", "billing", "--to-earliest",
                        "--execute")
    assert executed["executed"] is True
    after = cli_json(kgroupsd, "groups", "describe", "billing")
    assert committed_by_partition(after) == {key: 0 for key in lagging_group}

    # auto.offset.reset=latest: only the committed offsets can make it start at 0.
    consumer = member(kgroupsd.bootstrap, "billing", **{"auto.offset.reset": "latest"})
    try:
        consumer.subscribe(["orders"])
        got = read(consumer, 35)
        first_by_partition = {}
        for partition, offset in got:
            first_by_partition.setdefault(partition, offset)
        assert first_by_partition == {0: 0, 1: 0, 2: 0}
    finally:
        consumer.close()


def test_reset_to_offset_of_one_topic_leaves_the_others(kgroupsd, lagging_group):
    produce(kgroupsd.bootstrap, "payments", [2, 2])
    consumer = member(kgroupsd.bootstrap, "billing")
    consumer.assign([TopicPartition("payments", 0, 2), TopicPartition("payments", 1, 1)])
    consumer.commit(offsets=[TopicPartition("payments", 0, 2), TopicPartition("payments", 1, 1)],
                    asynchronous=False)
    consumer.close()

    executed = cli_json(kgroupsd, "groups", "reset-offsets", "billing", "--to-offset", "3",
                        "--topic", "orders", "--execute")
    # Every partition of the topic; 3 is past the end of the empty ones, which get 0.
    assert {(row["topic"], row["partition"]): row["new_offset"]
            for row in executed["partitions"]} == {
        ("orders", p): 3 if p < 3 else 0 for p in range(PARTITIONS)}
    committed = committed_by_partition(cli_json(kgroupsd, "groups", "describe", "billing"))
    assert committed[("payments", 0)] == 2
    assert committed[("payments", 1)] == 1
    assert committed[("orders", 0)] == 3
    assert committed[("orders", 1)] == 3

    latest = cli_json(kgroupsd, "groups", "reset-offsets", "billing", "--to-latest",
                      "--topic", "payments", "--execute")
    assert [row["new_offset"] for row in latest["partitions"]][:2] == [2, 2]

    # TOPIC:P,... resets only those partitions.
    one = cli_json(kgroupsd, "groups", "reset-offsets", "billing", "--to-earliest",
                   "--topic", "orders:1", "--execute")
    assert [(row["topic"], row["partition"], row["current_offset"], row["new_offset"])
            for row in one["partitions"]] == [("orders", 1, 3, 0)]
    committed = committed_by_partition(cli_json(kgroupsd, "groups", "describe", "billing"))
    assert committed[("orders", 0)] == 3
    assert committed[("orders", 1)] == 0
    missing = run_cli("groups", "reset-offsets", "billing", "--to-earliest", "--topic",
                      "orders:0,6", "--bootstrap-server", kgroupsd.bootstrap)
    assert missing.returncode == 1
    assert "partition 6 of topic 'orders' does not exist" in missing.stderr


def test_unknown_group_and_topic_are_clear_errors(kgroupsd):
    for args, expected in [(("groups", "describe", "nobody"), "group 'nobody' does not exist"),
                           (("topics", "describe", "nothing"), "topic 'nothing' does not exist"),
                           (("groups", "reset-offsets", "g", "--to-earliest", "--topic",
                             "nothing"), "topic 'nothing' does not exist")]:
        result = run_cli(*args, "--bootstrap-server", kgroupsd.bootstrap)
        assert result.returncode == 1, args
        assert result.stdout == ""
        assert expected in result.stderr
    # Describing a topic does not create it.
    assert "nothing" not in [t["name"] for t in cli_json(kgroupsd, "topics", "list")["topics"]]


def test_a_stopped_broker_is_named_in_the_error(start_kgroupsd):
    broker = start_kgroupsd()
    address = broker.bootstrap
    broker.stop()
    result = run_cli("groups", "list", "--bootstrap-server", address)
    assert result.returncode == 1
    assert f"cannot connect to {address}" in result.stderr
    assert "is a Kafka broker running there?" in result.stderr


def test_a_broker_that_never_answers_times_out_within_the_budget():
    """A listener that accepts but never answers: the command gives up after --timeout-ms."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        address = "127.0.0.1:%d" % listener.getsockname()[1]
        started = time.monotonic()
        result = run_cli("topics", "list", "--bootstrap-server", address, "--timeout-ms", "500")
        elapsed = time.monotonic() - started
    assert result.returncode == 1
    assert f"no ApiVersions response from {address}: timed out" in result.stderr
    assert 0.4 < elapsed < 5
