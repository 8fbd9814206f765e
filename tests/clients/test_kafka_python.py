# SPDX-License-Identifier: Apache-2.0
"""kafka-python 2.0.2 against kgroupsd: it probes the broker version (ApiVersions v0 and a
pipelined Metadata v0), must infer 2.4 (from Produce >= 8 in ApiVersions) and so produce
magic-2 batches with Produce v7 and fetch with Fetch v4 (its own maxima); then KafkaConsumer
with assign() reads everything back (checking CRCs, its default)."""
import time

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewTopic
from kafka.errors import TopicAlreadyExistsError

TIMEOUT_S = 30


def produce(bootstrap, topic, messages, **config):
    producer = KafkaProducer(bootstrap_servers=bootstrap, **config)
    try:
        # kafka-python infers the broker version from ApiVersions: DescribeAcls v2 means 2.5.
        assert producer.config["api_version"] == (2, 5, 0)
        futures = [producer.send(topic, key=key.encode(), value=value.encode())
                   for key, value in messages]
        producer.flush(timeout=TIMEOUT_S)
        reports = []
        for (key, value), future in zip(messages, futures):
            metadata = future.get(timeout=TIMEOUT_S)
            reports.append((key, value, metadata.partition, metadata.offset))
        return reports
    finally:
        producer.close(timeout=5)


def consume_assigned(bootstrap, topic, partitions, expected_count):
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None,
                             enable_auto_commit=False, auto_offset_reset="earliest",
                             check_crcs=True)
    try:
        consumer.assign([TopicPartition(topic, p) for p in range(partitions)])
        consumer.seek_to_beginning()
        rows = []
        deadline = time.monotonic() + TIMEOUT_S
        while len(rows) < expected_count and time.monotonic() < deadline:
            for batch in consumer.poll(timeout_ms=500).values():
                rows += [(m.key.decode(), m.value.decode(), m.partition, m.offset) for m in batch]
        assert not consumer.poll(timeout_ms=300), "read more messages than produced"
        return rows
    finally:
        consumer.close()


@pytest.mark.parametrize("compression", [None, "gzip"])
def test_produce_keyed_and_consume_by_assignment(kgroupsd, compression):
    messages = [(f"kp-key-{i % 11}", f"kp-value-{i}") for i in range(400)]
    reports = produce(kgroupsd.bootstrap, "kp-topic", messages, compression_type=compression,
                      linger_ms=5, acks="all")
    partition_of_key = {}
    offsets = {}
    for key, _, partition, offset in reports:
        assert partition_of_key.setdefault(key, partition) == partition
        offsets.setdefault(partition, []).append(offset)
    for partition, seen in offsets.items():
        assert seen == list(range(len(seen))), f"partition {partition}"

    rows = consume_assigned(kgroupsd.bootstrap, "kp-topic", 6, len(messages))
    assert sorted(rows, key=lambda r: (r[2], r[3])) == sorted(reports, key=lambda r: (r[2], r[3]))


def test_acks_one_and_end_offsets(kgroupsd):
    reports = produce(kgroupsd.bootstrap, "kp-acks", [("k", str(i)) for i in range(9)], acks=1)
    partition = reports[0][2]
    consumer = KafkaConsumer(bootstrap_servers=kgroupsd.bootstrap, group_id=None)
    try:
        partitions = [TopicPartition("kp-acks", p) for p in range(6)]
        ends = consumer.end_offsets(partitions)
        assert ends == {tp: (9 if tp.partition == partition else 0) for tp in partitions}
        assert set(consumer.beginning_offsets(partitions).values()) == {0}
    finally:
        consumer.close()


def test_admin_creates_a_topic(kgroupsd):
    admin = KafkaAdminClient(bootstrap_servers=kgroupsd.bootstrap)
    try:
        admin.create_topics([NewTopic("kp-admin", num_partitions=2, replication_factor=1)])
        with pytest.raises(TopicAlreadyExistsError):
            admin.create_topics([NewTopic("kp-admin", num_partitions=2, replication_factor=1)])
    finally:
        admin.close()
    reports = produce(kgroupsd.bootstrap, "kp-admin", [(f"k{i}", "v") for i in range(20)])
    assert {partition for _, _, partition, _ in reports} == {0, 1}
