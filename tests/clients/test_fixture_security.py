# SPDX-License-Identifier: Apache-2.0
"""A secured kgroups.Broker as a confluent-kafka 1.7.0 (librdkafka 2.0.2) suite uses it: over
a SASL_SSL listener with the fixture's throwaway CA, a producer and a consumer configured by
broker.client_config(user=..., mechanism="SCRAM-SHA-256") write and read back records; the
same user over OAUTHBEARER (an unsecured JWS) too; a wrong password is refused with Kafka's
message and delivers nothing. kafka-python reads what was written through
broker.kafka_python_config().

Needs the kgroups package on PYTHONPATH (scripts/test-clients puts the build's there),
kgroupsd in $KGROUPSD and the kgroups CLI in $KGROUPS_CLI (for the certificates).
"""
import time

import pytest
from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition

import kgroups

TIMEOUT_S = 30
USERS = {"alice": "alice-secret", "bob": "bob-secret"}


@pytest.fixture(scope="module")
def broker():
    security = kgroups.Security(listeners=("PLAINTEXT", "SASL_SSL"), users=USERS,
                                super_users=["alice", "bob"])
    with kgroups.Broker(topics={"orders": 1}, security=security) as started:
        yield started


def produce(config, values, topic="orders", timeout_ms=10000):
    """Produces `values` and flushes; returns the delivery errors and the client errors."""
    delivery_errors, client_errors = [], []
    producer = Producer({**config, "message.timeout.ms": timeout_ms,
                         "error_cb": client_errors.append})
    for value in values:
        producer.produce(topic, value=value,
                         on_delivery=lambda error, _m: error and delivery_errors.append(error))
    producer.flush(TIMEOUT_S)
    return delivery_errors, client_errors


def read_all(config, topic="orders"):
    consumer = Consumer({**config, "group.id": "reader", "enable.auto.commit": False})
    try:
        _, end = consumer.get_watermark_offsets(TopicPartition(topic, 0), timeout=TIMEOUT_S)
        consumer.assign([TopicPartition(topic, 0, 0)])
        values = []
        while len(values) < end:
            message = consumer.poll(TIMEOUT_S)
            assert message is not None, f"read {len(values)} of {end} records"
            assert message.error() is None, message.error()
            values.append(message.value())
        return values
    finally:
        consumer.close()


def test_scram_over_sasl_ssl_produces_and_consumes(broker):
    config = broker.client_config(user="alice", mechanism="SCRAM-SHA-256")
    assert config["security.protocol"] == "SASL_SSL"
    assert config["bootstrap.servers"] == broker.listeners["SASL_SSL"]
    values = [f"scram-{n}".encode() for n in range(20)]
    assert produce(config, values) == ([], [])
    assert read_all(config)[-20:] == values


def test_oauthbearer_unsecured_jws_produces(broker):
    config = broker.client_config(user="bob", mechanism="OAUTHBEARER")
    assert produce(config, [b"oauth"]) == ([], [])
    assert read_all(broker.client_config(user="alice"))[-1] == b"oauth"


def test_a_wrong_password_is_refused_and_delivers_nothing(broker):
    before = broker.topic("orders")["partitions"][0]["end_offset"]
    config = broker.client_config(user="alice", mechanism="SCRAM-SHA-512", password="wrong")
    delivery_errors, client_errors = produce(config, [b"never"], timeout_ms=3000)
    assert delivery_errors and all(error.code() == KafkaError._MSG_TIMED_OUT
                                   for error in delivery_errors)
    assert any(error.code() == KafkaError._AUTHENTICATION for error in client_errors), client_errors
    assert broker.topic("orders")["partitions"][0]["end_offset"] == before


def test_kafka_python_reads_over_sasl_ssl(broker):
    from kafka import KafkaConsumer, TopicPartition as KafkaPartition

    produce(broker.client_config(user="alice"), [b"for-kafka-python"])
    consumer = KafkaConsumer(**broker.kafka_python_config(user="bob", mechanism="PLAIN"),
                             enable_auto_commit=False)
    try:
        partition = KafkaPartition("orders", 0)
        consumer.assign([partition])
        consumer.seek_to_beginning(partition)
        values = []
        deadline = time.monotonic() + TIMEOUT_S
        while b"for-kafka-python" not in values:
            assert time.monotonic() < deadline, f"not read within {TIMEOUT_S} s: {values}"
            for records in consumer.poll(timeout_ms=1000).values():
                values += [record.value for record in records]
    finally:
        consumer.close()
