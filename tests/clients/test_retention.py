# SPDX-License-Identifier: Apache-2.0
"""Retention against kgroupsd with confluent-kafka (librdkafka): retention.ms and
retention.bytes drop the oldest segments and move the log start offset, and a consumer group
whose committed offset was dropped resets as its auto.offset.reset says (earliest, latest), as
with Kafka. Time is driven by record timestamps two hours in the past and a 100 ms retention
check, so nothing sleeps for retention.ms."""
import time

import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, ConfigResource, ConfigSource, NewTopic

TIMEOUT_S = 30
HOUR_MS = 3600 * 1000


def create_topic(bootstrap, name, config):
    admin = AdminClient({"bootstrap.servers": bootstrap})
    futures = admin.create_topics([NewTopic(name, num_partitions=1, replication_factor=1,
                                            config=config)], operation_timeout=10)
    futures[name].result(timeout=TIMEOUT_S)


def produce(bootstrap, topic, values, timestamp_ms=None, linger_ms=0):
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": linger_ms})
    offsets = []

    def on_delivery(error, message):
        assert error is None, f"delivery failed: {error}"
        offsets.append(message.offset())

    for value in values:
        extra = {} if timestamp_ms is None else {"timestamp": timestamp_ms}
        producer.produce(topic, value=value, partition=0, on_delivery=on_delivery, **extra)
        # One batch per record, so retention has many segments' worth of batches to drop.
        producer.flush(TIMEOUT_S)
    assert producer.flush(TIMEOUT_S) == 0
    return offsets


def watermarks(bootstrap, topic):
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "watermarks"})
    try:
        return consumer.get_watermark_offsets(TopicPartition(topic, 0), timeout=10)
    finally:
        consumer.close()


def wait_for_log_start(bootstrap, topic, predicate):
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        low, high = watermarks(bootstrap, topic)
        if predicate(low, high):
            return low, high
        time.sleep(0.1)
    raise AssertionError(f"log start of {topic} never satisfied the check: {watermarks(bootstrap, topic)}")


def commit_offset(bootstrap, group, topic, offset):
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group})
    try:
        consumer.commit(offsets=[TopicPartition(topic, 0, offset)], asynchronous=False)
    finally:
        consumer.close()


def read_group(bootstrap, group, topic, reset, expected, produce_after_assignment=None):
    """Reads `expected` messages as a member of `group`; `produce_after_assignment` values are
    produced once the member has held its assignment for a second (its first fetch, and so
    any offset reset, has happened by then)."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group,
                         "auto.offset.reset": reset, "enable.auto.commit": False})
    consumer.subscribe([topic])
    received = []
    assigned_at = None
    deadline = time.monotonic() + TIMEOUT_S
    try:
        while len(received) < expected and time.monotonic() < deadline:
            message = consumer.poll(0.2)
            if assigned_at is None and consumer.assignment():
                assigned_at = time.monotonic()
            if (produce_after_assignment and assigned_at is not None
                    and time.monotonic() - assigned_at > 1.0):
                produce(bootstrap, topic, produce_after_assignment)
                produce_after_assignment = None
            if message is None:
                continue
            assert message.error() is None, message.error()
            received.append((message.offset(), message.value().decode()))
    finally:
        consumer.close()
    return received


@pytest.fixture
def broker(start_kgroupsd):
    return start_kgroupsd("--log-retention-check-interval-ms", "100")


def test_retention_ms_drops_old_records_and_an_earliest_group_resets_to_the_log_start(broker):
    create_topic(broker.bootstrap, "hourly", {"retention.ms": str(HOUR_MS)})
    old = int(time.time() * 1000) - 2 * HOUR_MS
    assert produce(broker.bootstrap, "hourly", [f"old-{i}" for i in range(5)], old) == [0, 1, 2, 3, 4]
    commit_offset(broker.bootstrap, "billing", "hourly", 1)  # then retention drops offset 1
    low, high = wait_for_log_start(broker.bootstrap, "hourly", lambda low, high: low == 5)
    assert (low, high) == (5, 5)
    assert produce(broker.bootstrap, "hourly", ["new-5", "new-6"]) == [5, 6]
    # Fetching from the committed offset 1 gets OFFSET_OUT_OF_RANGE; earliest is the new start.
    assert read_group(broker.bootstrap, "billing", "hourly", "earliest", 2) == [
        (5, "new-5"), (6, "new-6")]
    assert "retention.ms: dropped" in broker.log()


def test_a_latest_group_whose_offset_was_dropped_skips_to_the_end(broker):
    create_topic(broker.bootstrap, "hourly-latest", {"retention.ms": str(HOUR_MS)})
    old = int(time.time() * 1000) - 2 * HOUR_MS
    produce(broker.bootstrap, "hourly-latest", [f"old-{i}" for i in range(3)], old)
    commit_offset(broker.bootstrap, "audit", "hourly-latest", 0)
    wait_for_log_start(broker.bootstrap, "hourly-latest", lambda low, high: low == 3)
    produce(broker.bootstrap, "hourly-latest", ["before-join"])  # offset 3: skipped by latest
    received = read_group(broker.bootstrap, "audit", "hourly-latest", "latest", 1,
                          produce_after_assignment=["after-join"])
    assert received == [(4, "after-join")]


def test_records_newer_than_retention_ms_stay(broker):
    create_topic(broker.bootstrap, "kept", {"retention.ms": str(HOUR_MS)})
    produce(broker.bootstrap, "kept", ["fresh-0", "fresh-1"])
    time.sleep(0.5)  # several retention checks
    assert watermarks(broker.bootstrap, "kept") == (0, 2)


def test_retention_bytes_keeps_about_that_much_of_each_partition(broker):
    create_topic(broker.bootstrap, "capped", {"retention.bytes": "8192", "retention.ms": "-1"})
    produce(broker.bootstrap, "capped", ["x" * 1000 for _ in range(40)])
    low, high = watermarks(broker.bootstrap, "capped")
    assert high == 40
    # At least 8 KiB (about 7 batches of ~1.07 KB) stays, and not much more than that.
    assert 20 <= low <= 33, (low, high)
    assert read_group(broker.bootstrap, "capped-reader", "capped", "earliest", high - low)[0][0] == low


def test_broker_wide_retention_bytes_applies_to_auto_created_topics(start_kgroupsd):
    broker = start_kgroupsd("--log-retention-bytes", "4KiB", "--default-partitions", "1")
    produce(broker.bootstrap, "auto", ["y" * 1000 for _ in range(20)])
    low, high = watermarks(broker.bootstrap, "auto")
    assert high == 20 and low >= 10, (low, high)


def test_a_broker_log_retention_ms_set_at_run_time_applies_to_topics_without_their_own(
        broker):
    create_topic(broker.bootstrap, "inherits", {})
    create_topic(broker.bootstrap, "keeps-own", {"retention.ms": "-1"})
    old = int(time.time() * 1000) - 2 * HOUR_MS
    for topic in ("inherits", "keeps-own"):
        produce(broker.bootstrap, topic, [f"old-{i}" for i in range(3)], old)
    time.sleep(0.3)  # several retention checks: the default week keeps them
    assert watermarks(broker.bootstrap, "inherits") == (0, 3)

    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    # librdkafka 2.0.2 refuses the cluster-wide resource (name ""): this broker's own value.
    this_broker = ConfigResource(ConfigResource.Type.BROKER, "0",
                                 set_config={"log.retention.ms": str(HOUR_MS)})
    admin.alter_configs([this_broker])[this_broker].result(TIMEOUT_S)
    wait_for_log_start(broker.bootstrap, "inherits", lambda low, high: low == 3)
    assert watermarks(broker.bootstrap, "keeps-own") == (0, 3)
    topic = ConfigResource(ConfigResource.Type.TOPIC, "inherits")
    retention = admin.describe_configs([topic])[topic].result(TIMEOUT_S)["retention.ms"]
    assert retention.value == str(HOUR_MS)
    assert retention.source == ConfigSource.DYNAMIC_BROKER_CONFIG.value


def test_an_invalid_retention_value_is_invalid_config_and_creates_nothing(broker):
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    futures = admin.create_topics([NewTopic("bad-retention", 1, 1,
                                            config={"retention.ms": "soon"})])
    with pytest.raises(KafkaException) as raised:
        futures["bad-retention"].result(timeout=TIMEOUT_S)
    assert "INVALID_CONFIG" in str(raised.value) or "retention.ms" in str(raised.value)
    metadata = admin.list_topics(timeout=10)
    assert "bad-retention" not in metadata.topics
