# SPDX-License-Identifier: Apache-2.0
"""The newer versions of the group and admin APIs, byte by byte on the wire (flexible versions
included), for what kafka-python has no structs for: batched FindCoordinator (v4+),
DescribeCluster, OffsetForLeaderEpoch (KIP-320), CreateTopics v7 (configs echo, topic ids),
static membership over JoinGroup v5 (KIP-345), and the consumer-group protocol (KIP-848:
ConsumerGroupHeartbeat, ConsumerGroupDescribe) with ListGroups v5 and DescribeGroups v5
seeing its groups."""
from kafka.protocol.produce import ProduceRequest

from flexible_wire import Reader, Writer, exchange
from kip848_wire import consumer_heartbeat, create_topic_v7
from raw_client import RawConnection, record_batch

NONE = 0
UNKNOWN_TOPIC_OR_PARTITION = 3
COORDINATOR_NOT_AVAILABLE = 15
UNKNOWN_MEMBER_ID = 25
UNKNOWN_LEADER_EPOCH = 75
FENCED_LEADER_EPOCH = 74
MEMBER_ID_REQUIRED = 79
FENCED_INSTANCE_ID = 82
INVALID_REQUEST = 42
MISMATCHED_ENDPOINT_TYPE = 114
UNSUPPORTED_ENDPOINT_TYPE = 115
GROUP_ID_NOT_FOUND = 69


def bootstrap_port(broker):
    return int(broker.bootstrap.rsplit(":", 1)[1])


# --- FindCoordinator -------------------------------------------------------------------------

def find_coordinators(connection, version, keys, key_type=0):
    body = Writer(True).int8(key_type).array(keys, Writer.string).tags().bytes()
    reader = Reader(exchange(connection, 10, version, body, flexible=True), True)
    reader.int32()  # throttle_time_ms

    def coordinator(r):
        entry = {"key": r.string(), "node_id": r.int32(), "host": r.string(), "port": r.int32(),
                 "error": r.int16(), "message": r.string()}
        r.tags()
        return entry

    coordinators = reader.array(coordinator)
    reader.finish()
    return coordinators


def test_find_coordinator_v4_answers_each_distinct_key_once(kgroupsd):
    connection = RawConnection(kgroupsd.bootstrap)
    for version in (4, 6):
        answers = find_coordinators(connection, version, ["orders", "billing", "orders"])
        assert [a["key"] for a in answers] == ["orders", "billing"]
        for answer in answers:
            assert answer["error"] == NONE
            assert (answer["node_id"], answer["host"], answer["port"]) == (
                0, "127.0.0.1", bootstrap_port(kgroupsd))
    connection.close()


def test_find_coordinator_for_a_transaction_is_this_broker(kgroupsd):
    connection = RawConnection(kgroupsd.bootstrap)
    [answer] = find_coordinators(connection, 4, ["tx-1"], key_type=1)
    assert answer["error"] == NONE
    assert (answer["node_id"], answer["port"]) == (0, bootstrap_port(kgroupsd))
    # v3: flexible, one key, the flat answer.
    body = Writer(True).string("tx-1").int8(1).tags().bytes()
    reader = Reader(exchange(connection, 10, 3, body, flexible=True), True)
    reader.int32()
    assert reader.int16() == NONE
    connection.close()


def test_find_coordinator_for_a_share_group_is_not_available(kgroupsd):
    connection = RawConnection(kgroupsd.bootstrap)
    [answer] = find_coordinators(connection, 6, ["share-1"], key_type=2)
    assert answer["error"] == COORDINATOR_NOT_AVAILABLE
    assert "key_type 0" in answer["message"]
    connection.close()


# --- DescribeCluster -------------------------------------------------------------------------

def describe_cluster(connection, version, endpoint_type=1):
    body = Writer(True).boolean(False)
    if version >= 1:
        body.int8(endpoint_type)
    reader = Reader(exchange(connection, 60, version, body.tags().bytes(), flexible=True), True)
    reader.int32()
    result = {"error": reader.int16(), "message": reader.string()}
    if version >= 1:
        result["endpoint_type"] = reader.int8()
    result["cluster_id"] = reader.string()
    result["controller_id"] = reader.int32()

    def broker(r):
        entry = (r.int32(), r.string(), r.int32(), r.string())
        r.tags()
        return entry

    result["brokers"] = reader.array(broker)
    result["authorized_operations"] = reader.int32()
    reader.finish()
    return result


def test_describe_cluster_lists_this_broker_as_cluster_and_controller(kgroupsd):
    connection = RawConnection(kgroupsd.bootstrap)
    for version in (0, 1):
        result = describe_cluster(connection, version)
        assert result["error"] == NONE
        assert result["cluster_id"] == "kgroupsd"
        assert result["controller_id"] == 0
        assert result["brokers"] == [(0, "127.0.0.1", bootstrap_port(kgroupsd), None)]
        assert result["authorized_operations"] == -2 ** 31
    connection.close()


def test_describe_cluster_refuses_controller_and_unknown_endpoint_types(kgroupsd):
    connection = RawConnection(kgroupsd.bootstrap)
    controllers = describe_cluster(connection, 1, endpoint_type=2)
    assert controllers["error"] == MISMATCHED_ENDPOINT_TYPE
    assert controllers["brokers"] == []
    unknown = describe_cluster(connection, 1, endpoint_type=7)
    assert unknown["error"] == UNSUPPORTED_ENDPOINT_TYPE
    assert "endpoint_type 7" in unknown["message"]
    connection.close()


# --- OffsetForLeaderEpoch --------------------------------------------------------------------

def produce(connection, topic, partition, count):
    batch = record_batch([(b"k%d" % i, b"v%d" % i) for i in range(count)])
    response = connection.request(ProduceRequest[3](
        transactional_id=None, required_acks=1, timeout=1000, topics=[(topic, [(partition, batch)])]))
    assert response.topics[0][1][0][1] == NONE


def offsets_for_epochs(connection, topic, asks):
    """asks: [(partition, current_leader_epoch, leader_epoch)] -> {partition: (error, epoch,
    end offset)}, with OffsetForLeaderEpoch v4."""
    def write_partition(w, ask):
        w.int32(ask[0]).int32(ask[1]).int32(ask[2]).tags()

    body = Writer(True).int32(-1).array(
        [topic], lambda w, name: w.string(name).array(asks, write_partition).tags()).tags()
    reader = Reader(exchange(connection, 23, 4, body.bytes(), flexible=True), True)
    reader.int32()
    answers = {}

    def read_partition(r):
        error, partition, epoch, end = r.int16(), r.int32(), r.int32(), r.int64()
        r.tags()
        answers[partition] = (error, epoch, end)

    def read_topic(r):
        assert r.string() == topic
        r.array(read_partition)
        r.tags()

    reader.array(read_topic)
    reader.finish()
    return answers


def test_offset_for_leader_epoch_gives_the_high_watermark_of_epoch_zero(start_kgroupsd):
    broker = start_kgroupsd("--topic", "epochs:2")
    connection = RawConnection(broker.bootstrap)
    produce(connection, "epochs", 0, 3)
    answers = offsets_for_epochs(connection, "epochs", [(0, 0, 0), (1, -1, 0), (0, 0, 0)])
    assert answers == {0: (NONE, 0, 3), 1: (NONE, 0, 0)}
    # An epoch this broker never had: unknown (-1, -1), as Kafka's leader-epoch cache says.
    assert offsets_for_epochs(connection, "epochs", [(0, 0, 4)]) == {0: (NONE, -1, -1)}
    # current_leader_epoch is checked: newer is unknown, older is fenced.
    assert offsets_for_epochs(connection, "epochs", [(0, 1, 0)])[0][0] == UNKNOWN_LEADER_EPOCH
    assert offsets_for_epochs(connection, "epochs", [(0, -3, 0)])[0][0] == FENCED_LEADER_EPOCH
    assert offsets_for_epochs(connection, "epochs", [(9, 0, 0)])[9][0] == UNKNOWN_TOPIC_OR_PARTITION
    connection.close()


# --- CreateTopics v7 -------------------------------------------------------------------------

def test_create_topics_v7_echoes_the_topic_with_its_id_and_configs(kgroupsd):
    connection = RawConnection(kgroupsd.bootstrap)
    checked = create_topic_v7(connection, "echoed", 3, validate_only=True)
    assert (checked["error"], checked["id"]) == (NONE, bytes(16))
    created = create_topic_v7(connection, "echoed", 3, configs=[("retention.ms", "60000")])
    assert created["error"] == NONE
    assert created["id"] != bytes(16)
    assert (created["partitions"], created["replication_factor"]) == (3, 1)
    configs = {c["name"]: (c["value"], c["source"]) for c in created["configs"]}
    # Every topic config, each with its source: 1 given by the request, 5 Kafka's default.
    assert configs["retention.ms"] == ("60000", 1)
    assert configs["retention.bytes"] == ("-1", 5)
    assert configs["cleanup.policy"] == ("delete", 5)
    assert len(configs) >= 30
    again = create_topic_v7(connection, "echoed", 3)
    assert again["error"] == 36  # TOPIC_ALREADY_EXISTS
    assert again["configs"] is None and again["partitions"] == -1
    connection.close()


# --- Static membership (KIP-345) over JoinGroup v5 / SyncGroup v3 / Heartbeat v3 ------------

def join_v5(connection, group, member_id, instance_id):
    """JoinGroup v5 with one "range" protocol; the members list holds (id, instance id)."""
    body = (Writer(False).string(group).int32(10000).int32(10000).string(member_id)
            .string(instance_id).string("consumer")
            .array([("range", b"\x00\x01")], lambda w, p: w.string(p[0]).blob(p[1])))
    reader = Reader(exchange(connection, 11, 5, body.bytes(), flexible=False), False)
    reader.int32()
    result = {"error": reader.int16(), "generation": reader.int32(), "protocol": reader.string(),
              "leader": reader.string(), "member_id": reader.string()}

    def member(r):
        member_id, instance = r.string(), r.string()
        r.blob()
        return (member_id, instance)

    result["members"] = reader.array(member)
    assert reader.at_end()
    return result


def sync_v3(connection, group, generation, member_id, instance_id, assignments):
    """SyncGroup v3; assignments: [(member id, bytes)]. Returns (error, own assignment)."""
    body = (Writer(False).string(group).int32(generation).string(member_id).string(instance_id)
            .array(assignments, lambda w, a: w.string(a[0]).blob(a[1])))
    reader = Reader(exchange(connection, 14, 3, body.bytes(), flexible=False), False)
    reader.int32()
    error = reader.int16()
    return error, reader.blob()


def heartbeat_v3(connection, group, generation, member_id, instance_id):
    body = Writer(False).string(group).int32(generation).string(member_id).string(instance_id)
    reader = Reader(exchange(connection, 12, 3, body.bytes(), flexible=False), False)
    reader.int32()
    return reader.int16()


def test_a_static_member_restarting_gets_its_assignment_back_without_a_rebalance(kgroupsd):
    connection = RawConnection(kgroupsd.bootstrap)
    first = join_v5(connection, "static", "", "instance-a")
    assert first["error"] == NONE  # static members skip MEMBER_ID_REQUIRED
    assert first["leader"] == first["member_id"]
    assert first["members"] == [(first["member_id"], "instance-a")]
    error, assignment = sync_v3(connection, "static", first["generation"], first["member_id"],
                                "instance-a", [(first["member_id"], b"partitions 0-5")])
    assert (error, assignment) == (NONE, b"partitions 0-5")

    # The process restarts: same instance id, no member id. Same generation: no rebalance.
    again = join_v5(connection, "static", "", "instance-a")
    assert again["error"] == NONE
    assert again["generation"] == first["generation"]
    assert again["member_id"] != first["member_id"]
    error, assignment = sync_v3(connection, "static", again["generation"], again["member_id"],
                                "instance-a", [])
    assert (error, assignment) == (NONE, b"partitions 0-5")

    # The old incarnation is fenced; the new one heartbeats.
    assert heartbeat_v3(connection, "static", first["generation"], first["member_id"],
                        "instance-a") == FENCED_INSTANCE_ID
    assert heartbeat_v3(connection, "static", again["generation"], again["member_id"],
                        "instance-a") == NONE
    # A dynamic member (no instance id) on v5 first gets MEMBER_ID_REQUIRED.
    assert join_v5(connection, "static", "", None)["error"] == MEMBER_ID_REQUIRED
    connection.close()


# --- KIP-848: ConsumerGroupHeartbeat, ConsumerGroupDescribe, ListGroups v5 -----------------

def test_two_consumer_protocol_members_split_partitions_without_ever_sharing_one(kgroupsd):
    connection = RawConnection(kgroupsd.bootstrap)
    topic_id = create_topic_v7(connection, "kip848", 4)["id"]
    members = {}
    for name in ("a", "b"):
        joined = consumer_heartbeat(connection, "cg", "", 0, topics=["kip848"], owned={},
                                    rebalance_timeout_ms=10000)
        assert joined["error"] == NONE, joined
        assert joined["epoch"] >= 1 and joined["interval"] > 0
        members[name] = {"id": joined["member_id"], "epoch": joined["epoch"],
                         "owned": (joined["assignment"] or {}).get(topic_id, [])}
        if name == "a":
            assert sorted(members["a"]["owned"]) == [0, 1, 2, 3]

    # Heartbeat in turns, reporting what each owns, until both hold two partitions.
    for _ in range(10):
        for member in members.values():
            answer = consumer_heartbeat(connection, "cg", member["id"], member["epoch"],
                                        owned={topic_id: member["owned"]})
            assert answer["error"] == NONE, answer
            member["epoch"] = answer["epoch"]
            if answer["assignment"] is not None:
                member["owned"] = answer["assignment"].get(topic_id, [])
            a, b = set(members["a"]["owned"]), set(members["b"]["owned"])
            assert not a & b, "a partition was assigned to two members at once"
        if len(members["a"]["owned"]) == 2 and len(members["b"]["owned"]) == 2:
            break
    assert sorted(members["a"]["owned"] + members["b"]["owned"]) == [0, 1, 2, 3]
    assert len(members["a"]["owned"]) == 2

    described = describe_consumer_groups(connection, ["cg", "cg", "nope"])
    assert [g["group_id"] for g in described] == ["cg", "nope"]
    assert described[0]["state"] == "Stable" and described[0]["assignor"] == "uniform"
    assert sorted(described[0]["members"]) == sorted(m["id"] for m in members.values())
    assert described[1]["error"] == GROUP_ID_NOT_FOUND

    assert ("cg", "consumer", "Stable") in list_groups_v5(connection)
    # Leaving (epoch -1) hands the partitions to the other member.
    left = consumer_heartbeat(connection, "cg", members["a"]["id"], -1)
    assert (left["error"], left["epoch"]) == (NONE, -1)
    stayed = consumer_heartbeat(connection, "cg", members["b"]["id"], members["b"]["epoch"],
                                owned={topic_id: members["b"]["owned"]})
    assert sorted(stayed["assignment"][topic_id]) == [0, 1, 2, 3]
    connection.close()


def test_a_consumer_protocol_member_cannot_join_a_classic_group_with_members(kgroupsd):
    connection = RawConnection(kgroupsd.bootstrap)
    assert join_v5(connection, "mixed", "", "classic-1")["error"] == NONE
    create_topic_v7(connection, "mixed-topic", 1)
    refused = consumer_heartbeat(connection, "mixed", "", 0, topics=["mixed-topic"], owned={},
                                 rebalance_timeout_ms=10000)
    assert refused["error"] == GROUP_ID_NOT_FOUND
    unknown = consumer_heartbeat(connection, "mixed", "no-such-member", 3, owned={})
    assert unknown["error"] != NONE
    connection.close()


def describe_consumer_groups(connection, groups):
    body = Writer(True).array(groups, Writer.string).boolean(False).tags()
    reader = Reader(exchange(connection, 69, 0, body.bytes(), flexible=True), True)
    reader.int32()

    def read_assignment(r):
        def read_topic(r2):
            entry = (r2.uuid(), r2.string(), r2.array(Reader.int32))
            r2.tags()
            return entry

        topics = r.array(read_topic)
        r.tags()
        return topics

    def read_member(r):
        member_id = r.string()
        r.string(), r.string(), r.int32(), r.string(), r.string()  # instance, rack, epoch, client
        r.array(Reader.string), r.string()  # subscription
        read_assignment(r), read_assignment(r)
        r.tags()
        return member_id

    def read_group(r):
        group = {"error": r.int16(), "message": r.string(), "group_id": r.string(),
                 "state": r.string(), "epoch": r.int32(), "assignment_epoch": r.int32(),
                 "assignor": r.string(), "members": r.array(read_member)}
        r.int32()
        r.tags()
        return group

    described = reader.array(read_group)
    reader.finish()
    return described


def list_groups_v5(connection, states=(), types=()):
    body = Writer(True).array(list(states), Writer.string).array(list(types), Writer.string).tags()
    reader = Reader(exchange(connection, 16, 5, body.bytes(), flexible=True), True)
    reader.int32()
    assert reader.int16() == NONE

    def read_group(r):
        group_id, _, state, group_type = r.string(), r.string(), r.string(), r.string()
        r.tags()
        return group_id, group_type, state

    groups = reader.array(read_group)
    reader.finish()
    return groups


def test_list_groups_v5_filters_by_type_and_state(kgroupsd):
    connection = RawConnection(kgroupsd.bootstrap)
    create_topic_v7(connection, "listed", 2)
    assert join_v5(connection, "classic-group", "", "i-1")["error"] == NONE
    joined = consumer_heartbeat(connection, "consumer-group", "", 0, topics=["listed"], owned={},
                                rebalance_timeout_ms=10000)
    assert joined["error"] == NONE
    everything = list_groups_v5(connection)
    assert {g[0]: g[1] for g in everything} == {"classic-group": "classic",
                                                 "consumer-group": "consumer"}
    assert [g[0] for g in list_groups_v5(connection, types=["consumer"])] == ["consumer-group"]
    assert [g[0] for g in list_groups_v5(connection, types=["classic"])] == ["classic-group"]
    assert list_groups_v5(connection, states=["Dead"]) == []
    connection.close()
