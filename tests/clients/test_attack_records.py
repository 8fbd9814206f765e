# SPDX-License-Identifier: Apache-2.0
"""Attacks through record batches: payloads that do not decompress, a gzip bomb, a batch
claiming 2^31-1 records it does not hold, control and transactional batches from a plain
producer, several batches for one partition. Each gets CORRUPT_MESSAGE, INVALID_RECORD or (a
producer id the broker never issued) UNKNOWN_PRODUCER_ID, and nothing is stored (the high
watermark does not move); a librdkafka consumer then reads the
partition to its end without stalling. Valid batches of every codec the clients write are
still accepted, and a batch whose header lies about its newest timestamp is stored with the
records' maximum and a CRC that checks."""
import gzip
import time

import pytest
import zstandard
from confluent_kafka import OFFSET_BEGINNING, Consumer, Producer, TopicPartition
from kafka import KafkaConsumer, KafkaProducer
from kafka import TopicPartition as KafkaTopicPartition
from kafka.protocol.offset import OffsetRequest
from kafka.protocol.produce import ProduceRequest
from kafka.record.util import encode_varint

from attack_checks import assert_responsive, assert_within_budget
from raw_client import RawConnection
from raw_client import batch_around as batch

TOPIC = "records"
TIMEOUT_S = 30
CORRUPT_MESSAGE = 2
INVALID_RECORD = 87
UNKNOWN_PRODUCER_ID = 59


def encode_record(offset_delta, key, value, timestamp_delta=0):
    body = bytearray(b"\x00")  # attributes
    body += encode_varint_bytes(timestamp_delta) + encode_varint_bytes(offset_delta)
    body += encode_varint_bytes(len(key)) + key + encode_varint_bytes(len(value)) + value
    body += encode_varint_bytes(0)  # no headers
    return encode_varint_bytes(len(body)) + bytes(body)


def encode_varint_bytes(value):
    out = bytearray()
    encode_varint(value, out.append)
    return bytes(out)


def produce(connection, records):
    response = connection.request(ProduceRequest[3](
        transactional_id=None, required_acks=1, timeout=1000, topics=[(TOPIC, [(0, records)])]))
    return response.topics[0][1][0][1]


def high_watermark(connection):
    response = connection.request(OffsetRequest[1](replica_id=-1, topics=[(TOPIC, [(0, -1)])]))
    return response.topics[0][1][0][3]


def kafka_python_read(consumer, count):
    """The next `count` messages of a kafka-python consumer (fewer if the time runs out)."""
    messages = []
    deadline = time.monotonic() + TIMEOUT_S
    while len(messages) < count and time.monotonic() < deadline:
        for records in consumer.poll(timeout_ms=200).values():
            messages.extend(records)
    return messages


ONE_RECORD = encode_record(0, b"k", b"v")

ATTACKS = {
    "lz4 payload that is not lz4": (batch(b"\x04\x22\x4d\x18garbage" * 8, 1, attributes=3),
                                    CORRUPT_MESSAGE),
    "zstd payload that is not zstd": (batch(b"\x28\xb5\x2f\xfdgarbage" * 8, 1, attributes=4),
                                      CORRUPT_MESSAGE),
    "snappy payload that is not snappy": (batch(b"\xff" * 64, 1, attributes=2), CORRUPT_MESSAGE),
    "gzip payload cut short": (batch(gzip.compress(ONE_RECORD * 50)[:-20], 50, attributes=1),
                               CORRUPT_MESSAGE),
    "2^31-1 records claimed, none there": (batch(b"", 2 ** 31 - 1), INVALID_RECORD),
    "fewer records than claimed": (batch(ONE_RECORD, 2), INVALID_RECORD),
    "record count and last offset delta disagree": (batch(ONE_RECORD, 1, last_offset_delta=5),
                                                    INVALID_RECORD),
    "control batch": (batch(ONE_RECORD, 1, attributes=0x20), INVALID_RECORD),
    "transactional batch": (batch(ONE_RECORD, 1, attributes=0x10, producer_id=7, base_sequence=0),
                            UNKNOWN_PRODUCER_ID),
    "producer id nobody was given": (batch(ONE_RECORD, 1, producer_id=7, base_sequence=0),
                                     UNKNOWN_PRODUCER_ID),
    "offset delta out of order": (batch(encode_record(3, b"k", b"v"), 1), INVALID_RECORD),
    "key length past the record": (batch(b"\x08\x00\x00\x00\x7f" + b"k" * 3, 1), CORRUPT_MESSAGE),
    "two batches for one partition": (batch(ONE_RECORD, 1) * 2, INVALID_RECORD),
}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_invalid_batches_are_refused_and_nothing_is_stored(start_kgroupsd, name):
    records, error = ATTACKS[name]
    broker = start_kgroupsd("--topic", f"{TOPIC}:1")
    connection = RawConnection(broker.bootstrap)
    assert produce(connection, batch(ONE_RECORD, 1)) == 0
    assert produce(connection, records) == error, name
    assert high_watermark(connection) == 1
    assert produce(connection, batch(ONE_RECORD, 1)) == 0
    assert high_watermark(connection) == 2
    connection.close()
    assert "Produce refused 1 partition(s)" in broker.log()


def test_a_gzip_bomb_stops_at_the_decompression_limit(start_kgroupsd):
    broker = start_kgroupsd("--max-memory", "256MiB", "--topic", f"{TOPIC}:1")
    bomb = gzip.compress(bytes(200 << 20), compresslevel=9)  # 200 MiB of zeros in ~200 KB
    assert len(bomb) < 1 << 20
    connection = RawConnection(broker.bootstrap)
    started = time.monotonic()
    assert produce(connection, batch(bomb, 1, attributes=1)) == INVALID_RECORD
    assert time.monotonic() - started < 5
    assert high_watermark(connection) == 0
    connection.close()
    assert_responsive(broker)
    assert_within_budget(broker, 256)
    assert "limit" in broker.log()


def test_librdkafka_reads_the_partition_to_its_end_after_the_attacks(start_kgroupsd):
    broker = start_kgroupsd("--topic", f"{TOPIC}:1")
    connection = RawConnection(broker.bootstrap)
    good = 0
    for records, _error in ATTACKS.values():
        produce(connection, records)
        assert produce(connection, batch(encode_record(0, b"k", f"good-{good}".encode()), 1)) == 0
        good += 1
    connection.close()
    consumer = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "reader",
                         "check.crcs": True, "enable.auto.commit": False})
    consumer.assign([TopicPartition(TOPIC, 0, OFFSET_BEGINNING)])
    values = []
    deadline = time.monotonic() + TIMEOUT_S
    while len(values) < good and time.monotonic() < deadline:
        message = consumer.poll(0.5)
        if message is not None:
            assert message.error() is None, message.error()
            values.append(message.value().decode())
    consumer.close()
    assert values == [f"good-{i}" for i in range(good)]


def test_a_lying_max_timestamp_is_corrected_and_the_crc_still_checks(start_kgroupsd):
    broker = start_kgroupsd("--topic", f"{TOPIC}:1")
    connection = RawConnection(broker.bootstrap)
    records = encode_record(0, b"k", b"a", 0) + encode_record(1, b"k", b"b", 500)
    assert produce(connection, batch(records, 2, max_timestamp=99)) == 0  # really 1500
    # ListOffsets by timestamp finds the record at 1500, which a max of 99 would hide.
    response = connection.request(OffsetRequest[1](replica_id=-1, topics=[(TOPIC, [(0, 1200)])]))
    assert response.topics[0][1][0][2:] == (1500, 1)
    connection.close()
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap, check_crcs=True,
                             auto_offset_reset="earliest")
    consumer.assign([KafkaTopicPartition(TOPIC, 0)])
    assert [(m.value, m.timestamp) for m in kafka_python_read(consumer, 2)] == [
        (b"a", 1000), (b"b", 1500)]
    consumer.close()


@pytest.mark.parametrize("codec", ["gzip", "snappy", "lz4"])
def test_every_codec_librdkafka_writes_is_validated_and_read_back(kgroupsd, codec):
    producer = Producer({"bootstrap.servers": kgroupsd.bootstrap, "compression.type": codec,
                         "linger.ms": 20})
    for i in range(200):
        producer.produce(f"codec-{codec}", key=b"same", value=f"{codec}-{i}".encode())
    assert producer.flush(TIMEOUT_S) == 0
    consumer = Consumer({"bootstrap.servers": kgroupsd.bootstrap, "group.id": f"codec-{codec}",
                         "auto.offset.reset": "earliest", "check.crcs": True})
    consumer.subscribe([f"codec-{codec}"])
    values = []
    deadline = time.monotonic() + TIMEOUT_S
    while len(values) < 200 and time.monotonic() < deadline:
        message = consumer.poll(0.5)
        if message is not None and message.error() is None:
            values.append(message.value().decode())
    consumer.close()
    assert values == [f"{codec}-{i}" for i in range(200)]


@pytest.mark.parametrize("codec", ["gzip", "snappy", "lz4"])
def test_every_codec_kafka_python_writes_is_validated_and_read_back(kgroupsd, codec):
    producer = KafkaProducer(bootstrap_servers=kgroupsd.bootstrap, compression_type=codec,
                             linger_ms=20)
    for i in range(100):
        producer.send(f"kp-{codec}", key=b"same", value=f"{codec}-{i}".encode())
    producer.flush(TIMEOUT_S)
    producer.close()
    consumer = KafkaConsumer(f"kp-{codec}", bootstrap_servers=kgroupsd.bootstrap,
                             auto_offset_reset="earliest", check_crcs=True)
    values = [m.value.decode() for m in kafka_python_read(consumer, 100)]
    consumer.close()
    assert values == [f"{codec}-{i}" for i in range(100)]


def test_a_zstd_batch_is_validated_and_stored(start_kgroupsd):
    broker = start_kgroupsd("--topic", f"{TOPIC}:1")
    connection = RawConnection(broker.bootstrap)
    records = b"".join(encode_record(i, b"k", f"z{i}".encode()) for i in range(10))
    compressed = zstandard.ZstdCompressor().compress(records)
    assert produce(connection, batch(compressed, 10, attributes=4)) == 0
    assert high_watermark(connection) == 10
    connection.close()
