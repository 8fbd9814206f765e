# SPDX-License-Identifier: Apache-2.0
"""Committed offsets as records of the internal topic __consumer_offsets, with Kafka's key and
value schemas: confluent-kafka commits offsets; a plain consumer of __consumer_offsets (and
`kgroups offsets-log`) decodes exactly those commits, in order; Produce to the topic is
refused as Kafka refuses it; after the log cleaner compacts the topic (small segments set
with AlterConfigs, a 100 ms cleaner interval) only the latest commit per key remains.

One partition of __consumer_offsets (--offsets-topic-num-partitions 1) puts every group's
records in one log, so the reads and the compaction look at one partition. The CLI binary
comes from $KGROUPS_CLI (scripts/test-clients sets it) or build/broker."""
import json
import struct
import time

import pytest
from confluent_kafka import (OFFSET_BEGINNING, Consumer, KafkaError, Producer,
                             TopicPartition)
from confluent_kafka.admin import AdminClient, ConfigResource, NewTopic

from test_cli import run_cli

TIMEOUT_S = 30
OFFSETS_TOPIC = "__consumer_offsets"
GROUP = "offsets-topic-group"
TOPIC = "offsets-topic-orders"
PARTITIONS = 30


def read_string(data, at):
    (length,) = struct.unpack_from(">h", data, at)
    return data[at + 2:at + 2 + length].decode(), at + 2 + length


def decode_offset_commit(key, value):
    """(group, topic, partition, offset, metadata, commit timestamp) of an OffsetCommit
    record (key version 1, value version 3); None for another record type. The offset and
    what follows are None for a tombstone."""
    (key_version,) = struct.unpack_from(">h", key, 0)
    if key_version not in (0, 1):
        return None
    group, at = read_string(key, 2)
    topic, at = read_string(key, at)
    (partition,) = struct.unpack_from(">i", key, at)
    assert at + 4 == len(key)
    if value is None:
        return group, topic, partition, None, None, None
    (version, offset, leader_epoch) = struct.unpack_from(">hqi", value, 0)
    assert version == 3  # what Kafka 3.x and 4.x write
    metadata, at = read_string(value, 14)
    (commit_timestamp,) = struct.unpack_from(">q", value, at)
    assert at + 8 == len(value)
    assert leader_epoch >= -1
    return group, topic, partition, offset, metadata, commit_timestamp


def read_offsets_topic(bootstrap):
    """Every record of __consumer_offsets partition 0: (offset, key, value)."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "offsets-topic-reader",
                         "enable.auto.commit": False})
    try:
        low, high = consumer.get_watermark_offsets(TopicPartition(OFFSETS_TOPIC, 0), timeout=10)
        consumer.assign([TopicPartition(OFFSETS_TOPIC, 0, OFFSET_BEGINNING)])
        records = []
        deadline = time.monotonic() + TIMEOUT_S
        while (not records or records[-1][0] < high - 1) and time.monotonic() < deadline:
            message = consumer.poll(0.2)
            if message is None:
                continue
            assert message.error() is None, message.error()
            records.append((message.offset(), message.key(), message.value()))
        assert not records or records[-1][0] == high - 1, "the topic was not read to its end"
        return records
    finally:
        consumer.close()


def commits_of(records, group):
    decoded = [decode_offset_commit(key, value) for _, key, value in records]
    return [commit[1:] for commit in decoded if commit is not None and commit[0] == group]


def commit(bootstrap, group, offsets):
    """Commits (partition, offset) pairs of TOPIC for `group`, from outside the group."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group,
                         "enable.auto.commit": False})
    try:
        consumer.commit(offsets=[TopicPartition(TOPIC, partition, offset)
                                 for partition, offset in offsets], asynchronous=False)
    finally:
        consumer.close()


@pytest.fixture
def broker(start_kgroupsd):
    broker = start_kgroupsd("--log-cleaner-interval-ms", "100",
                            "--offsets-topic-num-partitions", "1")
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    futures = admin.create_topics([NewTopic(TOPIC, num_partitions=PARTITIONS,
                                            replication_factor=1)])
    futures[TOPIC].result(timeout=TIMEOUT_S)
    return broker


def test_a_consumer_of_the_topic_decodes_exactly_the_commits_made(broker):
    made = [(0, 5), (1, 7), (0, 9), (1, 11), (0, 12)]
    before_ms = int(time.time() * 1000)
    for partition, offset in made:
        commit(broker.bootstrap, GROUP, [(partition, offset)])
    after_ms = int(time.time() * 1000)

    commits = commits_of(read_offsets_topic(broker.bootstrap), GROUP)
    assert [(topic, partition, offset, metadata) for topic, partition, offset, metadata, _ in
            commits] == [(TOPIC, partition, offset, "") for partition, offset in made]
    for *_, timestamp in commits:
        assert before_ms - 1000 <= timestamp <= after_ms + 1000

    # The CLI decodes the same records, in the same order.
    result = run_cli("offsets-log", "--bootstrap-server", broker.bootstrap, "--json")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    cli_commits = [(line["topic"], line["partition"], line["value"]["offset"])
                   for line in lines if line["type"] == "OffsetCommit" and line["group"] == GROUP]
    assert cli_commits == [(TOPIC, partition, offset) for partition, offset in made]
    text = run_cli("offsets-log", "--bootstrap-server", broker.bootstrap)
    assert text.returncode == 0, text.stderr
    assert (f'OffsetCommit group="{GROUP}" topic="{TOPIC}" partition=0 -> offset=12 '
            in text.stdout)

    # Kafka lists it as internal; clients may not produce to it.
    topics = json.loads(run_cli("topics", "list", "--bootstrap-server", broker.bootstrap,
                                "--json").stdout)["topics"]
    assert {"name": OFFSETS_TOPIC, "partitions": 1, "internal": True} in topics
    producer = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 0,
                         "message.send.max.retries": 0})
    errors = []
    producer.produce(OFFSETS_TOPIC, key=b"k", value=b"v", partition=0,
                     on_delivery=lambda error, message: errors.append(error))
    producer.flush(TIMEOUT_S)
    assert [error.code() for error in errors] == [KafkaError.TOPIC_EXCEPTION]


def test_after_compaction_only_the_latest_commit_per_key_remains(broker):
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    commit(broker.bootstrap, GROUP, [(0, 1)])  # creates __consumer_offsets
    resource = ConfigResource(ConfigResource.Type.TOPIC, OFFSETS_TOPIC, set_config={
        "cleanup.policy": "compact", "segment.bytes": "1024",
        "min.cleanable.dirty.ratio": "0.01"})
    admin.alter_configs([resource])[resource].result(timeout=TIMEOUT_S)

    for round_ in range(2, 5):
        for partition in range(3):
            commit(broker.bootstrap, GROUP, [(partition, round_ * 10 + partition)])
    # Unique keys of another group past segment.bytes, so the commits above sit in closed
    # segments the cleaner may compact.
    commit(broker.bootstrap, "offsets-topic-filler",
           [(partition, 1) for partition in range(PARTITIONS)])
    commit(broker.bootstrap, "offsets-topic-filler-2",
           [(partition, 1) for partition in range(PARTITIONS)])

    latest = [(TOPIC, partition, 40 + partition, "") for partition in range(3)]
    deadline = time.monotonic() + TIMEOUT_S
    seen = None
    while time.monotonic() < deadline:
        seen = [commit_[:4] for commit_ in commits_of(read_offsets_topic(broker.bootstrap),
                                                      GROUP)]
        if seen == latest:
            break
        time.sleep(0.2)
    assert seen == latest
    assert "log cleaner: finished cleaning" in broker.log()
