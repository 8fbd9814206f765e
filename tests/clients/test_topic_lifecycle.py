# SPDX-License-Identifier: Apache-2.0
"""Topic and group lifecycle against kgroupsd with real clients: DeleteTopics and
CreatePartitions through confluent-kafka's and kafka-python's admin clients, DeleteGroups
through kafka-python's (confluent-kafka 1.7.0 has none), DeleteRecords and OffsetDelete on
the raw wire (neither client has them); a group loses its offsets of a deleted topic, and a
subscribed consumer gets a grown topic's new partitions after the rebalance."""
import struct
import time

import pytest
from confluent_kafka import Consumer, KafkaException, Producer
from confluent_kafka.admin import AdminClient, NewPartitions, NewTopic
from kafka import KafkaAdminClient, KafkaConsumer, TopicPartition
from kafka.admin import NewPartitions as KpNewPartitions
from kafka.admin import NewTopic as KpNewTopic
from kafka.structs import OffsetAndMetadata

from raw_client import RawConnection

TIMEOUT_S = 30


def wait_all(futures):
    for future in futures.values():
        future.result(timeout=TIMEOUT_S)


def produce(bootstrap, topic, count, partition=0):
    """Produces `count` records to one partition; returns their offsets."""
    producer = Producer({"bootstrap.servers": bootstrap})
    offsets = []

    def delivered(error, message):
        assert error is None, error
        offsets.append(message.offset())

    for i in range(count):
        producer.produce(topic, value=f"v{i}".encode(), partition=partition, on_delivery=delivered)
    assert producer.flush(TIMEOUT_S) == 0
    return offsets


def partition_count(admin, topic):
    metadata = admin.list_topics(timeout=TIMEOUT_S)
    return len(metadata.topics[topic].partitions) if topic in metadata.topics else None


def raw_delete_records(bootstrap, topic, offsets):
    """DeleteRecords v0 for partition -> offset; returns {partition: (low_watermark, error)}."""
    name = topic.encode()
    body = struct.pack(">ih", 1, len(name)) + name + struct.pack(">i", len(offsets))
    for partition, offset in offsets.items():
        body += struct.pack(">iq", partition, offset)
    body += struct.pack(">i", 5000)
    connection = RawConnection(bootstrap)
    try:
        connection.send(None, api_key=21, api_version=0, body=body)
        _, response = connection.receive()
    finally:
        connection.close()
    (_throttle, topics) = struct.unpack_from(">ii", response, 0)
    assert topics == 1
    at = 8
    (name_length,) = struct.unpack_from(">h", response, at)
    at += 2 + name_length
    (count,) = struct.unpack_from(">i", response, at)
    at += 4
    answers = {}
    for _ in range(count):
        partition, low_watermark, error = struct.unpack_from(">iqh", response, at)
        at += 14
        answers[partition] = (low_watermark, error)
    return answers


def raw_offset_delete(bootstrap, group, topic, partitions):
    """OffsetDelete v0; returns (group error, {partition: error})."""
    group_bytes, name = group.encode(), topic.encode()
    body = struct.pack(">h", len(group_bytes)) + group_bytes
    body += struct.pack(">ih", 1, len(name)) + name + struct.pack(">i", len(partitions))
    for partition in partitions:
        body += struct.pack(">i", partition)
    connection = RawConnection(bootstrap)
    try:
        connection.send(None, api_key=47, api_version=0, body=body)
        _, response = connection.receive()
    finally:
        connection.close()
    error, _throttle, topics = struct.unpack_from(">hii", response, 0)
    answers = {}
    at = 10
    for _ in range(topics):
        (name_length,) = struct.unpack_from(">h", response, at)
        at += 2 + name_length
        (count,) = struct.unpack_from(">i", response, at)
        at += 4
        for _ in range(count):
            partition, partition_error = struct.unpack_from(">ih", response, at)
            at += 6
            answers[partition] = partition_error
    return error, answers


def commit_offsets(bootstrap, group, topic, offsets):
    """Commits {partition: offset} for `group` from outside the group (kafka-python)."""
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=group,
                             enable_auto_commit=False)
    try:
        consumer.commit({TopicPartition(topic, p): OffsetAndMetadata(o, "")
                         for p, o in offsets.items()})
    finally:
        consumer.close()


def committed_offsets(kp_admin, group):
    return {(tp.topic, tp.partition): meta.offset
            for tp, meta in kp_admin.list_consumer_group_offsets(group).items()}


def test_confluent_deletes_a_topic_and_one_created_again_starts_at_zero(kgroupsd):
    admin = AdminClient({"bootstrap.servers": kgroupsd.bootstrap})
    wait_all(admin.create_topics([NewTopic("doomed", 2, 1)]))
    assert produce(kgroupsd.bootstrap, "doomed", 5) == [0, 1, 2, 3, 4]
    wait_all(admin.delete_topics(["doomed"]))
    assert partition_count(admin, "doomed") is None
    with pytest.raises(KafkaException) as unknown:
        wait_all(admin.delete_topics(["doomed"]))
    assert "UNKNOWN_TOPIC_OR_PART" in str(unknown.value)
    wait_all(admin.create_topics([NewTopic("doomed", 1, 1)]))
    assert produce(kgroupsd.bootstrap, "doomed", 2) == [0, 1]


def test_confluent_grows_a_topic_and_refuses_to_shrink_it(kgroupsd):
    admin = AdminClient({"bootstrap.servers": kgroupsd.bootstrap})
    wait_all(admin.create_topics([NewTopic("growing", 2, 1)]))
    produce(kgroupsd.bootstrap, "growing", 3, partition=1)
    wait_all(admin.create_partitions([NewPartitions("growing", 5)], validate_only=True))
    assert partition_count(admin, "growing") == 2
    wait_all(admin.create_partitions([NewPartitions("growing", 5)]))
    assert partition_count(admin, "growing") == 5
    assert produce(kgroupsd.bootstrap, "growing", 1, partition=4) == [0]
    assert produce(kgroupsd.bootstrap, "growing", 1, partition=1) == [3]  # kept its records
    with pytest.raises(KafkaException) as smaller:
        wait_all(admin.create_partitions([NewPartitions("growing", 3)]))
    assert "INVALID_PARTITIONS" in str(smaller.value) or "currently has 5" in str(smaller.value)


def test_kafka_python_admin_deletes_topics_grows_them_and_deletes_groups(kgroupsd):
    admin = KafkaAdminClient(bootstrap_servers=kgroupsd.bootstrap)
    try:
        admin.create_topics([KpNewTopic("kp-topic", 1, 1), KpNewTopic("kp-gone", 1, 1)])
        admin.create_partitions({"kp-topic": KpNewPartitions(3)})
        assert len(admin.describe_topics(["kp-topic"])[0]["partitions"]) == 3
        admin.delete_topics(["kp-gone"])
        assert "kp-gone" not in admin.list_topics()

        commit_offsets(kgroupsd.bootstrap, "idle-group", "kp-topic", {0: 7, 2: 9})
        assert committed_offsets(admin, "idle-group") == {("kp-topic", 0): 7, ("kp-topic", 2): 9}
        results = dict(admin.delete_consumer_groups(["idle-group", "no-such-group"]))
        assert results["idle-group"].errno == 0
        assert results["no-such-group"].errno == 69  # GROUP_ID_NOT_FOUND
        assert committed_offsets(admin, "idle-group") == {}
    finally:
        admin.close()


def test_a_group_loses_its_offsets_of_a_deleted_topic(kgroupsd):
    admin = KafkaAdminClient(bootstrap_servers=kgroupsd.bootstrap)
    try:
        admin.create_topics([KpNewTopic("short-lived", 2, 1), KpNewTopic("long-lived", 1, 1)])
        commit_offsets(kgroupsd.bootstrap, "g", "short-lived", {0: 3, 1: 4})
        commit_offsets(kgroupsd.bootstrap, "g", "long-lived", {0: 5})
        admin.delete_topics(["short-lived"])
        assert committed_offsets(admin, "g") == {("long-lived", 0): 5}
        admin.create_topics([KpNewTopic("short-lived", 2, 1)])
        assert committed_offsets(admin, "g") == {("long-lived", 0): 5}
    finally:
        admin.close()


def test_offset_delete_keeps_subscribed_topics_of_a_live_group(kgroupsd):
    admin = AdminClient({"bootstrap.servers": kgroupsd.bootstrap})
    wait_all(admin.create_topics([NewTopic("subscribed", 1, 1), NewTopic("other", 1, 1)]))
    commit_offsets(kgroupsd.bootstrap, "live", "other", {0: 2})
    consumer = Consumer({"bootstrap.servers": kgroupsd.bootstrap, "group.id": "live",
                         "auto.offset.reset": "earliest"})
    try:
        consumer.subscribe(["subscribed"])
        deadline = time.monotonic() + TIMEOUT_S
        while not consumer.assignment() and time.monotonic() < deadline:
            consumer.poll(0.2)
        assert consumer.assignment()
        error, answers = raw_offset_delete(kgroupsd.bootstrap, "live", "subscribed", [0])
        assert (error, answers) == (0, {0: 86})  # GROUP_SUBSCRIBED_TO_TOPIC
        assert raw_offset_delete(kgroupsd.bootstrap, "live", "other", [0]) == (0, {0: 0})
    finally:
        consumer.close()
    assert raw_offset_delete(kgroupsd.bootstrap, "nobody", "other", [0]) == (69, {})


def test_a_subscribed_consumer_gets_the_new_partitions_of_a_grown_topic(kgroupsd):
    admin = AdminClient({"bootstrap.servers": kgroupsd.bootstrap})
    wait_all(admin.create_topics([NewTopic("grown", 2, 1)]))
    consumer = Consumer({"bootstrap.servers": kgroupsd.bootstrap, "group.id": "growers",
                         "auto.offset.reset": "earliest",
                         "topic.metadata.refresh.interval.ms": 500})
    try:
        consumer.subscribe(["grown"])
        deadline = time.monotonic() + TIMEOUT_S
        while len(consumer.assignment()) != 2 and time.monotonic() < deadline:
            consumer.poll(0.2)
        assert len(consumer.assignment()) == 2
        wait_all(admin.create_partitions([NewPartitions("grown", 4)]))
        produce(kgroupsd.bootstrap, "grown", 1, partition=3)
        deadline = time.monotonic() + TIMEOUT_S
        seen = None
        while time.monotonic() < deadline and seen is None:
            message = consumer.poll(0.2)
            if message is not None and message.error() is None:
                seen = message
        assert sorted(tp.partition for tp in consumer.assignment()) == [0, 1, 2, 3]
        assert seen is not None and seen.partition() == 3
    finally:
        consumer.close()


def test_delete_records_moves_the_earliest_offset(kgroupsd):
    admin = AdminClient({"bootstrap.servers": kgroupsd.bootstrap})
    wait_all(admin.create_topics([NewTopic("trimmed", 2, 1)]))
    produce(kgroupsd.bootstrap, "trimmed", 10, partition=0)
    assert raw_delete_records(kgroupsd.bootstrap, "trimmed", {0: 4, 1: 1}) == {
        0: (4, 0), 1: (-1, 1)}  # partition 1 is empty: offset 1 is out of range
    consumer = Consumer({"bootstrap.servers": kgroupsd.bootstrap, "group.id": "reader",
                         "auto.offset.reset": "earliest", "enable.auto.commit": False})
    try:
        from confluent_kafka import TopicPartition as CkTopicPartition
        assert consumer.get_watermark_offsets(CkTopicPartition("trimmed", 0),
                                              timeout=TIMEOUT_S) == (4, 10)
        consumer.assign([CkTopicPartition("trimmed", 0, 0)])  # below the start: reset
        deadline = time.monotonic() + TIMEOUT_S
        first = None
        while first is None and time.monotonic() < deadline:
            message = consumer.poll(0.2)
            if message is not None and message.error() is None:
                first = message.offset()
        assert first == 4
        assert raw_delete_records(kgroupsd.bootstrap, "trimmed", {0: -1}) == {0: (10, 0)}
        assert consumer.get_watermark_offsets(CkTopicPartition("trimmed", 0),
                                              timeout=TIMEOUT_S) == (10, 10)
        assert raw_delete_records(kgroupsd.bootstrap, "trimmed", {0: 11}) == {0: (-1, 1)}
        assert raw_delete_records(kgroupsd.bootstrap, "nothing", {0: 0}) == {0: (-1, 3)}
    finally:
        consumer.close()
