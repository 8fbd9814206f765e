# SPDX-License-Identifier: Apache-2.0
"""confluent-kafka 1.7.0's AdminClient (librdkafka 2.0.2) against kgroupsd, each
call checked by its effect: create_topics with configs (validate_only, duplicates, unknown
configs), delete_topics (the topic and its data gone), create_partitions, describe_configs
and alter_configs, and list_groups (a group with a member and one with only offsets)."""
import time

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import (AdminClient, ConfigResource, ConfigSource, NewPartitions,
                                   NewTopic)

TIMEOUT_S = 30


@pytest.fixture
def admin(kgroupsd):
    return AdminClient({"bootstrap.servers": kgroupsd.bootstrap})


def wait(futures):
    """The results of a dict of admin futures, each bounded by the timeout."""
    return {key: future.result(timeout=TIMEOUT_S) for key, future in futures.items()}


def error_code(futures, key):
    """The KafkaError code the future for `key` failed with."""
    with pytest.raises(KafkaException) as failure:
        futures[key].result(timeout=TIMEOUT_S)
    return failure.value.args[0].code()


def topics(admin):
    return admin.list_topics(timeout=TIMEOUT_S).topics


def topic_configs(admin, topic):
    """name -> ConfigEntry of every config of the topic."""
    resource = ConfigResource(ConfigResource.Type.TOPIC, topic)
    return wait(admin.describe_configs([resource]))[resource]


def produce(bootstrap, topic, partitions, per_partition):
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5})
    failures = []
    for partition in range(partitions):
        for i in range(per_partition):
            producer.produce(topic, key=f"k{i}", value=f"p{partition}-{i}", partition=partition,
                             on_delivery=lambda error, _: error and failures.append(error))
    assert producer.flush(TIMEOUT_S) == 0, "messages left undelivered"
    assert not failures, failures


def watermarks(bootstrap, topic, partitions):
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "ck-admin-watermarks"})
    try:
        return [consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=TIMEOUT_S)
                for p in range(partitions)]
    finally:
        consumer.close()


def test_create_topics_with_configs(kgroupsd, admin):
    topic = "ck-admin-create"
    new = NewTopic(topic, num_partitions=3, replication_factor=1,
                   config={"retention.ms": "3600000", "cleanup.policy": "compact"})
    assert wait(admin.create_topics([new], operation_timeout=10)) == {topic: None}
    assert len(topics(admin)[topic].partitions) == 3

    configs = topic_configs(admin, topic)
    retention = configs["retention.ms"]
    assert (retention.value, ConfigSource(retention.source), retention.is_default,
            retention.is_read_only) == ("3600000", ConfigSource.DYNAMIC_TOPIC_CONFIG, False, False)
    assert configs["cleanup.policy"].value == "compact"
    unset = configs["max.message.bytes"]
    assert (unset.value, ConfigSource(unset.source), unset.is_default) == (
        "1048588", ConfigSource.DEFAULT_CONFIG, True)
    for name in ("retention.bytes", "message.timestamp.type", "segment.bytes",
                 "min.compaction.lag.ms", "delete.retention.ms"):
        assert name in configs, f"describe_configs lacks {name}"

    # The same name again: TOPIC_ALREADY_EXISTS, and the topic is unchanged.
    futures = admin.create_topics([NewTopic(topic, num_partitions=5, replication_factor=1)])
    assert error_code(futures, topic) == KafkaError.TOPIC_ALREADY_EXISTS
    assert len(topics(admin)[topic].partitions) == 3


def test_create_topics_validate_only_and_unknown_configs_create_nothing(admin):
    wait(admin.create_topics([NewTopic("ck-admin-validate", num_partitions=2,
                                       replication_factor=1, config={"retention.ms": "1000"})],
                             validate_only=True))
    futures = admin.create_topics([NewTopic("ck-admin-bad-config", num_partitions=1,
                                            replication_factor=1,
                                            config={"no.such.config": "1"})])
    assert error_code(futures, "ck-admin-bad-config") == KafkaError.INVALID_CONFIG
    futures = admin.create_topics([NewTopic("ck-admin-bad-value", num_partitions=1,
                                            replication_factor=1,
                                            config={"retention.ms": "soon"})])
    assert error_code(futures, "ck-admin-bad-value") == KafkaError.INVALID_CONFIG
    listed = topics(admin)
    for topic in ("ck-admin-validate", "ck-admin-bad-config", "ck-admin-bad-value"):
        assert topic not in listed


def test_delete_topics_removes_the_topic_and_its_data(kgroupsd, admin):
    topic = "ck-admin-delete"
    wait(admin.create_topics([NewTopic(topic, num_partitions=2, replication_factor=1)]))
    produce(kgroupsd.bootstrap, topic, 2, 5)
    assert watermarks(kgroupsd.bootstrap, topic, 2) == [(0, 5), (0, 5)]

    assert wait(admin.delete_topics([topic], operation_timeout=10)) == {topic: None}
    assert topic not in topics(admin)

    # The same name again is a new, empty topic.
    wait(admin.create_topics([NewTopic(topic, num_partitions=2, replication_factor=1)]))
    assert watermarks(kgroupsd.bootstrap, topic, 2) == [(0, 0), (0, 0)]

    futures = admin.delete_topics(["ck-admin-never-created"])
    assert error_code(futures, "ck-admin-never-created") == KafkaError.UNKNOWN_TOPIC_OR_PART


def test_create_partitions_raises_the_count(kgroupsd, admin):
    topic = "ck-admin-partitions"
    wait(admin.create_topics([NewTopic(topic, num_partitions=2, replication_factor=1)]))
    assert wait(admin.create_partitions([NewPartitions(topic, 5)])) == {topic: None}
    assert len(topics(admin)[topic].partitions) == 5
    produce(kgroupsd.bootstrap, topic, 5, 2)
    assert watermarks(kgroupsd.bootstrap, topic, 5) == [(0, 2)] * 5

    # Fewer than it has: INVALID_PARTITIONS; validate_only: nothing changes.
    futures = admin.create_partitions([NewPartitions(topic, 3)])
    assert error_code(futures, topic) == KafkaError.INVALID_PARTITIONS
    wait(admin.create_partitions([NewPartitions(topic, 8)], validate_only=True))
    assert len(topics(admin)[topic].partitions) == 5
    futures = admin.create_partitions([NewPartitions("ck-admin-never-created", 4)])
    assert error_code(futures, "ck-admin-never-created") == KafkaError.UNKNOWN_TOPIC_OR_PART


def test_alter_configs_then_describe_configs_shows_the_new_values(admin):
    topic = "ck-admin-alter"
    wait(admin.create_topics([NewTopic(topic, num_partitions=1, replication_factor=1,
                                       config={"cleanup.policy": "compact"})]))

    def alter(configs, validate_only=False):
        resource = ConfigResource(ConfigResource.Type.TOPIC, topic, set_config=configs)
        return resource, admin.alter_configs([resource], validate_only=validate_only)

    resource, futures = alter({"retention.ms": "7200000", "max.message.bytes": "2000000"})
    assert wait(futures) == {resource: None}
    configs = topic_configs(admin, topic)
    assert configs["retention.ms"].value == "7200000"
    assert ConfigSource(configs["retention.ms"].source) == ConfigSource.DYNAMIC_TOPIC_CONFIG
    assert configs["max.message.bytes"].value == "2000000"
    # AlterConfigs replaces the topic's whole set: cleanup.policy, left out, is the default
    # again (as with Kafka).
    assert (configs["cleanup.policy"].value, configs["cleanup.policy"].is_default) == (
        "delete", True)

    resource, futures = alter({"retention.ms": "60000"}, validate_only=True)
    wait(futures)
    assert topic_configs(admin, topic)["retention.ms"].value == "7200000"

    for bad in ({"retention.ms": "soon"}, {"no.such.config": "1"}):
        resource, futures = alter(bad)
        assert error_code(futures, resource) == KafkaError.INVALID_CONFIG
    assert topic_configs(admin, topic)["retention.ms"].value == "7200000"


def test_describe_configs_of_a_missing_topic_fails(admin):
    resource = ConfigResource(ConfigResource.Type.TOPIC, "ck-admin-never-created")
    futures = admin.describe_configs([resource])
    assert error_code(futures, resource) == KafkaError.UNKNOWN_TOPIC_OR_PART


def test_list_groups_shows_a_group_with_its_member_and_one_with_only_offsets(kgroupsd, admin):
    topic = "ck-admin-groups"
    wait(admin.create_topics([NewTopic(topic, num_partitions=2, replication_factor=1)]))
    produce(kgroupsd.bootstrap, topic, 2, 3)

    # A group that only committed offsets (no member).
    committer = Consumer({"bootstrap.servers": kgroupsd.bootstrap, "group.id": "ck-admin-idle"})
    try:
        committer.commit(offsets=[TopicPartition(topic, 0, 2)], asynchronous=False)
    finally:
        committer.close()

    member = Consumer({"bootstrap.servers": kgroupsd.bootstrap, "group.id": "ck-admin-busy",
                       "client.id": "ck-admin-member", "enable.auto.commit": False})
    try:
        member.subscribe([topic])
        deadline = time.monotonic() + TIMEOUT_S
        while len(member.assignment()) < 2:
            assert time.monotonic() < deadline, "the member got no assignment"
            member.poll(0.2)

        groups = {group.id: group for group in admin.list_groups(timeout=TIMEOUT_S)}
        assert {"ck-admin-idle", "ck-admin-busy"} <= set(groups)
        busy = groups["ck-admin-busy"]
        assert (busy.state, busy.protocol_type) == ("Stable", "consumer")
        assert busy.protocol in ("range", "roundrobin")
        assert [m.client_id for m in busy.members] == ["ck-admin-member"]
        assert busy.members[0].assignment, "the member's assignment is missing"
        idle = groups["ck-admin-idle"]
        assert (idle.state, idle.members) == ("Empty", [])

        # One group by name.
        [only] = admin.list_groups(group="ck-admin-busy", timeout=TIMEOUT_S)
        assert (only.id, only.state, len(only.members)) == ("ck-admin-busy", "Stable", 1)
        member.commit(offsets=[TopicPartition(topic, 0, 1)], asynchronous=False)
    finally:
        member.close()
    [left] = admin.list_groups(group="ck-admin-busy", timeout=TIMEOUT_S)
    assert (left.state, left.members) == ("Empty", [])
