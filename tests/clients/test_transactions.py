# SPDX-License-Identifier: Apache-2.0
"""Transactional producers against kgroupsd with confluent-kafka (librdkafka): init_transactions,
begin/produce/send_offsets_to_transaction/commit and abort; each transaction ends with a
control marker in each of its partitions (one offset), committed offsets reach the group only
with the commit (OffsetFetch require_stable says UNSTABLE_OFFSET_COMMIT meanwhile), and a second
producer with the same transactional.id fences the first, whether its transaction is open or it
is idle between two.
Whether read_committed consumers skip aborted records is the read side's test."""
import uuid

import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition

from flexible_wire import TAGS, carray, cstr, flexible_request, i32
from raw_client import RawConnection

TIMEOUT_S = 30
UNSTABLE_OFFSET_COMMIT = 88


def transactional_producer(broker, transactional_id):
    producer = Producer({"bootstrap.servers": broker.bootstrap,
                         "transactional.id": transactional_id,
                         "transaction.timeout.ms": 20000})
    producer.init_transactions(TIMEOUT_S)
    return producer


def watermarks(broker, topic, partition):
    consumer = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "watermarks"})
    low, high = consumer.get_watermark_offsets(TopicPartition(topic, partition), TIMEOUT_S)
    consumer.close()
    return low, high


def read_uncommitted(broker, topic, partition, count):
    consumer = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": str(uuid.uuid4()),
                         "isolation.level": "read_uncommitted", "enable.auto.commit": False})
    consumer.assign([TopicPartition(topic, partition, 0)])
    values = []
    while len(values) < count:
        message = consumer.poll(10)
        assert message is not None, f"only {values}"
        assert message.error() is None, message.error()
        values.append(message.value())
    consumer.close()
    return values


def committed(broker, group, topic, partition):
    consumer = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": group})
    [answer] = consumer.committed([TopicPartition(topic, partition)], TIMEOUT_S)
    consumer.close()
    return answer.offset


def group_metadata(broker, group):
    consumer = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": group})
    return consumer, consumer.consumer_group_metadata()


def test_commit_writes_records_marker_and_offsets(start_kgroupsd):
    broker = start_kgroupsd("--topic", "out:1", "--topic", "in:1")
    producer = transactional_producer(broker, "txn-commit")
    consumer, metadata = group_metadata(broker, "eos-group")
    producer.begin_transaction()
    for i in range(3):
        producer.produce("out", value=b"v%d" % i, partition=0)
    producer.send_offsets_to_transaction([TopicPartition("in", 0, 17)], metadata, TIMEOUT_S)
    producer.commit_transaction(TIMEOUT_S)
    consumer.close()
    assert watermarks(broker, "out", 0) == (0, 4)  # 3 records + the commit marker
    assert read_uncommitted(broker, "out", 0, 3) == [b"v0", b"v1", b"v2"]
    assert committed(broker, "eos-group", "in", 0) == 17


def test_abort_writes_a_marker_and_drops_the_offsets(start_kgroupsd):
    broker = start_kgroupsd("--topic", "out:1", "--topic", "in:1")
    producer = transactional_producer(broker, "txn-abort")
    consumer, metadata = group_metadata(broker, "eos-group")
    producer.begin_transaction()
    producer.produce("out", value=b"aborted", partition=0)
    producer.send_offsets_to_transaction([TopicPartition("in", 0, 5)], metadata, TIMEOUT_S)
    producer.flush(TIMEOUT_S)
    producer.abort_transaction(TIMEOUT_S)
    assert watermarks(broker, "out", 0) == (0, 2)  # the record + the abort marker
    assert committed(broker, "eos-group", "in", 0) < 0
    # The producer goes on with a new transaction.
    producer.begin_transaction()
    producer.produce("out", value=b"kept", partition=0)
    producer.send_offsets_to_transaction([TopicPartition("in", 0, 6)], metadata, TIMEOUT_S)
    producer.commit_transaction(TIMEOUT_S)
    consumer.close()
    assert watermarks(broker, "out", 0) == (0, 4)
    assert committed(broker, "eos-group", "in", 0) == 6


def test_a_new_producer_with_the_same_id_fences_the_old_one(start_kgroupsd):
    broker = start_kgroupsd("--topic", "out:1")
    old = transactional_producer(broker, "txn-fence")
    old.begin_transaction()
    old.produce("out", value=b"from the old producer", partition=0)
    old.flush(TIMEOUT_S)
    new = transactional_producer(broker, "txn-fence")  # aborts the old one's transaction
    assert watermarks(broker, "out", 0) == (0, 2)
    with pytest.raises(KafkaException):
        old.commit_transaction(TIMEOUT_S)
    new.begin_transaction()
    new.produce("out", value=b"from the new producer", partition=0)
    new.commit_transaction(TIMEOUT_S)
    assert watermarks(broker, "out", 0) == (0, 4)


def test_a_producer_fenced_between_transactions_cannot_run_another(start_kgroupsd):
    broker = start_kgroupsd("--topic", "out:1")
    old = transactional_producer(broker, "txn-fence-idle")
    for value in (b"a0", b"a1"):
        old.begin_transaction()
        old.produce("out", value=value, partition=0)
        old.commit_transaction(TIMEOUT_S)
    new = transactional_producer(broker, "txn-fence-idle")  # the old one is idle: no abort
    assert watermarks(broker, "out", 0) == (0, 4)
    old.begin_transaction()
    old.produce("out", value=b"zombie", partition=0)
    with pytest.raises(KafkaException) as refused:
        old.commit_transaction(TIMEOUT_S)
    assert refused.value.args[0].fatal(), refused.value.args[0]  # fenced: the producer is done
    new.begin_transaction()
    new.produce("out", value=b"b0", partition=0)
    new.commit_transaction(TIMEOUT_S)
    assert read_uncommitted(broker, "out", 0, 3) == [b"a0", b"a1", b"b0"]


def offset_fetch_v7(broker, group, topic, partition, require_stable):
    """OffsetFetch v7 on the wire: (error, committed offset) of one partition."""
    connection = RawConnection(broker.bootstrap)
    body = (cstr(group) + carray([cstr(topic) + carray([i32(partition)]) + TAGS]) +
            (b"\x01" if require_stable else b"\x00") + TAGS)
    r = flexible_request(connection, 9, 7, body)
    r.i32()

    def partition_answer():
        index, offset, _, _, error = r.i32(), r.i64(), r.i32(), r.cstr(), r.i16()
        r.tags()
        return index, offset, error

    def topic_answer():
        name = r.cstr()
        partitions = r.carray(partition_answer)
        r.tags()
        return name, partitions

    [(_, [(_, offset, error)])] = r.carray(topic_answer)
    assert r.i16() == 0
    r.finish()
    connection.close()
    return error, offset


def test_offset_fetch_require_stable_sees_the_pending_commit(start_kgroupsd):
    broker = start_kgroupsd("--topic", "out:1", "--topic", "in:1")
    producer = transactional_producer(broker, "txn-stable")
    consumer, metadata = group_metadata(broker, "stable-group")
    producer.begin_transaction()
    producer.produce("out", value=b"v", partition=0)
    producer.send_offsets_to_transaction([TopicPartition("in", 0, 9)], metadata, TIMEOUT_S)
    assert offset_fetch_v7(broker, "stable-group", "in", 0, True) == (UNSTABLE_OFFSET_COMMIT, -1)
    assert offset_fetch_v7(broker, "stable-group", "in", 0, False) == (0, -1)
    producer.commit_transaction(TIMEOUT_S)
    consumer.close()
    assert offset_fetch_v7(broker, "stable-group", "in", 0, True) == (0, 9)
