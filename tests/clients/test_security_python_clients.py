# SPDX-License-Identifier: Apache-2.0
"""Secured listeners as the Python clients use them (issue 30): confluent-kafka 1.7.0
(librdkafka 2.0.2) and kafka-python 2.0.2 each produce, consume in a group and make an
admin call over SASL_SSL with PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 and OAUTHBEARER, and over
SSL with a client certificate; a wrong password, an unknown user, an expired token and a
mechanism the broker does not enable each fail with the client's authentication error, and
the broker goes on serving a correct client afterwards. kafka-python 2.0 authenticates with
SaslHandshake v0 and raw tokens, librdkafka with v1 and SaslAuthenticate, so both paths run.

Needs the kgroups package on PYTHONPATH, kgroupsd in $KGROUPSD and the kgroups CLI in
$KGROUPS_CLI (the fixture's throwaway CA).
"""
import base64
import json
import time
import uuid

import pytest
from confluent_kafka import Consumer, KafkaError, Producer
from confluent_kafka.admin import AdminClient, NewTopic
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer
from kafka.errors import KafkaError as KafkaPythonError
from kafka.errors import NoBrokersAvailable

import kgroups

TIMEOUT_S = 30
USERS = {"alice": "alice-secret"}
MECHANISMS = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"]


@pytest.fixture(scope="module")
def broker():
    security = kgroups.Security(listeners=("SASL_SSL", "SSL"), users=USERS,
                                client_auth="requested",
                                super_users=["alice", "User:CN=client"])
    with kgroups.Broker(security=security) as started:
        yield started


def fresh(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def produce_confluent(config, topic, values, timeout_ms=15000):
    delivery_errors, client_errors = [], []
    producer = Producer({**config, "message.timeout.ms": timeout_ms,
                         "error_cb": client_errors.append})
    for value in values:
        producer.produce(topic, value=value,
                         on_delivery=lambda error, _m: error and delivery_errors.append(error))
    producer.flush(TIMEOUT_S)
    return delivery_errors, client_errors


def consume_confluent(config, topic, count):
    consumer = Consumer({**config, "group.id": fresh("group"), "auto.offset.reset": "earliest"})
    consumer.subscribe([topic])
    values, deadline = [], time.monotonic() + TIMEOUT_S
    try:
        while len(values) < count and time.monotonic() < deadline:
            message = consumer.poll(0.5)
            if message is not None and message.error() is None:
                values.append(message.value())
        consumer.commit(asynchronous=False)
    finally:
        consumer.close()
    return values


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_confluent_kafka_over_sasl_ssl(broker, mechanism):
    config = broker.client_config(user="alice", mechanism=mechanism)
    assert config["security.protocol"] == "SASL_SSL"
    topic = fresh(mechanism.lower())
    admin = AdminClient(config)
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(TIMEOUT_S)
    values = [f"{mechanism}-{n}".encode() for n in range(5)]
    assert produce_confluent(config, topic, values) == ([], [])
    assert consume_confluent(config, topic, 5) == values
    # Metadata through the SASL_SSL listener names every broker on that listener.
    metadata = admin.list_topics(timeout=TIMEOUT_S)
    assert [f"{b.host}:{b.port}" for b in metadata.brokers.values()] == \
        [broker.listeners["SASL_SSL"]]


def test_confluent_kafka_over_ssl_with_a_client_certificate(broker):
    config = broker.client_config(protocol="SSL")
    assert "ssl.certificate.location" in config
    topic = fresh("ssl")
    values = [b"certified-1", b"certified-2"]
    assert produce_confluent(config, topic, values) == ([], [])
    # An auto-created topic has several partitions: the order across them is not kept.
    assert sorted(consume_confluent(config, topic, 2)) == values


def kafka_python_roundtrip(config, topic, values):
    producer = KafkaProducer(**config, acks="all")
    try:
        for value in values:
            producer.send(topic, value).get(timeout=TIMEOUT_S)
    finally:
        producer.close()
    consumer = KafkaConsumer(topic, **config, group_id=fresh("kp-group"),
                             auto_offset_reset="earliest", consumer_timeout_ms=10000)
    try:
        got = []
        for message in consumer:
            got.append(message.value)
            if len(got) == len(values):
                break
        consumer.commit()
        return got
    finally:
        consumer.close()


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_kafka_python_over_sasl_ssl(broker, mechanism):
    config = broker.kafka_python_config(user="alice", mechanism=mechanism)
    topic = fresh("kp-" + mechanism.lower())
    admin = KafkaAdminClient(**config)
    try:
        admin.create_topics([kgroups_topic(topic)])
        assert topic in admin.list_topics()
    finally:
        admin.close()
    values = [f"kp-{mechanism}-{n}".encode() for n in range(3)]
    assert kafka_python_roundtrip(config, topic, values) == values


def kgroups_topic(name):
    from kafka.admin import NewTopic as KafkaPythonNewTopic
    return KafkaPythonNewTopic(name, num_partitions=1, replication_factor=1)


def test_kafka_python_over_ssl_with_a_client_certificate(broker):
    config = broker.kafka_python_config(protocol="SSL")
    assert "ssl_certfile" in config
    topic = fresh("kp-ssl")
    assert sorted(kafka_python_roundtrip(config, topic, [b"x", b"y"])) == [b"x", b"y"]


def authentication_errors(config):
    """What a confluent-kafka producer with `config` reports: its client errors."""
    _, client_errors = produce_confluent(config, fresh("refused"), [b"never"], timeout_ms=3000)
    return [error for error in client_errors if error.code() == KafkaError._AUTHENTICATION]


def assert_still_serving(broker):
    config = broker.client_config(user="alice", mechanism="SCRAM-SHA-256")
    topic = fresh("after")
    assert produce_confluent(config, topic, [b"still-served"]) == ([], [])


def expired_token(user):
    def part(value):
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()
    now = int(time.time())
    return f"{part({'alg': 'none'})}.{part({'sub': user, 'iat': now - 120, 'exp': now - 60})}."


def test_a_wrong_password_fails_authentication(broker):
    errors = authentication_errors(
        broker.client_config(user="alice", mechanism="SCRAM-SHA-512", password="wrong"))
    assert errors and "Authentication failed" in errors[0].str()
    assert_still_serving(broker)


def test_an_unknown_user_fails_authentication(broker):
    config = broker.client_config(user="alice", mechanism="PLAIN")
    config["sasl.username"] = "mallory"
    errors = authentication_errors(config)
    assert errors and "Invalid username or password" in errors[0].str()
    assert_still_serving(broker)


def test_an_expired_token_fails_authentication_with_kafka_python(broker):
    class ExpiredTokenProvider:
        def token(self):
            return expired_token("alice")

        def extensions(self):
            return {}

    config = broker.kafka_python_config(user="alice", mechanism="OAUTHBEARER")
    config["sasl_oauth_token_provider"] = ExpiredTokenProvider()
    with pytest.raises((KafkaPythonError, NoBrokersAvailable)):
        producer = KafkaProducer(**config, api_version_auto_timeout_ms=5000,
                                 request_timeout_ms=5000, max_block_ms=5000)
        try:
            producer.send(fresh("expired"), b"never").get(timeout=10)
        finally:
            producer.close()
    assert_still_serving(broker)


def test_a_mechanism_the_broker_does_not_enable_fails():
    security = kgroups.Security(listeners="SASL_SSL", users=USERS, mechanisms=["SCRAM-SHA-256"],
                                super_users=["alice"])
    with kgroups.Broker(security=security) as scram_only:
        config = scram_only.client_config(user="alice", mechanism="SCRAM-SHA-256")
        wrong = {**config, "sasl.mechanisms": "PLAIN"}
        _, client_errors = produce_confluent(wrong, fresh("plain"), [b"never"], timeout_ms=3000)
        assert any("PLAIN" in error.str() and "not supported" in error.str().lower() or
                   error.code() == KafkaError._AUTHENTICATION for error in client_errors), \
            client_errors
        assert produce_confluent(config, fresh("scram"), [b"ok"]) == ([], [])
