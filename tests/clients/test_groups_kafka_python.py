# SPDX-License-Identifier: Apache-2.0
"""kafka-python 2.0.2 consumer groups against kgroupsd: resume from committed
offsets, two members splitting a topic, crash and replay after the session timeout, a clean
leave that rebalances at once, and INCONSISTENT_GROUP_PROTOCOL for assignors in common with
nobody."""
import os
import signal
import subprocess
import sys
import time

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.coordinator.assignors.range import RangePartitionAssignor
from kafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor
from kafka.errors import InconsistentGroupProtocolError
from kafka.structs import OffsetAndMetadata

from group_checks import assert_split, read_in_parallel
from group_checks import wait_for_assignment as wait_until_settled

TIMEOUT_S = 30
PARTITIONS = 6
FAST_GROUPS = ("--group-min-session-timeout-ms", "1000")


@pytest.fixture
def kgroupsd(start_kgroupsd):
    """A kgroupsd that accepts the short session timeouts these tests use."""
    return start_kgroupsd(*FAST_GROUPS)


def produce(bootstrap, topic, count):
    """Sends `count` messages, message i to partition i % 6; returns {(partition, value)}."""
    producer = KafkaProducer(bootstrap_servers=bootstrap)
    for i in range(count):
        producer.send(topic, key=b"k%d" % i, value=b"v%d" % i, partition=i % PARTITIONS)
    producer.flush(TIMEOUT_S)
    producer.close()
    return {(i % PARTITIONS, b"v%d" % i) for i in range(count)}


def consumer(bootstrap, group, **config):
    settings = dict(bootstrap_servers=bootstrap, group_id=group, auto_offset_reset="earliest",
                    enable_auto_commit=False, session_timeout_ms=3000,
                    heartbeat_interval_ms=300, api_version=(0, 11, 0))
    settings.update(config)
    return KafkaConsumer(**settings)


def read(member, count, deadline_s=TIMEOUT_S):
    """Polls until `count` messages arrived (or the deadline); returns [(partition, offset, value)]."""
    rows = []
    deadline = time.monotonic() + deadline_s
    while len(rows) < count and time.monotonic() < deadline:
        for records in member.poll(timeout_ms=200).values():
            rows.extend((r.partition, r.offset, r.value) for r in records)
    return rows


def wait_for_assignment(members, partitions, deadline_s=TIMEOUT_S):
    """Polls every member until their assignments are disjoint and cover `partitions`;
    returns the assignments."""
    return wait_until_settled(members, lambda member: member.poll(timeout_ms=100, max_records=1),
                              lambda member: {tp.partition for tp in member.assignment()},
                              partitions, deadline_s)


def test_group_of_one_commits_and_a_new_member_resumes(kgroupsd):
    sent = produce(kgroupsd.bootstrap, "kp-resume", 60)
    first = consumer(kgroupsd.bootstrap, "kp-resume-group")
    first.subscribe(["kp-resume"])
    started = time.monotonic()
    rows = read(first, 36)
    join_s = time.monotonic() - started
    # Commit exactly what was read (the next offset per partition), then stop.
    positions = {}
    for partition, offset, _ in rows:
        positions[partition] = max(positions.get(partition, 0), offset + 1)
    first.commit({TopicPartition("kp-resume", p): OffsetAndMetadata(o, "") for p, o in
                  positions.items()})
    first.close()
    second = consumer(kgroupsd.bootstrap, "kp-resume-group")
    second.subscribe(["kp-resume"])
    rest = read(second, 60 - len(rows))
    assert not read(second, 1, deadline_s=1), "read a message twice"
    second.close()
    values = [(p, v) for p, _, v in rows + rest]
    assert len(values) == len(set(values)) == 60, "a message was read twice or lost"
    assert set(values) == sent
    assert join_s < 5, f"the group of one took {join_s:.1f} s to join and read"


def test_two_members_split_six_partitions_without_overlap_or_gap(kgroupsd):
    produce(kgroupsd.bootstrap, "kp-split", 0)  # creates the topic
    members = [consumer(kgroupsd.bootstrap, "kp-split-group") for _ in range(2)]
    for member in members:
        member.subscribe(["kp-split"])
    assignments = wait_for_assignment(members, set(range(PARTITIONS)))
    assert assignments[0].isdisjoint(assignments[1]) and all(assignments), assignments
    assert assignments[0] | assignments[1] == set(range(PARTITIONS)), assignments
    sent = produce(kgroupsd.bootstrap, "kp-split", 120)
    results = read_in_parallel(members, read, 1000, 5)
    for member in members:
        member.close()
    assert_split(results, assignments, sent)


def test_clean_leave_rebalances_without_waiting_for_the_session_timeout(start_kgroupsd):
    broker = start_kgroupsd()
    produce(broker.bootstrap, "kp-leave", 0)
    slow_sessions = dict(session_timeout_ms=30000, heartbeat_interval_ms=300)
    members = [consumer(broker.bootstrap, "kp-leave-group", **slow_sessions) for _ in range(2)]
    for member in members:
        member.subscribe(["kp-leave"])
    wait_for_assignment(members, set(range(PARTITIONS)))
    members[1].close()  # sends LeaveGroup
    started = time.monotonic()
    assignment = wait_for_assignment(members[:1], set(range(PARTITIONS)))
    elapsed = time.monotonic() - started
    members[0].close()
    assert assignment == [set(range(PARTITIONS))]
    assert elapsed < 10, f"the survivor got all partitions only after {elapsed:.1f} s"


CRASHING_MEMBER = r"""
import sys
from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
bootstrap, topic, group = sys.argv[1:4]
member = KafkaConsumer(bootstrap_servers=bootstrap, group_id=group, auto_offset_reset="earliest",
                       enable_auto_commit=False, session_timeout_ms=3000,
                       heartbeat_interval_ms=300, api_version=(0, 11, 0))
member.subscribe([topic])
while len(member.assignment()) < 6:
    member.poll(timeout_ms=100)
member.commit({TopicPartition(topic, p): OffsetAndMetadata(4, "") for p in range(6)})
print("committed", flush=True)
while True:
    member.poll(timeout_ms=100)
"""


def test_crashed_member_partitions_replay_from_the_last_commit(start_kgroupsd):
    broker = start_kgroupsd(*FAST_GROUPS)
    sent = produce(broker.bootstrap, "kp-crash", 60)
    crashing = subprocess.Popen(
        [sys.executable, "-c", CRASHING_MEMBER, broker.bootstrap, "kp-crash", "kp-crash-group"],
        stdout=subprocess.PIPE)
    try:
        assert crashing.stdout.readline().strip() == b"committed", broker.log()
    finally:
        crashing.send_signal(signal.SIGKILL)  # no LeaveGroup
        crashing.wait()
    survivor = consumer(broker.bootstrap, "kp-crash-group")
    survivor.subscribe(["kp-crash"])
    started = time.monotonic()
    rows = read(survivor, 36)
    elapsed = time.monotonic() - started
    assert not read(survivor, 1, deadline_s=1)
    survivor.close()
    # Offsets 0-3 of each partition were committed: they are not read again; 4-9 are replayed.
    assert sorted((p, o) for p, o, _ in rows) == [(p, o) for p in range(6) for o in range(4, 10)]
    assert {(p, v) for p, _, v in rows} <= sent
    assert elapsed < 3 + 5, f"the survivor waited {elapsed:.1f} s for the session timeout of 3 s"
    assert "sent no heartbeat within its session timeout of 3000 ms" in broker.log()


def test_members_without_a_common_assignor_get_inconsistent_group_protocol(kgroupsd):
    produce(kgroupsd.bootstrap, "kp-mixed", 0)
    ranged = consumer(kgroupsd.bootstrap, "kp-mixed-group",
                      partition_assignment_strategy=[RangePartitionAssignor])
    ranged.subscribe(["kp-mixed"])
    wait_for_assignment([ranged], set(range(PARTITIONS)))
    robin = consumer(kgroupsd.bootstrap, "kp-mixed-group",
                     partition_assignment_strategy=[RoundRobinPartitionAssignor])
    robin.subscribe(["kp-mixed"])
    with pytest.raises(InconsistentGroupProtocolError):
        robin.poll(timeout_ms=5000)
    # The group and its member are unharmed.
    ranged.poll(timeout_ms=200)
    assert {tp.partition for tp in ranged.assignment()} == set(range(PARTITIONS))
    robin.close(autocommit=False)
    ranged.close()


def test_admin_lists_and_describes_groups(kgroupsd):
    from kafka.admin import KafkaAdminClient
    produce(kgroupsd.bootstrap, "kp-admin", 0)
    member = consumer(kgroupsd.bootstrap, "kp-admin-group")
    member.subscribe(["kp-admin"])
    wait_for_assignment([member], set(range(PARTITIONS)))
    admin = KafkaAdminClient(bootstrap_servers=kgroupsd.bootstrap, api_version=(0, 11, 0))
    try:
        assert ("kp-admin-group", "consumer") in admin.list_consumer_groups()  # ListGroups v0
        described, unknown = admin.describe_consumer_groups(["kp-admin-group", "no-such-group"])
    finally:
        admin.close()
        member.close()
    assert (described.error_code, described.state, described.protocol) == (0, "Stable", "range")
    assert [(m.client_id, m.client_host) for m in described.members] == [
        ("kafka-python-2.0.2", "/127.0.0.1")]
    assignment = described.members[0].member_assignment.assignment
    assert [(topic, sorted(partitions)) for topic, partitions in assignment] == [
        ("kp-admin", list(range(PARTITIONS)))]
    assert (unknown.error_code, unknown.state, unknown.members) == (0, "Dead", [])
