# SPDX-License-Identifier: Apache-2.0
"""confluent-kafka (Python, librdkafka 2.0.2) against kgroupsd: Producer with keyed
messages and delivery reports, Consumer with assign() reading everything back, and the
AdminClient creating topics (CreateTopics, which needs Metadata to name a controller)."""
import time

import pytest
from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from kgroupsd_process import TEST_BROKERS

TIMEOUT_S = 30


def produce(bootstrap, topic, messages, **config):
    producer = Producer({"bootstrap.servers": bootstrap, **config})
    reports = []

    def on_delivery(error, message):
        assert error is None, f"delivery failed: {error}"
        reports.append((message.key().decode(), message.value().decode(), message.partition(),
                        message.offset()))

    for key, value in messages:
        producer.produce(topic, key=key, value=value, on_delivery=on_delivery)
        producer.poll(0)
    assert producer.flush(TIMEOUT_S) == 0, "messages left undelivered"
    return reports


def consume_assigned(bootstrap, topic, partitions, expected_count):
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "unused-by-assign",
                         "enable.auto.commit": False, "check.crcs": True})
    consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(partitions)])
    rows = []
    deadline = time.monotonic() + TIMEOUT_S
    try:
        while len(rows) < expected_count and time.monotonic() < deadline:
            message = consumer.poll(0.5)
            if message is None:
                continue
            assert message.error() is None, message.error()
            rows.append((message.key().decode(), message.value().decode(), message.partition(),
                         message.offset()))
        # Nothing more arrives after everything was read.
        extra = consumer.poll(0.5)
        assert extra is None or extra.error() is not None, "read more messages than produced"
    finally:
        consumer.close()
    return rows


@pytest.mark.parametrize("compression", ["none", "gzip"])
def test_produce_keyed_and_consume_by_assignment(kgroupsd, compression):
    messages = [(f"ck-key-{i % 17}", f"ck-value-{i}") for i in range(500)]
    reports = produce(kgroupsd.bootstrap, "ck-topic", messages, **{
        "compression.type": compression, "linger.ms": 5, "acks": "all"})
    assert len(reports) == len(messages)
    # Delivery reports: each key stays in one partition; offsets per partition are dense
    # from 0 in produce order.
    partition_of_key = {}
    offsets = {}
    for key, value, partition, offset in reports:
        assert partition_of_key.setdefault(key, partition) == partition
        offsets.setdefault(partition, []).append(offset)
    for partition, seen in offsets.items():
        assert seen == list(range(len(seen))), f"partition {partition}"

    rows = consume_assigned(kgroupsd.bootstrap, "ck-topic", 6, len(messages))
    assert sorted(rows, key=lambda r: (r[2], r[3])) == sorted(reports, key=lambda r: (r[2], r[3]))


def test_admin_creates_topics_and_refuses_duplicates(kgroupsd):
    admin = AdminClient({"bootstrap.servers": kgroupsd.bootstrap})
    futures = admin.create_topics([NewTopic("ck-admin", num_partitions=3, replication_factor=1)],
                                  operation_timeout=10)
    futures["ck-admin"].result(timeout=TIMEOUT_S)
    metadata = admin.list_topics(timeout=TIMEOUT_S)
    assert len(metadata.topics["ck-admin"].partitions) == 3
    assert metadata.controller_id == 0

    again = admin.create_topics([NewTopic("ck-admin", num_partitions=3, replication_factor=1)])
    with pytest.raises(KafkaException, match="TOPIC_ALREADY_EXISTS"):
        again["ck-admin"].result(timeout=TIMEOUT_S)
    # One replica more than there are brokers (1, or KGROUPS_TEST_BROKERS).
    bad = admin.create_topics([NewTopic("ck-bad", num_partitions=2,
                                        replication_factor=TEST_BROKERS + 1)])
    with pytest.raises(KafkaException, match="INVALID_REPLICATION_FACTOR"):
        bad["ck-bad"].result(timeout=TIMEOUT_S)

    # The created topic takes messages in exactly its 3 partitions.
    reports = produce(kgroupsd.bootstrap, "ck-admin", [(f"k{i}", f"v{i}") for i in range(30)])
    assert {partition for _, _, partition, _ in reports} <= {0, 1, 2}


def test_offsets_for_earliest_latest_and_timestamps(kgroupsd):
    producer = Producer({"bootstrap.servers": kgroupsd.bootstrap, "linger.ms": 50})
    for i in range(7):  # one batch, record timestamps 1000, 1010, ..., 1060
        producer.produce("ck-offsets", key="one-key", value=f"v{i}", timestamp=1000 + 10 * i)
    assert producer.flush(TIMEOUT_S) == 0
    consumer = Consumer({"bootstrap.servers": kgroupsd.bootstrap, "group.id": "unused"})
    partition = next(p for p in range(6) if consumer.get_watermark_offsets(
        TopicPartition("ck-offsets", p), timeout=TIMEOUT_S, cached=False)[1] > 0)
    try:
        for timestamp, offset in ((0, 0), (1025, 3), (1030, 3), (1060, 6), (1061, -1)):
            [found] = consumer.offsets_for_times(
                [TopicPartition("ck-offsets", partition, timestamp)], timeout=TIMEOUT_S)
            assert found.offset == offset, f"timestamp {timestamp}"
        low, high = consumer.get_watermark_offsets(TopicPartition("ck-offsets", partition),
                                                   timeout=TIMEOUT_S, cached=False)
        assert (low, high) == (0, 7)
        empty = (partition + 1) % 6
        assert consumer.get_watermark_offsets(TopicPartition("ck-offsets", empty),
                                              timeout=TIMEOUT_S, cached=False) == (0, 0)
    finally:
        consumer.close()
