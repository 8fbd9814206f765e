# SPDX-License-Identifier: Apache-2.0
"""Fault injection (POST /v1/faults, docs/HTTP-API.md) as confluent-kafka 1.7.0 (librdkafka
2.0.2) and kafka-python 2.0.2 see it: an injected NOT_LEADER_OR_FOLLOWER on Produce is
retried and every message is stored exactly once; COORDINATOR_NOT_AVAILABLE delays a group
join without breaking it; injected latency shows in the client's timings; a closed
connection is reopened and the client carries on."""
import subprocess
import time

import pytest
from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, NewTopic
from kafka import KafkaConsumer, KafkaProducer, TopicPartition

from cluster_checks import http
from kgroupsd_process import kgroupsd_binary

TIMEOUT_S = 30
TOPIC = "orders"
PARTITIONS = 2


def serves_http():
    """Whether this kgroupsd has the control endpoint (--http); a kgroupsd built without the
    HTTP server has not."""
    shown = subprocess.run([str(kgroupsd_binary()), "--help"], capture_output=True, timeout=10)
    return b"--http" in shown.stdout + shown.stderr


@pytest.fixture
def kgroupsd(start_kgroupsd):
    """A kgroupsd with its control endpoint on a free loopback port."""
    if not serves_http():
        pytest.skip("this kgroupsd has no --http control endpoint")
    return start_kgroupsd("--http", "127.0.0.1:0", "--group-min-session-timeout-ms", "1000")


def inject(broker, **fault):
    status, armed = http(broker, "POST", "/v1/faults", fault)
    assert status == 201, armed
    return armed


def armed_faults(broker):
    status, listed = http(broker, "GET", "/v1/faults")
    assert status == 200
    return listed["faults"]


def create_topic(broker):
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    for future in admin.create_topics([NewTopic(TOPIC, PARTITIONS, 1)]).values():
        future.result(TIMEOUT_S)


def stored_values(broker):
    """Every value stored in TOPIC, read by assignment from the beginning."""
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap, enable_auto_commit=False,
                             api_version=(2, 5, 0))
    partitions = [TopicPartition(TOPIC, p) for p in range(PARTITIONS)]
    consumer.assign(partitions)
    consumer.seek_to_beginning()
    ends = consumer.end_offsets(partitions)
    values = []
    deadline = time.monotonic() + TIMEOUT_S
    while any(consumer.position(tp) < ends[tp] for tp in partitions):
        assert time.monotonic() < deadline, "timed out reading the topic back"
        for records in consumer.poll(timeout_ms=200).values():
            values.extend(r.value for r in records)
    consumer.close()
    return values


def confluent_produce(broker, values, **config):
    """Produces `values` to partition 0 and flushes; returns the delivery errors."""
    producer = Producer({"bootstrap.servers": broker.bootstrap, "retry.backoff.ms": 50,
                         **config})
    errors = []
    for value in values:
        producer.produce(TOPIC, value=value, partition=0,
                         on_delivery=lambda error, _m: error and errors.append(error))
    assert producer.flush(TIMEOUT_S) == 0, "messages left undelivered"
    return errors


def test_confluent_producer_retries_not_leader_and_stores_each_message_once(kgroupsd):
    create_topic(kgroupsd)
    confluent_produce(kgroupsd, [b"warm-up"])
    inject(kgroupsd, api="Produce", error="NOT_LEADER_OR_FOLLOWER", count=2, topic=TOPIC,
           partition=0)
    values = [b"m%d" % i for i in range(20)]
    assert confluent_produce(kgroupsd, values) == []
    assert armed_faults(kgroupsd) == []  # both refusals happened
    stored = stored_values(kgroupsd)
    assert sorted(stored) == sorted([b"warm-up", *values])


def test_kafka_python_producer_retries_not_leader_and_stores_each_message_once(kgroupsd):
    create_topic(kgroupsd)
    inject(kgroupsd, api="Produce", error="NOT_LEADER_OR_FOLLOWER", count=2, topic=TOPIC)
    producer = KafkaProducer(bootstrap_servers=kgroupsd.bootstrap, retries=5,
                             retry_backoff_ms=50, max_in_flight_requests_per_connection=1)
    values = [b"k%d" % i for i in range(10)]
    for value in values:
        producer.send(TOPIC, value=value, partition=1).get(timeout=TIMEOUT_S)
    producer.close()
    assert armed_faults(kgroupsd) == []
    assert sorted(stored_values(kgroupsd)) == sorted(values)


def wait_for_confluent_assignment(consumer):
    deadline = time.monotonic() + TIMEOUT_S
    while not consumer.assignment():
        assert time.monotonic() < deadline, "no assignment"
        consumer.poll(0.1)
    return consumer.assignment()


def test_confluent_consumer_joins_through_an_unavailable_coordinator(kgroupsd):
    create_topic(kgroupsd)
    inject(kgroupsd, api="JoinGroup", error="COORDINATOR_NOT_AVAILABLE", count=2, group="g1")
    consumer = Consumer({"bootstrap.servers": kgroupsd.bootstrap, "group.id": "g1",
                         "session.timeout.ms": 6000, "auto.offset.reset": "earliest"})
    consumer.subscribe([TOPIC])
    try:
        assigned = wait_for_confluent_assignment(consumer)
        assert sorted(tp.partition for tp in assigned) == list(range(PARTITIONS))
    finally:
        consumer.close()
    assert armed_faults(kgroupsd) == []  # the join was refused twice first


def test_kafka_python_consumer_joins_through_an_unavailable_coordinator(kgroupsd):
    create_topic(kgroupsd)
    inject(kgroupsd, coordinator="unavailable", count=3, group="g2")
    consumer = KafkaConsumer(TOPIC, bootstrap_servers=kgroupsd.bootstrap, group_id="g2",
                             session_timeout_ms=6000, heartbeat_interval_ms=500,
                             retry_backoff_ms=50, api_version=(2, 5, 0))
    try:
        deadline = time.monotonic() + TIMEOUT_S
        while not consumer.assignment():
            assert time.monotonic() < deadline, "no assignment"
            consumer.poll(timeout_ms=100)
        assert {tp.partition for tp in consumer.assignment()} == set(range(PARTITIONS))
    finally:
        consumer.close()
    assert armed_faults(kgroupsd) == []


def test_injected_produce_latency_shows_in_confluent_delivery_time(kgroupsd):
    create_topic(kgroupsd)
    confluent_produce(kgroupsd, [b"warm-up"])
    producer = Producer({"bootstrap.servers": kgroupsd.bootstrap, "linger.ms": 0})
    producer.produce(TOPIC, value=b"fast", partition=0)
    assert producer.flush(TIMEOUT_S) == 0
    started = time.monotonic()
    producer.produce(TOPIC, value=b"fast-2", partition=0)
    assert producer.flush(TIMEOUT_S) == 0
    fast = time.monotonic() - started
    inject(kgroupsd, api="Produce", latency_ms=300)
    started = time.monotonic()
    producer.produce(TOPIC, value=b"slow", partition=0)
    assert producer.flush(TIMEOUT_S) == 0
    slow = time.monotonic() - started
    assert slow >= 0.3, (fast, slow)
    assert fast < 0.3, (fast, slow)


def test_injected_fetch_latency_shows_in_kafka_python_poll_time(kgroupsd):
    create_topic(kgroupsd)
    confluent_produce(kgroupsd, [b"record"])
    consumer = KafkaConsumer(bootstrap_servers=kgroupsd.bootstrap, api_version=(2, 5, 0),
                             fetch_max_wait_ms=10)
    consumer.assign([TopicPartition(TOPIC, 0)])
    consumer.seek_to_beginning()
    inject(kgroupsd, api="Fetch", latency_ms=300, count=-1)
    started = time.monotonic()
    records = {}
    while not records:
        assert time.monotonic() - started < TIMEOUT_S
        records = consumer.poll(timeout_ms=1000)
    assert time.monotonic() - started >= 0.3
    consumer.close()


def test_closed_connection_is_reopened_and_confluent_producer_carries_on(kgroupsd):
    create_topic(kgroupsd)
    confluent_produce(kgroupsd, [b"before"])
    producer = Producer({"bootstrap.servers": kgroupsd.bootstrap, "retry.backoff.ms": 50})
    producer.produce(TOPIC, value=b"warm", partition=0)
    assert producer.flush(TIMEOUT_S) == 0
    inject(kgroupsd, api="Produce", close=True)
    errors = []
    producer.produce(TOPIC, value=b"after", partition=0,
                     on_delivery=lambda error, _m: error and errors.append(error))
    assert producer.flush(TIMEOUT_S) == 0
    assert errors == []
    assert armed_faults(kgroupsd) == []
    # Closed before it was handled: stored once, by the retry.
    assert sorted(stored_values(kgroupsd)) == [b"after", b"before", b"warm"]
    assert "closes the connection" in kgroupsd.log()


def test_closed_connection_is_reopened_and_kafka_python_consumer_carries_on(kgroupsd):
    create_topic(kgroupsd)
    confluent_produce(kgroupsd, [b"a", b"b"])
    consumer = KafkaConsumer(bootstrap_servers=kgroupsd.bootstrap, api_version=(2, 5, 0),
                             fetch_max_wait_ms=10)
    consumer.assign([TopicPartition(TOPIC, 0)])
    consumer.seek_to_beginning()
    inject(kgroupsd, api="Fetch", close=True)
    values = []
    deadline = time.monotonic() + TIMEOUT_S
    while len(values) < 2:
        assert time.monotonic() < deadline, values
        for records in consumer.poll(timeout_ms=200).values():
            values.extend(r.value for r in records)
    consumer.close()
    assert values == [b"a", b"b"]
    assert armed_faults(kgroupsd) == []


def test_bad_faults_answer_400_and_unknown_ids_404(kgroupsd):
    status, body = http(kgroupsd, "POST", "/v1/faults", {"api": "Metadata", "error": 6})
    assert status == 400
    assert "Produce, Fetch" in body["error"]["message"]
    status, body = http(kgroupsd, "POST", "/v1/faults", {"api": "Produce", "error": "NOPE"})
    assert status == 400
    assert http(kgroupsd, "DELETE", "/v1/faults/42")[0] == 404
    armed = inject(kgroupsd, api="Fetch", latency_ms=5, count=-1)
    assert http(kgroupsd, "DELETE", f"/v1/faults/{armed['id']}")[0] == 200
    assert armed_faults(kgroupsd) == []
