# SPDX-License-Identifier: Apache-2.0
"""confluent-kafka (librdkafka 2.0.2) consumer groups against kgroupsd: resume
from committed offsets, two members splitting a topic, crash and replay after the session
timeout, a clean leave that rebalances at once, and INCONSISTENT_GROUP_PROTOCOL for a member
whose assignor the group does not use."""
import signal
import subprocess
import sys
import time

import pytest
from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition

from group_checks import assert_split, read_in_parallel
from group_checks import wait_for_assignment as wait_until_settled

TIMEOUT_S = 30
PARTITIONS = 6


@pytest.fixture
def kgroupsd(start_kgroupsd):
    """A kgroupsd that accepts the short session timeouts these tests use."""
    return start_kgroupsd("--group-min-session-timeout-ms", "1000")


def produce(bootstrap, topic, count):
    """Sends `count` messages, message i to partition i % 6; returns {(partition, value)}."""
    producer = Producer({"bootstrap.servers": bootstrap})
    for i in range(count):
        producer.produce(topic, key=b"k%d" % i, value=b"v%d" % i, partition=i % PARTITIONS)
    assert producer.flush(TIMEOUT_S) == 0
    return {(i % PARTITIONS, b"v%d" % i) for i in range(count)}


def create_topic(bootstrap, topic):
    producer = Producer({"bootstrap.servers": bootstrap})
    producer.list_topics(topic, timeout=TIMEOUT_S)  # Metadata auto-creates it
    producer.flush(TIMEOUT_S)


def consumer(bootstrap, group, **config):
    return Consumer({"bootstrap.servers": bootstrap, "group.id": group,
                     "auto.offset.reset": "earliest", "enable.auto.commit": False,
                     "session.timeout.ms": 3000, "heartbeat.interval.ms": 300, **config})


def read(member, count, deadline_s=TIMEOUT_S):
    """Polls until `count` messages arrived (or the deadline): [(partition, offset, value)]."""
    rows = []
    deadline = time.monotonic() + deadline_s
    while len(rows) < count and time.monotonic() < deadline:
        message = member.poll(0.2)
        if message is None:
            continue
        assert message.error() is None, message.error()
        rows.append((message.partition(), message.offset(), message.value()))
    return rows


def wait_for_assignment(members, deadline_s=TIMEOUT_S):
    """Polls every member until their assignments are disjoint, non-empty and cover all
    partitions; returns them."""
    def poll_once(member):
        message = member.poll(0.1)
        assert message is None or message.error() is not None, "no messages expected yet"

    return wait_until_settled(members, poll_once,
                              lambda member: {tp.partition for tp in member.assignment()},
                              set(range(PARTITIONS)), deadline_s)


def test_group_of_one_commits_and_a_new_member_resumes(kgroupsd):
    sent = produce(kgroupsd.bootstrap, "ck-resume", 60)
    first = consumer(kgroupsd.bootstrap, "ck-resume-group")
    first.subscribe(["ck-resume"])
    rows = read(first, 36)
    positions = {}
    for partition, offset, _ in rows:
        positions[partition] = max(positions.get(partition, 0), offset + 1)
    first.commit(offsets=[TopicPartition("ck-resume", p, o) for p, o in positions.items()],
                 asynchronous=False)
    first.close()
    second = consumer(kgroupsd.bootstrap, "ck-resume-group")
    second.subscribe(["ck-resume"])
    rest = read(second, 60 - len(rows))
    assert not read(second, 1, deadline_s=1), "read a message twice"
    second.close()
    values = [(p, v) for p, _, v in rows + rest]
    assert len(values) == len(set(values)) == 60, "a message was read twice or lost"
    assert set(values) == sent


def test_two_members_split_six_partitions_without_overlap_or_gap(kgroupsd):
    create_topic(kgroupsd.bootstrap, "ck-split")
    members = [consumer(kgroupsd.bootstrap, "ck-split-group") for _ in range(2)]
    for member in members:
        member.subscribe(["ck-split"])
    assignments = wait_for_assignment(members)
    assert assignments[0].isdisjoint(assignments[1]) and all(assignments), assignments
    assert assignments[0] | assignments[1] == set(range(PARTITIONS)), assignments
    sent = produce(kgroupsd.bootstrap, "ck-split", 120)
    results = read_in_parallel(members, read, 1000, 5)
    for member in members:
        member.close()
    assert_split(results, assignments, sent)


def test_clean_leave_rebalances_without_waiting_for_the_session_timeout(kgroupsd):
    create_topic(kgroupsd.bootstrap, "ck-leave")
    members = [consumer(kgroupsd.bootstrap, "ck-leave-group", **{"session.timeout.ms": 30000})
               for _ in range(2)]
    for member in members:
        member.subscribe(["ck-leave"])
    wait_for_assignment(members)
    members[1].close()  # sends LeaveGroup
    started = time.monotonic()
    assignment = wait_for_assignment(members[:1])
    elapsed = time.monotonic() - started
    members[0].close()
    assert assignment == [set(range(PARTITIONS))]
    assert elapsed < 10, f"the survivor got all partitions only after {elapsed:.1f} s"


CRASHING_MEMBER = r"""
import sys
from confluent_kafka import Consumer, TopicPartition
bootstrap, topic, group = sys.argv[1:4]
member = Consumer({"bootstrap.servers": bootstrap, "group.id": group,
                   "auto.offset.reset": "earliest", "enable.auto.commit": False,
                   "session.timeout.ms": 3000, "heartbeat.interval.ms": 300})
member.subscribe([topic])
while len(member.assignment()) < 6:
    member.poll(0.1)
member.commit(offsets=[TopicPartition(topic, p, 4) for p in range(6)], asynchronous=False)
print("committed", flush=True)
while True:
    member.poll(0.1)
"""


def test_crashed_member_partitions_replay_from_the_last_commit(kgroupsd):
    sent = produce(kgroupsd.bootstrap, "ck-crash", 60)
    crashing = subprocess.Popen(
        [sys.executable, "-c", CRASHING_MEMBER, kgroupsd.bootstrap, "ck-crash", "ck-crash-group"],
        stdout=subprocess.PIPE)
    try:
        assert crashing.stdout.readline().strip() == b"committed", kgroupsd.log()
    finally:
        crashing.send_signal(signal.SIGKILL)  # no LeaveGroup
        crashing.wait()
    survivor = consumer(kgroupsd.bootstrap, "ck-crash-group")
    survivor.subscribe(["ck-crash"])
    rows = read(survivor, 36)
    assert not read(survivor, 1, deadline_s=1)
    survivor.close()
    # Offsets 0-3 of each partition were committed: they are not read again; 4-9 are replayed.
    assert sorted((p, o) for p, o, _ in rows) == [(p, o) for p in range(6) for o in range(4, 10)]
    assert {(p, v) for p, _, v in rows} <= sent
    assert "sent no heartbeat within its session timeout of 3000 ms" in kgroupsd.log()


def test_members_without_a_common_assignor_get_inconsistent_group_protocol(kgroupsd):
    create_topic(kgroupsd.bootstrap, "ck-mixed")
    ranged = consumer(kgroupsd.bootstrap, "ck-mixed-group", **{"partition.assignment.strategy": "range"})
    ranged.subscribe(["ck-mixed"])
    assert wait_for_assignment([ranged]) == [set(range(PARTITIONS))]
    robin = consumer(kgroupsd.bootstrap, "ck-mixed-group",
                     **{"partition.assignment.strategy": "roundrobin"})
    robin.subscribe(["ck-mixed"])
    error = None
    deadline = time.monotonic() + TIMEOUT_S
    while error is None and time.monotonic() < deadline:
        message = robin.poll(0.2)
        if message is not None and message.error() is not None:
            error = message.error()
    assert error is not None and error.code() == KafkaError.INCONSISTENT_GROUP_PROTOCOL, error
    # The group and its member are unharmed.
    assert not robin.assignment()
    assert {tp.partition for tp in ranged.assignment()} == set(range(PARTITIONS))
    robin.close()
    ranged.close()
