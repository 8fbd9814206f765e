# SPDX-License-Identifier: Apache-2.0
"""ACLs as a confluent-kafka 1.7.0 application meets them (issue 30): a principal allowed to
read but not write a topic gets TOPIC_AUTHORIZATION_FAILED on produce and still reads the
topic's records in its group; a group it may not use gets GROUP_AUTHORIZATION_FAILED; a
PREFIXED allow with a LITERAL deny (deny wins); a transactional id needs its own ACL.
The broker has a SASL_SSL listener; admin is a super user, alice has only the ACLs given.
"""
import time
import uuid

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer

import kgroups

TIMEOUT_S = 20
USERS = {"admin": "admin-secret", "alice": "alice-secret"}


def acl(resource_type, name, operation, permission="ALLOW", pattern_type="LITERAL"):
    return {"resource_type": resource_type, "resource_name": name, "pattern_type": pattern_type,
            "principal": "User:alice", "host": "*", "operation": operation,
            "permission": permission}


@pytest.fixture(scope="module")
def broker():
    security = kgroups.Security(listeners="SASL_SSL", users=USERS, super_users=["admin"], acls=[
        acl("TOPIC", "orders", "READ"),
        acl("GROUP", "readers", "READ"),
        acl("TOPIC", "logs-", "WRITE", pattern_type="PREFIXED"),
        acl("TOPIC", "logs-secret", "WRITE", permission="DENY"),
        acl("TOPIC", "payments", "WRITE"),
        acl("TRANSACTIONAL_ID", "tx-", "WRITE", pattern_type="PREFIXED"),
    ])
    topics = {"orders": 1, "logs-app": 1, "logs-secret": 1, "payments": 1}
    with kgroups.Broker(topics=topics, security=security) as started:
        yield started


def config_of(broker, user):
    return broker.client_config(user=user, mechanism="SCRAM-SHA-256")


def produce(config, topic, values, extra=None):
    errors = []
    producer = Producer({**config, "message.timeout.ms": 10000, **(extra or {})})
    for value in values:
        producer.produce(topic, value=value, on_delivery=lambda e, _m: e and errors.append(e))
    producer.flush(TIMEOUT_S)
    return errors


def consume(config, topic, group, count):
    """Returns (values, errors) polled within the timeout."""
    consumer = Consumer({**config, "group.id": group, "auto.offset.reset": "earliest"})
    consumer.subscribe([topic])
    values, errors = [], []
    deadline = time.monotonic() + TIMEOUT_S
    try:
        while len(values) < count and not errors and time.monotonic() < deadline:
            message = consumer.poll(0.5)
            if message is None:
                continue
            if message.error() is not None:
                errors.append(message.error())
            else:
                values.append(message.value())
    finally:
        consumer.close()
    return values, errors


def test_read_but_not_write_a_topic(broker):
    assert produce(config_of(broker, "admin"), "orders", [b"a", b"b", b"c"]) == []
    errors = produce(config_of(broker, "alice"), "orders", [b"forbidden"])
    assert [error.code() for error in errors] == [KafkaError.TOPIC_AUTHORIZATION_FAILED]
    values, errors = consume(config_of(broker, "alice"), "orders", "readers", 3)
    assert (values, errors) == ([b"a", b"b", b"c"], [])


def test_a_group_without_an_acl_is_refused(broker):
    values, errors = consume(config_of(broker, "alice"), "orders", "not-mine", 1)
    assert values == []
    assert [error.code() for error in errors] == [KafkaError.GROUP_AUTHORIZATION_FAILED]


def test_a_prefixed_allow_and_a_literal_deny(broker):
    alice = config_of(broker, "alice")
    assert produce(alice, "logs-app", [b"allowed by prefix"]) == []
    errors = produce(alice, "logs-secret", [b"denied"])
    assert [error.code() for error in errors] == [KafkaError.TOPIC_AUTHORIZATION_FAILED]


def test_a_transactional_id_needs_its_own_acl(broker):
    alice = config_of(broker, "alice")
    refused = Producer({**alice, "transactional.id": f"other-{uuid.uuid4().hex[:6]}"})
    with pytest.raises(KafkaException) as raised:
        refused.init_transactions(TIMEOUT_S)
    assert raised.value.args[0].code() == KafkaError.TRANSACTIONAL_ID_AUTHORIZATION_FAILED

    allowed = Producer({**alice, "transactional.id": f"tx-{uuid.uuid4().hex[:6]}"})
    allowed.init_transactions(TIMEOUT_S)
    allowed.begin_transaction()
    allowed.produce("payments", value=b"paid")
    allowed.commit_transaction(TIMEOUT_S)
