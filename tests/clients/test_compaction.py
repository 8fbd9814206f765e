# SPDX-License-Identifier: Apache-2.0
"""Log compaction (cleanup.policy=compact) against kgroupsd with confluent-kafka (librdkafka):
after the cleaner runs, a consumer reading from the start sees only each key's latest value,
at the offset it was produced at; tombstones stay for delete.retention.ms after their first
cleaning, then go; records without a key are refused. Small segments (segment.bytes) and a
100 ms cleaner interval keep the test short."""
import time

import pytest
from confluent_kafka import (OFFSET_BEGINNING, Consumer, KafkaError, Producer,
                             TopicPartition)
from confluent_kafka.admin import AdminClient, NewTopic

TIMEOUT_S = 30
DELETE_RETENTION_MS = 3000
KEYS = 5
ROUNDS = 3


def create_compacted_topic(bootstrap, name):
    admin = AdminClient({"bootstrap.servers": bootstrap})
    config = {"cleanup.policy": "compact", "segment.bytes": "1024",
              "delete.retention.ms": str(DELETE_RETENTION_MS),
              "min.cleanable.dirty.ratio": "0.01"}
    futures = admin.create_topics([NewTopic(name, num_partitions=1, replication_factor=1,
                                            config=config)], operation_timeout=10)
    futures[name].result(timeout=TIMEOUT_S)


def produce(bootstrap, topic, records, compression="none"):
    """Produces (key, value) pairs one batch each; returns their offsets."""
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0,
                         "compression.type": compression})
    offsets = []

    def on_delivery(error, message):
        assert error is None, f"delivery failed: {error}"
        offsets.append(message.offset())

    for key, value in records:
        producer.produce(topic, key=key, value=value, partition=0, on_delivery=on_delivery)
        producer.flush(TIMEOUT_S)
    assert producer.flush(TIMEOUT_S) == 0
    return offsets


def read_all(bootstrap, topic):
    """Every record from the log start to the high watermark: (offset, key, value)."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "compaction-reader",
                         "enable.auto.commit": False})
    try:
        low, high = consumer.get_watermark_offsets(TopicPartition(topic, 0), timeout=10)
        consumer.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
        records = []
        deadline = time.monotonic() + TIMEOUT_S
        while (not records or records[-1][0] < high - 1) and time.monotonic() < deadline:
            message = consumer.poll(0.2)
            if message is None:
                continue
            assert message.error() is None, message.error()
            value = None if message.value() is None else message.value().decode()
            records.append((message.offset(), message.key().decode(), value))
        return low, high, records
    finally:
        consumer.close()


def keyed(records):
    return [record for record in records if not record[1].startswith("filler-")]


def wait_for(bootstrap, topic, expected):
    deadline = time.monotonic() + TIMEOUT_S
    seen = None
    while time.monotonic() < deadline:
        low, high, records = read_all(bootstrap, topic)
        seen = keyed(records)
        if seen == expected:
            return low, high, records
        time.sleep(0.2)
    raise AssertionError(f"{topic} never held {expected}; it held {seen}")


@pytest.fixture
def broker(start_kgroupsd):
    return start_kgroupsd("--log-cleaner-interval-ms", "100")


@pytest.mark.parametrize("compression", ["none", "zstd", "gzip"])
def test_a_consumer_from_the_start_sees_each_keys_latest_value_at_its_offset(broker,
                                                                              compression):
    topic = f"compacted-{compression}"
    create_compacted_topic(broker.bootstrap, topic)
    records = [(f"k{key}", f"v{round_}") for round_ in range(ROUNDS) for key in range(KEYS)]
    records.append(("k4", None))  # a tombstone for k4
    assert produce(broker.bootstrap, topic, records, compression) == list(range(len(records)))
    # Unique keys past segment.bytes, so the records above sit in closed segments.
    fillers = [(f"filler-{i}", "f" * 100) for i in range(20)]
    produce(broker.bootstrap, topic, fillers, compression)
    high_before = len(records) + len(fillers)

    latest = [(10, "k0", "v2"), (11, "k1", "v2"), (12, "k2", "v2"), (13, "k3", "v2")]
    low, high, everything = wait_for(broker.bootstrap, topic, latest + [(15, "k4", None)])
    assert (low, high) == (0, high_before)  # offsets never change
    assert [offset for offset, key, _ in everything if key.startswith("filler-")] == list(
        range(len(records), high_before))
    assert "log cleaner: finished cleaning" in broker.log()

    # delete.retention.ms after the cleaning that kept it, the tombstone goes too.
    wait_for(broker.bootstrap, topic, latest)


def test_a_record_without_a_key_is_refused_by_a_compacted_topic(broker):
    create_compacted_topic(broker.bootstrap, "keys-required")
    producer = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 0,
                         "message.send.max.retries": 0})
    errors = []
    producer.produce("keys-required", value=b"no key", partition=0,
                     on_delivery=lambda error, message: errors.append(error))
    producer.flush(TIMEOUT_S)
    assert len(errors) == 1 and errors[0] is not None
    assert errors[0].code() == KafkaError.INVALID_RECORD, errors[0]
    assert produce(broker.bootstrap, "keys-required", [("k", "v")]) == [0]
