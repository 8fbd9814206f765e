# SPDX-License-Identifier: Apache-2.0
"""kafka-python 2.0.2's KafkaAdminClient against kgroupsd, each call checked by its
effect: create_topics with configs (validate_only, duplicates, unknown configs) and
delete_topics, describe_configs and alter_configs, create_partitions, list_consumer_groups,
describe_consumer_groups, list_consumer_group_offsets and delete_consumer_groups."""
import time

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import ConfigResource, ConfigResourceType, NewPartitions, NewTopic
from kafka.errors import (GroupIdNotFoundError, InvalidConfigurationError,
                          InvalidPartitionsError, NoError, NonEmptyGroupError,
                          TopicAlreadyExistsError, UnknownTopicOrPartitionError)
from kafka.structs import OffsetAndMetadata

TIMEOUT_S = 30
DYNAMIC_TOPIC_CONFIG = 1  # DescribeConfigs v1+ config_source
DEFAULT_CONFIG = 5


@pytest.fixture
def admin(kgroupsd):
    client = KafkaAdminClient(bootstrap_servers=kgroupsd.bootstrap, request_timeout_ms=TIMEOUT_S * 1000)
    yield client
    client.close()


def topic_names(admin):
    return set(admin.list_topics())


def partition_count(admin, topic):
    [described] = admin.describe_topics([topic])
    assert described["error_code"] == 0, described
    return len(described["partitions"])


def topic_configs(admin, topic):
    """name -> (value, read_only, config_source) of every config of the topic."""
    [response] = admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, topic)])
    assert response.API_VERSION >= 1, "expected DescribeConfigs v1+ (with config_source)"
    [(error_code, error_message, _, name, entries)] = response.resources
    assert (error_code, name) == (0, topic), error_message
    return {entry[0]: (entry[1], entry[2], entry[3]) for entry in entries}


def produce(bootstrap, topic, partitions, per_partition):
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all")
    try:
        futures = [producer.send(topic, key=b"k%d" % i, value=b"p%d-%d" % (p, i), partition=p)
                   for p in range(partitions) for i in range(per_partition)]
        producer.flush(timeout=TIMEOUT_S)
        for future in futures:
            future.get(timeout=TIMEOUT_S)
    finally:
        producer.close(timeout=5)


def commit(bootstrap, group, offsets):
    """Commits {TopicPartition: offset} for `group` without joining it (generation -1)."""
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=group, enable_auto_commit=False)
    try:
        consumer.assign(list(offsets))
        consumer.commit({tp: OffsetAndMetadata(offset, f"meta-{offset}")
                         for tp, offset in offsets.items()})
    finally:
        consumer.close(autocommit=False)


def test_create_topics_with_configs_and_delete_them(kgroupsd, admin):
    topic = "kp-admin-create"
    admin.create_topics([NewTopic(topic, num_partitions=3, replication_factor=1,
                                  topic_configs={"retention.ms": "3600000",
                                                 "cleanup.policy": "compact"})])
    assert topic in topic_names(admin)
    assert partition_count(admin, topic) == 3
    configs = topic_configs(admin, topic)
    assert configs["retention.ms"] == ("3600000", False, DYNAMIC_TOPIC_CONFIG)
    assert configs["cleanup.policy"] == ("compact", False, DYNAMIC_TOPIC_CONFIG)
    assert configs["max.message.bytes"] == ("1048588", False, DEFAULT_CONFIG)

    with pytest.raises(TopicAlreadyExistsError):
        admin.create_topics([NewTopic(topic, num_partitions=5, replication_factor=1)])
    assert partition_count(admin, topic) == 3

    # validate_only and a refused config create nothing.
    admin.create_topics([NewTopic("kp-admin-validate", num_partitions=2, replication_factor=1)],
                        validate_only=True)
    with pytest.raises(InvalidConfigurationError):
        admin.create_topics([NewTopic("kp-admin-bad-config", num_partitions=1,
                                      replication_factor=1,
                                      topic_configs={"no.such.config": "1"})])
    names = topic_names(admin)
    assert "kp-admin-validate" not in names and "kp-admin-bad-config" not in names

    produce(kgroupsd.bootstrap, topic, 3, 2)
    admin.delete_topics([topic])
    assert topic not in topic_names(admin)
    with pytest.raises(UnknownTopicOrPartitionError):
        admin.delete_topics([topic])
    # The same name again is a new, empty topic.
    admin.create_topics([NewTopic(topic, num_partitions=3, replication_factor=1)])
    consumer = KafkaConsumer(bootstrap_servers=kgroupsd.bootstrap)
    try:
        ends = consumer.end_offsets([TopicPartition(topic, p) for p in range(3)])
    finally:
        consumer.close()
    assert set(ends.values()) == {0}


def test_alter_configs_then_describe_configs_shows_the_new_values(admin):
    topic = "kp-admin-alter"
    admin.create_topics([NewTopic(topic, num_partitions=1, replication_factor=1,
                                  topic_configs={"cleanup.policy": "compact"})])
    response = admin.alter_configs([ConfigResource(ConfigResourceType.TOPIC, topic,
                                                   configs={"retention.ms": "7200000"})])
    assert [(error_code, name) for error_code, _, _, name in response.resources] == [(0, topic)]
    configs = topic_configs(admin, topic)
    assert configs["retention.ms"] == ("7200000", False, DYNAMIC_TOPIC_CONFIG)
    # AlterConfigs replaces the whole set: cleanup.policy, left out, is the default again.
    assert configs["cleanup.policy"] == ("delete", False, DEFAULT_CONFIG)

    response = admin.alter_configs([ConfigResource(ConfigResourceType.TOPIC, topic,
                                                   configs={"no.such.config": "1"})])
    assert [error_code for error_code, _, _, _ in response.resources] == [
        InvalidConfigurationError.errno]
    assert topic_configs(admin, topic)["retention.ms"][0] == "7200000"


def test_create_partitions_raises_the_count(admin):
    topic = "kp-admin-partitions"
    admin.create_topics([NewTopic(topic, num_partitions=2, replication_factor=1)])
    admin.create_partitions({topic: NewPartitions(5)})
    assert partition_count(admin, topic) == 5
    with pytest.raises(InvalidPartitionsError):
        admin.create_partitions({topic: NewPartitions(3)})
    assert partition_count(admin, topic) == 5


def test_list_and_describe_consumer_groups_and_their_offsets(kgroupsd, admin):
    topic = "kp-admin-groups"
    admin.create_topics([NewTopic(topic, num_partitions=2, replication_factor=1)])
    produce(kgroupsd.bootstrap, topic, 2, 4)
    tp0, tp1 = TopicPartition(topic, 0), TopicPartition(topic, 1)
    commit(kgroupsd.bootstrap, "kp-admin-idle", {tp0: 3})

    member = KafkaConsumer(bootstrap_servers=kgroupsd.bootstrap, group_id="kp-admin-busy",
                           client_id="kp-admin-member", enable_auto_commit=False,
                           auto_offset_reset="earliest")
    try:
        member.subscribe([topic])
        deadline = time.monotonic() + TIMEOUT_S
        while len(member.assignment()) < 2:
            assert time.monotonic() < deadline, "the member got no assignment"
            member.poll(timeout_ms=200)
        member.commit({tp1: OffsetAndMetadata(2, "")})

        groups = dict(admin.list_consumer_groups())
        assert groups.get("kp-admin-busy") == "consumer"
        assert "kp-admin-idle" in groups

        busy, idle = admin.describe_consumer_groups(["kp-admin-busy", "kp-admin-idle"])
        assert (busy.group, busy.state, busy.protocol_type) == ("kp-admin-busy", "Stable",
                                                                 "consumer")
        [described] = busy.members
        assert described.client_id == "kp-admin-member"
        assert described.member_metadata.subscription == [topic]
        assert dict(described.member_assignment.assignment) == {topic: [0, 1]}
        assert (idle.group, idle.state, idle.members) == ("kp-admin-idle", "Empty", [])

        assert admin.list_consumer_group_offsets("kp-admin-busy") == {
            tp1: OffsetAndMetadata(2, "")}
        assert admin.list_consumer_group_offsets("kp-admin-idle") == {
            tp0: OffsetAndMetadata(3, "meta-3")}
        # Named partitions: -1 where nothing is committed.
        assert admin.list_consumer_group_offsets("kp-admin-idle", partitions=[tp0, tp1]) == {
            tp0: OffsetAndMetadata(3, "meta-3"), tp1: OffsetAndMetadata(-1, "")}

        # A group with a member cannot be deleted.
        assert admin.delete_consumer_groups(["kp-admin-busy"]) == [
            ("kp-admin-busy", NonEmptyGroupError)]
    finally:
        member.close(autocommit=False)

    assert admin.delete_consumer_groups(["kp-admin-idle"]) == [("kp-admin-idle", NoError)]
    assert "kp-admin-idle" not in dict(admin.list_consumer_groups())
    assert admin.list_consumer_group_offsets("kp-admin-idle") == {}
    assert admin.delete_consumer_groups(["kp-admin-idle"]) == [
        ("kp-admin-idle", GroupIdNotFoundError)]
