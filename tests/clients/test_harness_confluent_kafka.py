# SPDX-License-Identifier: Apache-2.0
"""The kgroups_broker fixture as a confluent-kafka 1.7.0 (librdkafka 2.0.2) test suite uses
it: an injected NOT_LEADER_OR_FOLLOWER on Produce is retried and nothing is lost or
duplicated; an unavailable coordinator delays a join without breaking it; injected latency
shows in the producer's timings; with the manual clock a killed member expires only once
advance() passes its session timeout; group() shows the members, assignment and lag the
clients made; events() records the rebalances.

Needs the kgroups package on PYTHONPATH (scripts/test-clients puts the build's there) and
kgroupsd in $KGROUPSD.
"""
import signal
import subprocess
import sys
import time

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition

import kgroups  # noqa: F401 (its pytest plugin gives kgroups_broker: conftest.py)

TIMEOUT_S = 30
PARTITIONS = 3


@pytest.fixture
def kgroups_broker_options():
    """Every test here: a topic "orders" of 3 partitions, and short session timeouts."""
    return {"topics": {"orders": PARTITIONS}, "group_min_session_timeout_ms": 1000}


def produce(broker, values, partition=None, **config):
    """Produces `values` to "orders" and flushes; returns the delivery errors and, for each
    message, the seconds from produce() to its delivery report."""
    producer = Producer({"bootstrap.servers": broker.bootstrap_servers,
                         "retry.backoff.ms": 50, **config})
    errors, latencies = [], []

    def delivered(error, _message, sent=None):
        if error:
            errors.append(error)
        latencies.append(time.monotonic() - sent)

    for value in values:
        sent = time.monotonic()
        kwargs = {} if partition is None else {"partition": partition}
        producer.produce("orders", value=value, on_delivery=lambda e, m, s=sent: delivered(e, m, s),
                         **kwargs)
    assert producer.flush(TIMEOUT_S) == 0, "messages left undelivered"
    return errors, latencies


def read_all(broker, partition):
    """Every value stored in one partition of "orders", from its start to its end offset."""
    end = next(p["end_offset"] for p in broker.topic("orders")["partitions"]
               if p["partition"] == partition)
    consumer = Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": "reader",
                         "enable.auto.commit": False})
    consumer.assign([TopicPartition("orders", partition, 0)])
    values = []
    deadline = time.monotonic() + TIMEOUT_S
    while len(values) < end:
        assert time.monotonic() < deadline, f"read {len(values)} of {end} records"
        message = consumer.poll(0.2)
        if message is not None and not message.error():
            values.append(message.value())
    consumer.close()
    return values


def group_member(broker, group, client_id, **config):
    consumer = Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": group,
                         "client.id": client_id, "auto.offset.reset": "earliest",
                         "enable.auto.commit": False, "session.timeout.ms": 6000,
                         "heartbeat.interval.ms": 200, **config})
    consumer.subscribe(["orders"])
    return consumer


def poll_until(consumers, condition, what):
    """Polls every consumer until condition() holds (bounded)."""
    deadline = time.monotonic() + TIMEOUT_S
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        for consumer in consumers:
            consumer.poll(0.05)


def test_not_leader_on_produce_is_retried_and_nothing_is_lost_or_duplicated(kgroups_broker):
    fault = kgroups_broker.inject(api="Produce", error="NOT_LEADER_OR_FOLLOWER", count=2,
                                  topic="orders", partition=0)
    assert fault["remaining"] == 2
    values = [b"order-%d" % i for i in range(50)]
    errors, _ = produce(kgroups_broker, values, partition=0, **{"enable.idempotence": True})
    assert errors == []
    assert kgroups_broker.faults() == []  # both refusals were answered (a used-up fault goes)
    assert kgroups_broker.metric("kgroupsd_request_errors_total", api="Produce",
                                 error="NOT_LEADER_OR_FOLLOWER") == 2
    assert kgroups_broker.metric("kgroupsd_faults_injected_total", api="Produce") == 2
    assert read_all(kgroups_broker, 0) == values  # each once, in order


def test_an_unavailable_coordinator_delays_the_join_without_breaking_it(kgroups_broker):
    kgroups_broker.coordinator_unavailable(count=3, group="billing")
    started = time.monotonic()
    consumer = group_member(kgroups_broker, "billing", "billing-1")
    poll_until([consumer], lambda: consumer.assignment(), "an assignment")
    joined_s = time.monotonic() - started
    assert {tp.partition for tp in consumer.assignment()} == set(range(PARTITIONS))
    assert kgroups_broker.faults() == []  # the three refusals happened
    group = kgroups_broker.wait_for_group("billing", members=1)
    assert group["members"][0]["client_id"] == "billing-1"
    consumer.close()

    # The same join without the fault is quicker: the refusals cost retries.
    started = time.monotonic()
    consumer = group_member(kgroups_broker, "billing-unhindered", "billing-2")
    poll_until([consumer], lambda: consumer.assignment(), "an assignment")
    assert time.monotonic() - started < joined_s
    consumer.close()


def test_join_group_refused_once_is_retried(kgroups_broker):
    kgroups_broker.inject(api="JoinGroup", error="COORDINATOR_NOT_AVAILABLE", group="billing")
    consumer = group_member(kgroups_broker, "billing", "billing-1")
    poll_until([consumer], lambda: consumer.assignment(), "an assignment")
    assert kgroups_broker.faults() == []
    assert kgroups_broker.wait_for_group("billing", members=1)["generation"] >= 1
    consumer.close()


def test_injected_latency_shows_in_the_producers_timings(kgroups_broker):
    # One producer throughout, warmed up first: its connection and metadata are in place, so
    # each timing is one Produce round trip, not a new client's start-up (which librdkafka may
    # stretch past a second on a loaded machine).
    producer = Producer({"bootstrap.servers": kgroups_broker.bootstrap_servers,
                         "retry.backoff.ms": 50, "linger.ms": 0})

    def timed_produce(value):
        timings = []
        sent = time.monotonic()
        producer.produce("orders", value=value, partition=0,
                         on_delivery=lambda error, _message: timings.append(
                             (error, time.monotonic() - sent)))
        assert producer.flush(TIMEOUT_S) == 0, "message left undelivered"
        [(error, seconds)] = timings
        assert error is None, error
        return seconds

    timed_produce(b"warm-up")
    kgroups_broker.inject(api="Produce", latency_ms=400)
    slow = timed_produce(b"slow")
    fast = timed_produce(b"fast")
    assert slow >= 0.4, slow
    assert fast < 0.4, fast


MEMBER_SCRIPT = """
import sys
from confluent_kafka import Consumer
consumer = Consumer({"bootstrap.servers": sys.argv[1], "group.id": "billing",
                     "client.id": "doomed", "session.timeout.ms": 2000,
                     "heartbeat.interval.ms": 100})
consumer.subscribe(["orders"])
while True:
    consumer.poll(0.1)
"""


@pytest.mark.kgroups_broker(manual_clock=True, initial_rebalance_delay_ms=0)
def test_a_killed_member_expires_only_when_the_clock_passes_its_session(kgroups_broker):
    member = subprocess.Popen([sys.executable, "-c", MEMBER_SCRIPT,
                               kgroups_broker.bootstrap_servers])
    try:
        group = kgroups_broker.wait_for_group("billing", members=1, timeout=TIMEOUT_S)
        member_id = group["members"][0]["member_id"]
        member.send_signal(signal.SIGKILL)
        member.wait(TIMEOUT_S)
    finally:
        if member.poll() is None:
            member.kill()
            member.wait()
    time.sleep(2.5)  # longer than the 2 s session timeout in real time: it does not count
    assert [m["member_id"] for m in kgroups_broker.group("billing")["members"]] == [member_id]
    kgroups_broker.advance(1900)
    assert [m["member_id"] for m in kgroups_broker.group("billing")["members"]] == [member_id]
    kgroups_broker.advance(200)  # 2100 ms after its last heartbeat
    assert kgroups_broker.groups() == []  # empty and without offsets: forgotten
    (expired,) = kgroups_broker.events(type="member_expired", group="billing")
    assert expired["member_id"] == member_id and expired["client_id"] == "doomed"


def test_group_shows_the_members_assignment_and_lag_the_clients_made(kgroups_broker):
    produce(kgroups_broker, [b"p0-%d" % i for i in range(5)], partition=0)
    produce(kgroups_broker, [b"p1-%d" % i for i in range(3)], partition=1)
    produce(kgroups_broker, [b"p2-%d" % i for i in range(2)], partition=2)
    first = group_member(kgroups_broker, "billing", "member-a")
    second = group_member(kgroups_broker, "billing", "member-b")
    members = [first, second]
    try:
        poll_until(members, lambda: len(kgroups_broker.events(type="rebalance_completed",
                                                              group="billing")) >= 1
                   and all(m.assignment() for m in members)
                   and sum(len(m.assignment()) for m in members) == PARTITIONS,
                   "both members assigned")
        by_client = {"member-a": first, "member-b": second}
        group = kgroups_broker.wait_for_group("billing", members=2)
        assert group["protocol_type"] == "consumer" and group["type"] == "classic"
        for member in group["members"]:
            (assigned,) = member["assignment"]
            owned = {tp.partition for tp in by_client[member["client_id"]].assignment()}
            assert assigned["topic"] == "orders" and set(assigned["partitions"]) == owned
        assert group["leader"] in {m["member_id"] for m in group["members"]}

        # Commit 4 of partition 0's 5 records and all of partition 1's; partition 2 none.
        owner = {tp.partition: c for c in members for tp in c.assignment()}
        owner[0].commit(offsets=[TopicPartition("orders", 0, 4)], asynchronous=False)
        owner[1].commit(offsets=[TopicPartition("orders", 1, 3)], asynchronous=False)
        offsets = {o["partition"]: o for o in kgroups_broker.group("billing")["offsets"]}
        assert (offsets[0]["committed"], offsets[0]["end_offset"], offsets[0]["lag"]) == (4, 5, 1)
        assert (offsets[1]["committed"], offsets[1]["lag"]) == (3, 0)
        assert (offsets[2]["committed"], offsets[2]["end_offset"], offsets[2]["lag"]) == (None, 2, 2)
        assert kgroups_broker.group("billing")["lag"] == 3

        # The rebalance that gave two members their partitions is in the events.
        completed = kgroups_broker.events(type="rebalance_completed", group="billing")[-1]
        assert completed["generation"] == group["generation"]
        by_member = {m["member_id"]: m for m in group["members"]}
        assert set(completed["assignment"]) == set(by_member)
        for member_id, assigned in completed["assignment"].items():
            assert assigned == by_member[member_id]["assignment"]
        joined = kgroups_broker.events(type="member_joined", group="billing")
        assert {e["client_id"] for e in joined} == {"member-a", "member-b"}
    finally:
        for member in members:
            member.close()
    left = kgroups_broker.wait_for_event(
        "member_left", group="billing",
        where=lambda e: e["client_id"] == "member-b")
    assert left["member_id"] in by_member
    assert kgroups_broker.wait_for_group("billing", state="Empty")["members"] == []
