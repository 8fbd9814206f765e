# SPDX-License-Identifier: Apache-2.0
"""kgroupsd --brokers 3 against confluent-kafka (librdkafka): replication, leader elections
and the group coordinator moving, as a Kafka application meets them when a broker dies.

- An idempotent acks=all producer keeps writing while a test stops and starts the leader of
  its partitions every second: every acknowledged record is in the log exactly once, in the
  order sent (min.insync.replicas=2, clean elections).
- acks=1 with an unclean election loses exactly what the new leader lacked, and says so.
- A group of two consumers goes on while the broker coordinating it stops.
- An isolated leader never acknowledges an acks=all write.
"""
import os
import threading
import time

import pytest
from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from cluster_checks import (broker_action, events, http, leader_of, partitions, read_partitions,
                            wait_until)
from kafka.protocol.produce import ProduceRequest
from raw_client import RawConnection, record_batch

BOUNCE_SECONDS = float(os.environ.get("KGROUPS_BOUNCE_SECONDS", "20"))


@pytest.fixture
def cluster(start_kgroupsd):
    return start_kgroupsd("--brokers", "3", "--http", "127.0.0.1:0",
                          "--replica-lag-time-max-ms", "500",
                          "--group-min-session-timeout-ms", "1000")


def create(broker, name, partitions_count, replicas=3, config=None, assignment=None):
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    topic = (NewTopic(name, len(assignment), -1, replica_assignment=assignment,
                      config=config or {}) if assignment
             else NewTopic(name, partitions_count, replicas, config=config or {}))
    admin.create_topics([topic])[name].result(10)


def read_all(broker, topic, partition_count):
    """Every record of `topic` below the high watermark, per partition, as (offset, value)."""
    found = read_partitions(broker.bootstrap, topic, partition_count, "reader-" + topic)
    return {p: [(offset, value.decode()) for offset, value in records]
            for p, records in found.items()}


def test_acknowledged_acks_all_writes_survive_leader_bounces_exactly_once_in_order(cluster):
    create(cluster, "bounce", 3, config={"min.insync.replicas": "2"})
    producer = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all",
                         "enable.idempotence": True, "linger.ms": 5,
                         "message.timeout.ms": 60000, "request.timeout.ms": 5000})
    acknowledged = []  # (partition, offset, sequence)
    failed = []

    def delivered(error, message):
        if error is None:
            acknowledged.append((message.partition(), message.offset(),
                                 int(message.value())))
        else:
            failed.append(error)

    stop = threading.Event()
    bounces = []

    def bounce():
        while not stop.is_set():
            leader = leader_of(cluster, "bounce", len(bounces) % 3)
            broker_action(cluster, leader, "stop")
            bounces.append(leader)
            time.sleep(0.3)
            broker_action(cluster, leader, "start")
            stop.wait(0.7)

    bouncer = threading.Thread(target=bounce)
    bouncer.start()
    sent = 0
    deadline = time.monotonic() + BOUNCE_SECONDS
    try:
        while time.monotonic() < deadline:
            producer.produce("bounce", key=str(sent % 30), value=str(sent), on_delivery=delivered)
            sent += 1
            producer.poll(0.001)
    finally:
        stop.set()
        bouncer.join()
    assert producer.flush(60) == 0
    assert len(bounces) >= BOUNCE_SECONDS // 2
    assert not failed, failed[:3]
    assert len(acknowledged) == sent

    stored = read_all(cluster, "bounce", 3)
    for partition, records in stored.items():
        values = [int(value) for _, value in records]
        assert len(values) == len(set(values)), f"partition {partition} holds a record twice"
        assert values == sorted(values), f"partition {partition} is out of the order sent"
    where = {(p, offset): int(value) for p, records in stored.items() for offset, value in records}
    for partition, offset, sequence in acknowledged:
        assert where.get((partition, offset)) == sequence, (
            f"acknowledged record {sequence} is not at {partition}/{offset}")
    elections = events(cluster, "leader_elected")
    assert elections and not any(event["unclean"] for event in elections)
    assert all(event["lost_records"] == 0 for event in elections)


def test_acks_1_and_an_unclean_election_lose_exactly_what_the_new_leader_lacked(cluster):
    create(cluster, "unclean", 1, assignment=[[0, 1]],
           config={"unclean.leader.election.enable": "true"})
    producer = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "1"})
    for i in range(10):
        producer.produce("unclean", value=f"kept-{i}")
    assert producer.flush(10) == 0
    # Broker 1 stops fetching: the next records are on the leader alone, acknowledged.
    broker_action(cluster, 1, "replication-delay", {"ms": 3_600_000})
    for i in range(5):
        producer.produce("unclean", value=f"lost-{i}")
    assert producer.flush(10) == 0
    wait_until(lambda: partitions(cluster, "unclean")[0]["isr"] == [0], what="the ISR to shrink")
    assert partitions(cluster, "unclean")[0]["high_watermark"] == 15
    broker_action(cluster, 0, "stop")
    partition = partitions(cluster, "unclean")[0]
    assert partition["leader"] == 1
    assert partition["high_watermark"] == 10 and partition["log_end_offset"] == 10
    [election] = [e for e in events(cluster, "leader_elected") if e["topic"] == "unclean"]
    assert election["unclean"] and election["lost_records"] == 5
    assert [value for _, value in read_all(cluster, "unclean", 1)[0]] == [
        f"kept-{i}" for i in range(10)]


def test_a_group_goes_on_in_its_generation_while_the_broker_coordinating_it_stops(cluster):
    create(cluster, "work", 6)
    producer = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all"})
    for i in range(600):
        producer.produce("work", key=str(i), value=str(i))
    assert producer.flush(10) == 0
    history = []  # ("seen" | "committed", value), in the order they happened
    lock = threading.Lock()
    stop = threading.Event()

    def member(name):
        consumer = Consumer({"bootstrap.servers": cluster.bootstrap, "group.id": "workers",
                             "client.id": name, "auto.offset.reset": "earliest",
                             "enable.auto.commit": False, "session.timeout.ms": 6000,
                             "heartbeat.interval.ms": 200})
        consumer.subscribe(["work"])
        while not stop.is_set():
            message = consumer.poll(0.2)
            if message is None or message.error():
                continue
            value = int(message.value())
            with lock:
                history.append(("seen", value))
            time.sleep(0.005)
            try:
                consumer.commit(message, asynchronous=False)
            except Exception:  # the coordinator moved meanwhile: not committed
                continue
            with lock:
                history.append(("committed", value))
        consumer.close()

    def seen():
        with lock:
            return {value for kind, value in history if kind == "seen"}

    members = [threading.Thread(target=member, args=(f"m{i}",)) for i in range(2)]
    for thread in members:
        thread.start()
    try:
        wait_until(lambda: len(seen()) >= 100, timeout_s=30, what="the group to consume")
        wait_until(lambda: group(cluster, "workers")["state"] == "Stable", timeout_s=30,
                   what="the group to be Stable")
        before = group(cluster, "workers")
        coordinator = before["coordinator"]
        broker_action(cluster, coordinator, "stop")
        wait_until(lambda: len(seen()) >= 600, timeout_s=60, what="every record consumed")
        after = group(cluster, "workers")
    finally:
        stop.set()
        for thread in members:
            thread.join()
    assert seen() == set(range(600))
    committed = set()
    for kind, value in history:
        assert not (kind == "seen" and value in committed), (
            f"record {value} was delivered again after its offset was committed")
        if kind == "committed":
            committed.add(value)
    assert [e for e in events(cluster, "broker_stopped") if e["broker"] == coordinator]
    # The new coordinator loaded the group from __consumer_offsets, members and generation:
    # the members went on in their generation, with no rebalance.
    assert after["coordinator"] not in (None, coordinator)
    assert after["generation"] == before["generation"], (before, after)
    assert len(after["members"]) == 2 and after["state"] == "Stable"
    assert [e for e in events(cluster, "coordinator_moved") if e["coordinator"] == after["coordinator"]]


def group(cluster, group_id):
    status, answer = http(cluster, "GET", f"/v1/groups/{group_id}")
    assert status == 200, answer
    return answer


def brokers(cluster):
    status, answer = http(cluster, "GET", "/v1/brokers")
    assert status == 200, answer
    return answer["brokers"]


def test_an_isolated_leader_never_acknowledges_an_acks_all_write(cluster):
    create(cluster, "zombie", 1, assignment=[[0, 1, 2]])
    broker_action(cluster, 0, "isolate")
    assert leader_of(cluster, "zombie") == 1
    to_zombie = RawConnection(cluster.bootstrap.split(",")[0])
    batch = record_batch([(b"k", b"never acknowledged")])
    started = time.monotonic()
    answer = to_zombie.request(ProduceRequest[3](
        transactional_id=None, required_acks=-1, timeout=1500,
        topics=[("zombie", [(0, batch)])]))
    assert time.monotonic() - started >= 1.4
    assert answer.topics[0][1][0][1] == 7  # REQUEST_TIMED_OUT
    # acks=1 is acknowledged by the isolated broker, and lost: the log never holds it.
    answer = to_zombie.request(ProduceRequest[3](
        transactional_id=None, required_acks=1, timeout=1500, topics=[("zombie", [(0, batch)])]))
    assert answer.topics[0][1][0][1] == 0
    broker_action(cluster, 0, "start")
    assert partitions(cluster, "zombie")[0]["log_end_offset"] == 0
    assert any(e["lost_records"] == 2 for e in events(cluster, "leader_elected")
               if e["topic"] == "zombie")
