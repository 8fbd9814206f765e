# SPDX-License-Identifier: Apache-2.0
"""kgroupsd --brokers 3 and the cluster's admin APIs: ElectLeaders (43), AlterPartitionReassignments
(45), ListPartitionReassignments (46) and DescribeLogDirs (35), sent as raw requests (kafka-python
2.0.2's admin has none of them; flexible_wire encodes them by hand, independently of kgroupsd's
codec), answered with the cluster's real state:

- a preferred election moves leadership back to the preferred replica after it was stopped and
  started; an unclean one is not needed while a leader exists;
- a reassignment from [0, 1] to [1, 2] is listed while the added replica is late, completes once
  it caught up, and Metadata then shows replicas [1, 2]; refusals say what was wrong;
- DescribeLogDirs asked of each broker lists that broker's replicas with their sizes and lags.
"""
import io

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic
from kafka.protocol.metadata import MetadataRequest

from cluster_checks import broker_action, leader_of, partitions, wait_until
from flexible_wire import Reader, Writer, exchange
from raw_client import RawConnection

ELECT_LEADERS, ALTER_REASSIGNMENTS, LIST_REASSIGNMENTS, DESCRIBE_LOG_DIRS = 43, 45, 46, 35
NONE, UNKNOWN_TOPIC_OR_PARTITION, INVALID_REPLICA_ASSIGNMENT = 0, 3, 39
INVALID_REQUEST, PREFERRED_LEADER_NOT_AVAILABLE = 42, 80
ELECTION_NOT_NEEDED, NO_REASSIGNMENT_IN_PROGRESS = 84, 85


@pytest.fixture
def cluster(start_kgroupsd):
    return start_kgroupsd("--brokers", "3", "--http", "127.0.0.1:0",
                          "--replica-lag-time-max-ms", "500")


def create(broker, name, assignment):
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    topic = NewTopic(name, len(assignment), -1, replica_assignment=assignment)
    admin.create_topics([topic])[name].result(10)


def produce(broker, topic, partition, count, size=100):
    producer = Producer({"bootstrap.servers": broker.bootstrap, "acks": "all"})
    for i in range(count):
        producer.produce(topic, value=b"x" * size, partition=partition)
    assert producer.flush(10) == 0


def connect(broker, node):
    return RawConnection(broker.bootstrap.split(",")[node])


def call(broker, node, api_key, version, body, flexible):
    connection = connect(broker, node)
    try:
        return Reader(exchange(connection, api_key, version, body, flexible), flexible)
    finally:
        connection.close()


# --- ElectLeaders ---------------------------------------------------------------------------------

def elect_leaders(broker, election_type, topics, version=2, node=0):
    """topics: {name: [partitions]} or None (every partition). Returns (top-level error,
    {(topic, partition): (error, message)})."""
    flexible = version >= 2
    body = Writer(flexible)
    if version >= 1:
        body.int8(election_type)
    body.array(None if topics is None else list(topics.items()),
               lambda w, item: w.string(item[0]).array(item[1], lambda w2, p: w2.int32(p)).tags())
    body.int32(60000).tags()
    reader = call(broker, node, ELECT_LEADERS, version, body.bytes(), flexible)
    reader.int32()  # throttle_time_ms
    top_error = reader.int16() if version >= 1 else NONE
    results = {}

    def read_partition(r, topic):
        partition, error, message = r.int32(), r.int16(), r.string()
        r.tags()
        results[(topic, partition)] = (error, message)

    def read_topic(r):
        topic = r.string()
        r.array(lambda r2: read_partition(r2, topic))
        r.tags()

    reader.array(read_topic)
    reader.finish()
    return top_error, results


def test_a_preferred_election_moves_leadership_back_after_the_preferred_leader_restarts(cluster):
    create(cluster, "pref", [[0, 1, 2]])
    produce(cluster, "pref", 0, 5)
    assert leader_of(cluster, "pref") == 0
    broker_action(cluster, 0, "stop")
    wait_until(lambda: leader_of(cluster, "pref") == 1, what="broker 1 leading")

    # Broker 0 is stopped: it cannot lead yet (asked of broker 1, since 0 is down).
    error, results = elect_leaders(cluster, 0, {"pref": [0]}, node=1)
    assert error == NONE
    code, message = results[("pref", 0)]
    assert code == PREFERRED_LEADER_NOT_AVAILABLE and "start its broker" in message

    broker_action(cluster, 0, "start")
    wait_until(lambda: 0 in partitions(cluster, "pref")[0]["isr"], what="broker 0 back in the ISR")
    assert leader_of(cluster, "pref") == 1  # leadership does not move back by itself
    epoch_before = partitions(cluster, "pref")[0]["leader_epoch"]

    assert elect_leaders(cluster, 0, {"pref": [0]}) == (NONE, {("pref", 0): (NONE, None)})
    assert leader_of(cluster, "pref") == 0
    assert partitions(cluster, "pref")[0]["leader_epoch"] == epoch_before + 1

    # Again: not needed; unclean: not needed while there is a leader; unknown partitions.
    _, results = elect_leaders(cluster, 0, {"pref": [0, 7], "nope": [0]})
    assert results[("pref", 0)][0] == ELECTION_NOT_NEEDED
    assert results[("pref", 7)][0] == UNKNOWN_TOPIC_OR_PARTITION
    assert results[("nope", 0)][0] == UNKNOWN_TOPIC_OR_PARTITION
    assert "pref-7" in results[("pref", 7)][1]
    _, results = elect_leaders(cluster, 1, {"pref": [0]})
    assert results[("pref", 0)][0] == ELECTION_NOT_NEEDED
    # An unknown election type is refused as a whole.
    error, results = elect_leaders(cluster, 5, {"pref": [0]})
    assert error == INVALID_REQUEST and results[("pref", 0)][0] == INVALID_REQUEST


def test_null_partitions_elect_every_partition_and_list_only_those_elected(cluster):
    create(cluster, "all", [[0, 1], [1, 0], [2, 0]])
    broker_action(cluster, 0, "stop")
    wait_until(lambda: leader_of(cluster, "all", 0) == 1, what="broker 1 leading all-0")
    broker_action(cluster, 0, "start")
    wait_until(lambda: 0 in partitions(cluster, "all")[0]["isr"], what="broker 0 in the ISR")
    # v0 (always preferred, no top-level error) and v1 are served too.
    error, results = elect_leaders(cluster, 0, None, version=1)
    assert error == NONE
    assert results == {("all", 0): (NONE, None)}  # partitions 1 and 2 needed no election
    assert leader_of(cluster, "all", 0) == 0
    _, results = elect_leaders(cluster, 0, {"all": [1]}, version=0)
    assert results[("all", 1)][0] == ELECTION_NOT_NEEDED


# --- Reassignments --------------------------------------------------------------------------------

def alter_reassignments(broker, topics, node=0):
    """topics: {name: {partition: [replicas] or None}}. Returns {(topic, partition): (error,
    message)}."""
    body = Writer(True).int32(60000)

    def write_partition(w, item):
        w.int32(item[0]).array(item[1], lambda w2, r: w2.int32(r)).tags()

    body.array(list(topics.items()),
               lambda w, item: w.string(item[0]).array(list(item[1].items()),
                                                       write_partition).tags())
    body.tags()
    reader = call(broker, node, ALTER_REASSIGNMENTS, 0, body.bytes(), True)
    reader.int32()
    assert reader.int16() == NONE
    assert reader.string() is None
    results = {}

    def read_topic(r):
        topic = r.string()

        def read_partition(r2):
            partition, error, message = r2.int32(), r2.int16(), r2.string()
            r2.tags()
            results[(topic, partition)] = (error, message)

        r.array(read_partition)
        r.tags()

    reader.array(read_topic)
    reader.finish()
    return results


def list_reassignments(broker, topics=None, node=0):
    """Returns {(topic, partition): (replicas, adding, removing)}."""
    body = Writer(True).int32(60000)
    body.array(None if topics is None else list(topics.items()),
               lambda w, item: w.string(item[0]).array(item[1], lambda w2, p: w2.int32(p)).tags())
    body.tags()
    reader = call(broker, node, LIST_REASSIGNMENTS, 0, body.bytes(), True)
    reader.int32()
    assert reader.int16() == NONE
    assert reader.string() is None
    listed = {}

    def read_topic(r):
        topic = r.string()

        def read_partition(r2):
            partition = r2.int32()
            nodes = [r2.array(lambda r3: r3.int32()) for _ in range(3)]
            r2.tags()
            listed[(topic, partition)] = tuple(nodes)

        r.array(read_partition)
        r.tags()

    reader.array(read_topic)
    reader.finish()
    return listed


def metadata_partition(broker, topic, partition=0):
    """(leader, replicas, isr) of the partition as Metadata v1 (kafka-python's struct) shows it."""
    connection = connect(broker, 1)
    try:
        response = connection.request(MetadataRequest[1](topics=[topic]))
    finally:
        connection.close()
    (_, name, _, parts), = response.topics
    for _, index, leader, replicas, isr in parts:
        if index == partition:
            return leader, list(replicas), list(isr)
    raise AssertionError(f"{name}-{partition} not in Metadata")


def test_a_reassignment_from_0_1_to_1_2_completes_and_metadata_then_shows_1_2(cluster):
    create(cluster, "moving", [[0, 1], [0, 1]])
    produce(cluster, "moving", 0, 5)
    # Broker 2's followers fetch late: the move stays in progress and is listed.
    broker_action(cluster, 2, "replication-delay", {"ms": 3_600_000})
    assert alter_reassignments(cluster, {"moving": {0: [1, 2]}}) == {("moving", 0): (NONE, None)}
    assert list_reassignments(cluster) == {("moving", 0): ([1, 2, 0], [2], [0])}
    assert list_reassignments(cluster, {"moving": [0, 1, 9], "nope": [0]}, node=2) == {
        ("moving", 0): ([1, 2, 0], [2], [0])}
    assert metadata_partition(cluster, "moving") == (0, [1, 2, 0], [1, 0])  # ISR in replica order

    broker_action(cluster, 2, "replication-delay", {"ms": 0})
    wait_until(lambda: list_reassignments(cluster) == {}, what="the reassignment to complete")
    leader, replicas, isr = metadata_partition(cluster, "moving")
    assert replicas == [1, 2] and sorted(isr) == [1, 2]
    assert leader == 1  # broker 0 left; the first target leads
    assert partitions(cluster, "moving")[0]["high_watermark"] == 5
    assert metadata_partition(cluster, "moving", 1)[1] == [0, 1]  # the other partition stayed

    # Refusals leave the partition as it is and say why.
    results = alter_reassignments(cluster, {"moving": {0: None, 1: [1, 5], 7: [0]},
                                            "nope": {0: [0]}})
    code, message = results[("moving", 0)]
    assert code == NO_REASSIGNMENT_IN_PROGRESS and "nothing to cancel" in message
    code, message = results[("moving", 1)]
    assert code == INVALID_REPLICA_ASSIGNMENT and "broker 5 does not exist" in message
    assert results[("moving", 7)][0] == UNKNOWN_TOPIC_OR_PARTITION
    assert results[("nope", 0)][0] == UNKNOWN_TOPIC_OR_PARTITION
    results = alter_reassignments(cluster, {"moving": {1: [2, 2]}})
    assert results[("moving", 1)][0] == INVALID_REPLICA_ASSIGNMENT
    results = alter_reassignments(cluster, {"moving": {1: []}})
    assert results[("moving", 1)][0] == INVALID_REPLICA_ASSIGNMENT
    assert metadata_partition(cluster, "moving", 1)[1] == [0, 1]


def test_cancelling_a_reassignment_in_progress_restores_the_original_replicas(cluster):
    create(cluster, "undo", [[0, 1]])
    broker_action(cluster, 2, "stop")
    assert alter_reassignments(cluster, {"undo": {0: [2, 1]}}) == {("undo", 0): (NONE, None)}
    assert list_reassignments(cluster, {"undo": [0]}) == {("undo", 0): ([2, 1, 0], [2], [0])}
    assert alter_reassignments(cluster, {"undo": {0: None}}) == {("undo", 0): (NONE, None)}
    assert list_reassignments(cluster) == {}
    assert metadata_partition(cluster, "undo")[:2] == (0, [0, 1])


# --- DescribeLogDirs ------------------------------------------------------------------------------

def describe_log_dirs(broker, node, topics=None, version=4):
    """Returns (log_dir, {(topic, partition): (size, offset_lag, is_future)}, total, usable)."""
    flexible = version >= 2
    body = Writer(flexible)
    body.array(None if topics is None else list(topics.items()),
               lambda w, item: w.string(item[0]).array(item[1], lambda w2, p: w2.int32(p)).tags())
    body.tags()
    reader = call(broker, node, DESCRIBE_LOG_DIRS, version, body.bytes(), flexible)
    reader.int32()
    if version >= 3:
        assert reader.int16() == NONE
    dirs = []

    def read_dir(r):
        assert r.int16() == NONE
        log_dir = r.string()
        found = {}

        def read_topic(r2):
            topic = r2.string()

            def read_partition(r3):
                partition = r3.int32()
                found[(topic, partition)] = (r3.int64(), r3.int64(), r3.boolean())
                r3.tags()

            r2.array(read_partition)
            r2.tags()

        r.array(read_topic)
        totals = (r.int64(), r.int64()) if version >= 4 else (None, None)
        r.tags()
        dirs.append((log_dir, found) + totals)

    reader.array(read_dir)
    reader.finish()
    assert len(dirs) == 1, "one log dir per broker"
    return dirs[0]


def test_describe_log_dirs_lists_each_brokers_replicas_with_their_sizes(cluster):
    create(cluster, "dirs", [[0, 1], [1, 2]])
    produce(cluster, "dirs", 0, 10)
    produce(cluster, "dirs", 1, 4)
    seen = {}
    for node in range(3):
        log_dir, found, total, usable = describe_log_dirs(cluster, node)
        assert log_dir == f"/kgroupsd/broker-{node}"
        assert total > 0 and 0 <= usable <= total  # the logs' shared memory budget
        seen[node] = {key: value for key, value in found.items() if key[0] == "dirs"}
    assert set(seen[0]) == {("dirs", 0)}
    assert set(seen[1]) == {("dirs", 0), ("dirs", 1)}
    assert set(seen[2]) == {("dirs", 1)}
    size0, lag0, future0 = seen[0][("dirs", 0)]
    assert size0 > 10 * 100 and lag0 == 0 and future0 is False
    assert seen[1][("dirs", 0)] == (size0, 0, False)  # an in-sync follower holds as much
    assert seen[1][("dirs", 1)][0] < size0

    # A late follower holds less and lags by what it lacks; v0 and a named partition too.
    broker_action(cluster, 2, "replication-delay", {"ms": 3_600_000})
    produce_acks_1(cluster, "dirs", 1, 3)
    _, found, _, _ = describe_log_dirs(cluster, 2, {"dirs": [0, 1]}, version=0)
    assert set(found) == {("dirs", 1)}
    size, lag, _ = found[("dirs", 1)]
    assert lag == 3 and size == seen[2][("dirs", 1)][0]
    _, leader_view, _, _ = describe_log_dirs(cluster, 1, {"dirs": [1]}, version=2)
    assert leader_view[("dirs", 1)][1] == 0 and leader_view[("dirs", 1)][0] > size


def produce_acks_1(broker, topic, partition, count):
    producer = Producer({"bootstrap.servers": broker.bootstrap, "acks": "1"})
    for _ in range(count):
        producer.produce(topic, value=b"y" * 100, partition=partition)
    assert producer.flush(10) == 0
