# SPDX-License-Identifier: Apache-2.0
"""Topic configs against kgroupsd: confluent-kafka's AdminClient (librdkafka 2.0.2) creates
topics with configs, describes and alters them (CreateTopics, DescribeConfigs,
AlterConfigs); kafka-python's KafkaAdminClient describes them and creates topics with
configs. Then the effects: a batch above max.message.bytes is refused with
MESSAGE_TOO_LARGE, a LogAppendTime topic gives consumers the broker's clock, timestamps
outside message.timestamp.before/after.max.ms are INVALID_TIMESTAMP, and an unknown config
name is INVALID_CONFIG with nothing created."""
import time

import pytest
from confluent_kafka import (OFFSET_BEGINNING, TIMESTAMP_LOG_APPEND_TIME, Consumer,
                             KafkaError, KafkaException, Producer, TopicPartition)
from confluent_kafka.admin import AdminClient, ConfigResource, ConfigSource, NewTopic
from kafka import KafkaAdminClient
from kafka.admin import ConfigResource as KpConfigResource
from kafka.admin import ConfigResourceType, NewTopic as KpNewTopic

from flexible_wire import Reader, Writer, exchange
from raw_client import RawConnection

TIMEOUT_S = 30
TOPIC_CONFIG_SOURCE = 1  # Kafka's DYNAMIC_TOPIC_CONFIG
DEFAULT_CONFIG_SOURCE = 5


def admin(kgroupsd):
    return AdminClient({"bootstrap.servers": kgroupsd.bootstrap})


def create(client, topic, configs, partitions=1):
    futures = client.create_topics(
        [NewTopic(topic, num_partitions=partitions, replication_factor=1, config=configs)],
        request_timeout=TIMEOUT_S)
    futures[topic].result(TIMEOUT_S)


def describe(client, topic):
    resource = ConfigResource("topic", topic)
    return client.describe_configs([resource], request_timeout=TIMEOUT_S)[resource].result(
        TIMEOUT_S)


def test_confluent_creates_describes_and_alters_topic_configs(kgroupsd):
    client = admin(kgroupsd)
    create(client, "cfg-topic", {"retention.ms": "3600000", "cleanup.policy": "compact,delete",
                                 "preallocate": "true"})
    configs = describe(client, "cfg-topic")
    assert configs["retention.ms"].value == "3600000"
    assert configs["retention.ms"].source == ConfigSource.DYNAMIC_TOPIC_CONFIG.value
    assert not configs["retention.ms"].is_default
    assert configs["cleanup.policy"].value == "compact,delete"
    assert configs["preallocate"].value == "true"  # stored and described though not acted on
    assert configs["segment.ms"].value == "604800000"
    assert configs["segment.ms"].source == ConfigSource.DEFAULT_CONFIG.value
    assert configs["segment.ms"].is_default
    assert not configs["segment.ms"].is_read_only
    assert "max.message.bytes" in configs and "unclean.leader.election.enable" in configs

    # AlterConfigs replaces the whole set: what is not named goes back to its default.
    resource = ConfigResource("topic", "cfg-topic", set_config={"segment.ms": "60000"})
    client.alter_configs([resource], request_timeout=TIMEOUT_S)[resource].result(TIMEOUT_S)
    configs = describe(client, "cfg-topic")
    assert configs["segment.ms"].value == "60000"
    assert configs["segment.ms"].source == ConfigSource.DYNAMIC_TOPIC_CONFIG.value
    assert configs["retention.ms"].value == "604800000"
    assert configs["retention.ms"].source == ConfigSource.DEFAULT_CONFIG.value
    assert configs["cleanup.policy"].value == "delete"

    # validate_only changes nothing; a bad value is INVALID_CONFIG and changes nothing.
    resource = ConfigResource("topic", "cfg-topic", set_config={"segment.ms": "120000"})
    client.alter_configs([resource], validate_only=True)[resource].result(TIMEOUT_S)
    bad = ConfigResource("topic", "cfg-topic", set_config={"segment.ms": "0"})
    with pytest.raises(KafkaException) as refused:
        client.alter_configs([bad])[bad].result(TIMEOUT_S)
    assert refused.value.args[0].code() == KafkaError.INVALID_CONFIG
    assert describe(client, "cfg-topic")["segment.ms"].value == "60000"


def test_confluent_describes_the_broker_and_refuses_unknown_topics(start_kgroupsd):
    broker = start_kgroupsd("--log-retention-ms", "7200000")
    client = admin(broker)
    resource = ConfigResource("broker", "0")
    configs = client.describe_configs([resource])[resource].result(TIMEOUT_S)
    assert configs["log.retention.ms"].value == "7200000"
    assert configs["log.retention.ms"].source == ConfigSource.STATIC_BROKER_CONFIG.value
    assert not configs["log.retention.ms"].is_read_only  # a dynamic broker config
    assert configs["num.partitions"].is_read_only
    assert configs["broker.id"].value == "0"
    # A new topic's retention.ms comes from the broker's flag.
    create(client, "cfg-broker-default", {})
    topic = describe(client, "cfg-broker-default")["retention.ms"]
    assert topic.value == "7200000"
    assert topic.source == ConfigSource.STATIC_BROKER_CONFIG.value

    missing = ConfigResource("topic", "cfg-missing")
    with pytest.raises(KafkaException) as refused:
        client.describe_configs([missing])[missing].result(TIMEOUT_S)
    assert refused.value.args[0].code() == KafkaError.UNKNOWN_TOPIC_OR_PART

    change = ConfigResource("broker", "0", set_config={"num.partitions": "3"})
    with pytest.raises(KafkaException) as refused:
        client.alter_configs([change])[change].result(TIMEOUT_S)
    assert refused.value.args[0].code() == KafkaError.INVALID_REQUEST
    assert "Cannot update these configs dynamically: [num.partitions]" in str(refused.value)


def test_confluent_changes_dynamic_broker_configs_cluster_wide_and_per_broker(start_kgroupsd):
    broker = start_kgroupsd("--log-retention-ms", "7200000")
    client = admin(broker)
    create(client, "cfg-dynamic", {})

    def alter(name, configs, validate_only=False):
        resource = ConfigResource("broker", name, set_config=configs)
        return client.alter_configs([resource], validate_only=validate_only)[resource]

    def broker_configs(name):
        resource = ConfigResource("broker", name)
        return client.describe_configs([resource])[resource].result(TIMEOUT_S)

    # librdkafka 2.0.2 refuses a resource named "": kafka-python sets the cluster-wide default.
    kp_admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    response = kp_admin.alter_configs([KpConfigResource(ConfigResourceType.BROKER, "", configs={
        "log.retention.ms": "3600000", "message.max.bytes": "2000"})])
    assert [tuple(r[:2]) for r in response.resources] == [(0, None)]
    kp_admin.close()
    topic = describe(client, "cfg-dynamic")
    assert (topic["retention.ms"].value, topic["retention.ms"].source) == (
        "3600000", ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG.value)
    assert topic["max.message.bytes"].value == "2000"
    assert broker_configs("0")["message.max.bytes"].source == (
        ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG.value)

    # This broker's own value wins over the cluster-wide one.
    alter("0", {"log.retention.ms": "1800000"}).result(TIMEOUT_S)
    own = broker_configs("0")["log.retention.ms"]
    assert (own.value, own.source) == ("1800000", ConfigSource.DYNAMIC_BROKER_CONFIG.value)
    assert describe(client, "cfg-dynamic")["retention.ms"].value == "1800000"

    # validate_only and an invalid value change nothing (librdkafka sends a broker resource
    # to the broker it names, so another broker's id never reaches this one).
    alter("0", {"log.retention.ms": "60000"}, validate_only=True).result(TIMEOUT_S)
    with pytest.raises(KafkaException) as refused:
        alter("0", {"log.retention.ms": "soon"}).result(TIMEOUT_S)
    assert refused.value.args[0].code() == KafkaError.INVALID_CONFIG
    assert "log.retention.ms" in str(refused.value)
    assert describe(client, "cfg-dynamic")["retention.ms"].value == "1800000"
    # A topic created now starts from the same defaults.
    create(client, "cfg-dynamic-later", {})
    assert describe(client, "cfg-dynamic-later")["retention.ms"].value == "1800000"


def test_unknown_config_name_is_invalid_config_and_creates_nothing(kgroupsd):
    client = admin(kgroupsd)
    futures = client.create_topics(
        [NewTopic("cfg-unknown", num_partitions=1, replication_factor=1,
                  config={"retention.hours": "1"})])
    with pytest.raises(KafkaException) as refused:
        futures["cfg-unknown"].result(TIMEOUT_S)
    error = refused.value.args[0]
    assert error.code() == KafkaError.INVALID_CONFIG
    assert "retention.hours" in error.str()
    assert "cfg-unknown" not in client.list_topics(timeout=TIMEOUT_S).topics


def test_kafka_python_creates_topics_with_configs_and_describes_them(kgroupsd):
    client = KafkaAdminClient(bootstrap_servers=kgroupsd.bootstrap)
    try:
        client.create_topics([KpNewTopic("kp-cfg", 2, 1,
                                          topic_configs={"max.message.bytes": "50000"})])
        responses = client.describe_configs(
            config_resources=[KpConfigResource(ConfigResourceType.TOPIC, "kp-cfg")])
        (error_code, _message, _type, name, entries), = responses[0].resources
        assert error_code == 0 and name == "kp-cfg"
        by_name = {entry[0]: entry for entry in entries}
        assert by_name["max.message.bytes"][1] == "50000"
        assert by_name["retention.ms"][1] == "604800000"
        assert len(by_name) >= 30
    finally:
        client.close()


def test_a_batch_above_max_message_bytes_is_refused(kgroupsd):
    create(admin(kgroupsd), "cfg-small", {"max.message.bytes": "2000"})
    producer = Producer({"bootstrap.servers": kgroupsd.bootstrap, "linger.ms": 0,
                         "message.send.max.retries": 0})
    outcomes = []
    producer.produce("cfg-small", value=b"x" * 5000,
                     on_delivery=lambda error, message: outcomes.append(error))
    assert producer.flush(TIMEOUT_S) == 0  # so that the next record is a batch of its own
    producer.produce("cfg-small", value=b"y" * 100,
                     on_delivery=lambda error, message: outcomes.append(error))
    assert producer.flush(TIMEOUT_S) == 0
    assert outcomes[0] is not None and outcomes[0].code() == KafkaError.MSG_SIZE_TOO_LARGE
    assert outcomes[1] is None


def test_log_append_time_gives_consumers_the_brokers_clock(kgroupsd):
    create(admin(kgroupsd), "cfg-append-time", {"message.timestamp.type": "LogAppendTime"})
    producer = Producer({"bootstrap.servers": kgroupsd.bootstrap})
    before_ms = int(time.time() * 1000)
    producer.produce("cfg-append-time", value=b"old", timestamp=1000)
    assert producer.flush(TIMEOUT_S) == 0
    after_ms = int(time.time() * 1000)

    consumer = Consumer({"bootstrap.servers": kgroupsd.bootstrap, "group.id": "unused",
                         "enable.auto.commit": False, "check.crcs": True})
    consumer.assign([TopicPartition("cfg-append-time", 0, OFFSET_BEGINNING)])
    try:
        message = None
        deadline = time.monotonic() + TIMEOUT_S
        while message is None and time.monotonic() < deadline:
            message = consumer.poll(0.5)
        assert message is not None and message.error() is None
        timestamp_type, timestamp = message.timestamp()
        assert timestamp_type == TIMESTAMP_LOG_APPEND_TIME
        assert before_ms - 1000 <= timestamp <= after_ms + 1000
        # ListOffsets by timestamp finds the record by the broker's time.
        found = consumer.offsets_for_times(
            [TopicPartition("cfg-append-time", 0, before_ms - 1000)], timeout=TIMEOUT_S)
        assert found[0].offset == 0
    finally:
        consumer.close()


def test_timestamps_outside_the_topics_bounds_are_invalid_timestamp(kgroupsd):
    create(admin(kgroupsd), "cfg-bounded", {"message.timestamp.before.max.ms": "3600000",
                                            "message.timestamp.after.max.ms": "3600000"})
    producer = Producer({"bootstrap.servers": kgroupsd.bootstrap, "message.send.max.retries": 0})
    outcomes = []
    now_ms = int(time.time() * 1000)
    for timestamp in (1000, now_ms + 7200000, now_ms):
        producer.produce("cfg-bounded", value=b"v", timestamp=timestamp,
                         on_delivery=lambda error, message: outcomes.append(error))
        assert producer.flush(TIMEOUT_S) == 0
    assert [error.code() if error else None for error in outcomes] == [
        KafkaError.INVALID_TIMESTAMP, KafkaError.INVALID_TIMESTAMP, None]


# --- IncrementalAlterConfigs v1 and DescribeConfigs v4 on the wire (no client here has them) --

def incremental_alter(connection, resources, validate_only=False):
    """resources: [(type, name, [(config, operation, value)])] -> [(error, message, name)]."""
    def write_config(w, config):
        w.string(config[0]).int8(config[1]).string(config[2]).tags()

    def write_resource(w, resource):
        w.int8(resource[0]).string(resource[1]).array(resource[2], write_config).tags()

    body = Writer(True).array(resources, write_resource).boolean(validate_only).tags()
    reader = Reader(exchange(connection, 44, 1, body.bytes(), flexible=True), True)
    reader.int32()

    def read_response(r):
        row = (r.int16(), r.string(), r.int8(), r.string())
        r.tags()
        return (row[0], row[1], row[3])

    responses = reader.array(read_response)
    reader.finish()
    return responses


def describe_v4(connection, topic, keys):
    def write_resource(w, _):
        w.int8(2).string(topic).array(keys, Writer.string).tags()

    body = Writer(True).array([topic], write_resource).boolean(True).boolean(True).tags()
    reader = Reader(exchange(connection, 32, 4, body.bytes(), flexible=True), True)
    reader.int32()

    def read_synonym(r):
        synonym = (r.string(), r.string(), r.int8())
        r.tags()
        return synonym

    def read_config(r):
        config = {"name": r.string(), "value": r.string(), "read_only": r.boolean(),
                  "source": r.int8(), "sensitive": r.boolean(),
                  "synonyms": r.array(read_synonym), "type": r.int8(),
                  "documentation": r.string()}
        r.tags()
        return config

    def read_result(r):
        result = {"error": r.int16(), "message": r.string(), "type": r.int8(),
                  "name": r.string(), "configs": r.array(read_config)}
        r.tags()
        return result

    [result] = reader.array(read_result)
    reader.finish()
    return result


def test_incremental_alter_configs_sets_deletes_appends_and_subtracts(kgroupsd):
    create(admin(kgroupsd), "cfg-incremental", {"retention.ms": "1000"})
    connection = RawConnection(kgroupsd.bootstrap)
    SET, DELETE, APPEND, SUBTRACT = 0, 1, 2, 3
    assert incremental_alter(connection, [(2, "cfg-incremental", [
        ("cleanup.policy", APPEND, "compact"), ("retention.ms", DELETE, None),
        ("segment.ms", SET, "90000")])]) == [(0, None, "cfg-incremental")]
    described = describe_v4(connection, "cfg-incremental",
                            ["cleanup.policy", "retention.ms", "segment.ms"])
    assert described["error"] == 0
    by_name = {c["name"]: c for c in described["configs"]}
    assert set(by_name) == {"cleanup.policy", "retention.ms", "segment.ms"}
    assert (by_name["cleanup.policy"]["value"], by_name["cleanup.policy"]["source"]) == (
        "delete,compact", 1)
    assert by_name["cleanup.policy"]["type"] == 7  # LIST
    assert by_name["cleanup.policy"]["documentation"]
    assert (by_name["retention.ms"]["value"], by_name["retention.ms"]["source"]) == (
        "604800000", 5)
    assert by_name["retention.ms"]["synonyms"] == [("log.retention.ms", "604800000", 5)]
    assert by_name["segment.ms"]["synonyms"][0] == ("segment.ms", "90000", 1)

    # All or nothing; APPEND on a config that is not a list is INVALID_CONFIG.
    [(error, message, _)] = incremental_alter(connection, [(2, "cfg-incremental", [
        ("segment.ms", SET, "1"), ("retention.ms", APPEND, "5")])])
    assert error == 40 and "list" in message
    [(error, _, _)] = incremental_alter(connection, [(2, "cfg-incremental", [
        ("cleanup.policy", SUBTRACT, "delete")])], validate_only=True)
    assert error == 0
    assert describe_v4(connection, "cfg-incremental", ["segment.ms", "cleanup.policy"])[
        "configs"] == [c for c in described["configs"] if c["name"] != "retention.ms"]
    [missing, fixed] = incremental_alter(connection, [
        (2, "cfg-nope", [("segment.ms", SET, "1")]),
        (4, "0", [("log.retention.ms", SET, "1"), ("num.io.threads", SET, "4")])])
    assert missing == (3, "Topic 'cfg-nope' does not exist.", "cfg-nope")
    assert fixed[0] == 42 and fixed[2] == "0"
    assert fixed[1].startswith("Cannot update these configs dynamically: [num.io.threads].")
    # A dynamic broker config changes incrementally too: append to the cluster-wide
    # log.cleanup.policy, and the topic that does not set cleanup.policy compacts as well.
    assert incremental_alter(connection, [(4, "", [("log.cleanup.policy", APPEND, "compact")])]) \
        == [(0, None, "")]
    assert incremental_alter(connection, [(2, "cfg-incremental", [
        ("cleanup.policy", 1, None)])]) == [(0, None, "cfg-incremental")]
    inherited = describe_v4(connection, "cfg-incremental", ["cleanup.policy"])["configs"][0]
    assert (inherited["value"], inherited["source"]) == ("delete,compact", 3)
    connection.close()
