# SPDX-License-Identifier: Apache-2.0
"""Idempotent producers on the wire: InitProducerId gives an id, the broker stores a batch
sent twice (same producer id, epoch and sequence) once and answers the copy with the
original's offset, a sequence gap gets OUT_OF_ORDER_SEQUENCE_NUMBER, an older epoch
INVALID_PRODUCER_EPOCH, an id the broker did not issue UNKNOWN_PRODUCER_ID; and
confluent-kafka's idempotent producer works end to end. Requests are encoded byte by byte
(flexible_wire.py), batches by kafka-python's builder."""
import uuid

from confluent_kafka import Consumer, Producer
from kafka.record import MemoryRecords
from kafka.record.default_records import DefaultRecordBatchBuilder

from flexible_wire import TAGS, cstr, flexible_request, i16, i32, i64, produce_one_batch
from raw_client import RawConnection

NONE = 0
OUT_OF_ORDER_SEQUENCE_NUMBER = 45
INVALID_PRODUCER_EPOCH = 47
INVALID_TXN_STATE = 48
UNKNOWN_PRODUCER_ID = 59


def init_producer_id(connection, transactional_id=None, timeout_ms=60000, version=4):
    body = cstr(transactional_id) + i32(timeout_ms) + (i64(-1) + i16(-1) if version >= 3 else b"")
    body += TAGS
    r = flexible_request(connection, 22, version, body)
    throttle, error, producer_id, epoch = r.i32(), r.i16(), r.i64(), r.i16()
    r.finish()
    assert throttle == 0
    return error, producer_id, epoch


def producer_batch(values, producer_id, epoch, sequence, transactional=False):
    builder = DefaultRecordBatchBuilder(magic=2, compression_type=0,
                                        is_transactional=transactional, producer_id=producer_id,
                                        producer_epoch=epoch, base_sequence=sequence,
                                        batch_size=1 << 20)
    for offset, value in enumerate(values):
        builder.append(offset, timestamp=1000 + offset, key=None, value=value, headers=[])
    return bytes(builder.build())


def produce(connection, topic, partition, records, version=9):
    return produce_one_batch(connection, topic, partition, records, version)


def fetch_values(connection, topic, partition):
    """Every record value of the partition, in offset order (Fetch v4, kafka-python's struct)."""
    from kafka.protocol.fetch import FetchRequest
    request = FetchRequest[4](replica_id=-1, max_wait_time=0, min_bytes=0, max_bytes=1 << 20,
                              isolation_level=0,
                              topics=[(topic, [(partition, 0, 1 << 20)])])
    response = connection.request(request)
    [(_, [(_, error, _, _, _, records)])] = response.topics
    assert error == 0
    values = []
    memory = MemoryRecords(records)
    while memory.has_next():
        batch = memory.next_batch()
        values.extend(record.value for record in batch)
    return values


def test_init_producer_id_gives_distinct_ids_at_epoch_zero(start_kgroupsd):
    broker = start_kgroupsd("--topic", "p:1")
    connection = RawConnection(broker.bootstrap)
    first = init_producer_id(connection)
    second = init_producer_id(connection, version=2)
    assert first[0] == NONE and second[0] == NONE
    assert first[2] == 0 and second[2] == 0
    assert first[1] >= 0 and second[1] >= 0 and first[1] != second[1]
    connection.close()


def test_duplicate_batch_is_stored_once_and_answered_with_its_offset(start_kgroupsd):
    broker = start_kgroupsd("--topic", "p:1")
    connection = RawConnection(broker.bootstrap)
    _, producer_id, epoch = init_producer_id(connection)
    plain = produce(connection, "p", 0, producer_batch([b"before"], -1, -1, -1))
    assert (plain["error"], plain["base_offset"]) == (NONE, 0)
    batch = producer_batch([b"a", b"b"], producer_id, epoch, 0)
    first = produce(connection, "p", 0, batch)
    assert (first["error"], first["base_offset"]) == (NONE, 1)
    again = produce(connection, "p", 0, batch)  # a retry of the same batch
    assert (again["error"], again["base_offset"]) == (NONE, 1)
    following = produce(connection, "p", 0, producer_batch([b"c"], producer_id, epoch, 2))
    assert (following["error"], following["base_offset"]) == (NONE, 3)
    assert fetch_values(connection, "p", 0) == [b"before", b"a", b"b", b"c"]
    connection.close()


def test_sequence_gap_is_out_of_order(start_kgroupsd):
    broker = start_kgroupsd("--topic", "p:1")
    connection = RawConnection(broker.bootstrap)
    _, producer_id, epoch = init_producer_id(connection)
    assert produce(connection, "p", 0, producer_batch([b"a"], producer_id, epoch, 0))["error"] == 0
    gap = produce(connection, "p", 0, producer_batch([b"c"], producer_id, epoch, 2))
    assert gap["error"] == OUT_OF_ORDER_SEQUENCE_NUMBER
    assert gap["error_message"]
    assert fetch_values(connection, "p", 0) == [b"a"]
    connection.close()


def test_older_epoch_is_fenced(start_kgroupsd):
    broker = start_kgroupsd("--topic", "p:1")
    connection = RawConnection(broker.bootstrap)
    _, producer_id, _ = init_producer_id(connection)
    # The client bumped its epoch itself (KIP-360): a new epoch starts at sequence 0.
    assert produce(connection, "p", 0, producer_batch([b"a"], producer_id, 1, 0))["error"] == 0
    stale = produce(connection, "p", 0, producer_batch([b"b"], producer_id, 0, 1))
    assert stale["error"] == INVALID_PRODUCER_EPOCH
    not_zero = produce(connection, "p", 0, producer_batch([b"c"], producer_id, 2, 5))
    assert not_zero["error"] == OUT_OF_ORDER_SEQUENCE_NUMBER
    assert fetch_values(connection, "p", 0) == [b"a"]
    connection.close()


def test_producer_ids_the_broker_did_not_issue_are_refused(start_kgroupsd):
    broker = start_kgroupsd("--topic", "p:1")
    connection = RawConnection(broker.bootstrap)
    unknown = produce(connection, "p", 0, producer_batch([b"a"], 123456, 0, 0))
    assert unknown["error"] == UNKNOWN_PRODUCER_ID
    _, producer_id, epoch = init_producer_id(connection)
    transactional = produce(connection, "p", 0,
                            producer_batch([b"a"], producer_id, epoch, 0, transactional=True))
    assert transactional["error"] == INVALID_TXN_STATE
    assert fetch_values(connection, "p", 0) == []
    connection.close()


def test_producer_ids_beyond_the_limit_expire_the_least_recently_used(start_kgroupsd):
    broker = start_kgroupsd("--topic", "p:1", "--max-producer-ids", "2")
    connection = RawConnection(broker.bootstrap)
    ids = [init_producer_id(connection)[1] for _ in range(3)]
    expired = produce(connection, "p", 0, producer_batch([b"a"], ids[0], 0, 0))
    assert expired["error"] == UNKNOWN_PRODUCER_ID
    for producer_id in ids[1:]:
        assert produce(connection, "p", 0, producer_batch([b"a"], producer_id, 0, 0))["error"] == 0
    connection.close()


def test_confluent_kafka_idempotent_producer(start_kgroupsd):
    broker = start_kgroupsd("--topic", "idem:2")
    producer = Producer({"bootstrap.servers": broker.bootstrap, "enable.idempotence": True,
                         "linger.ms": 5})
    errors = []
    for i in range(200):
        producer.produce("idem", value=b"%d" % i, partition=i % 2,
                         on_delivery=lambda err, msg: err and errors.append(err))
    assert producer.flush(30) == 0
    assert errors == []
    consumer = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": str(uuid.uuid4()),
                         "auto.offset.reset": "earliest", "enable.auto.commit": False})
    consumer.subscribe(["idem"])
    values = []
    while len(values) < 200:
        message = consumer.poll(10)
        assert message is not None, f"only {len(values)} of 200 records"
        assert message.error() is None, message.error()
        values.append(int(message.value()))
    consumer.close()
    assert sorted(values) == list(range(200))
