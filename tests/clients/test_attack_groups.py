# SPDX-License-Identifier: Apache-2.0
"""Attacks on the group coordinator: ids longer than any field should carry, groups without
end, members without end, offset metadata without end. Each limit answers with Kafka's error
for it (INVALID_REQUEST, INVALID_GROUP_ID, GROUP_MAX_SIZE_REACHED, POLICY_VIOLATION,
OFFSET_METADATA_TOO_LARGE), the responses stay decodable, and nothing is stored."""
import io
import threading

from kafka.protocol.admin import DescribeGroupsRequest, ListGroupsRequest
from kafka.protocol.commit import OffsetCommitRequest, OffsetFetchRequest
from kafka.protocol.group import JoinGroupRequest

from attack_checks import assert_responsive, send_with_client_id
from raw_client import RawConnection


def join_request(group, member_id="", session_timeout=30000):
    return JoinGroupRequest[0](group=group, session_timeout=session_timeout, member_id=member_id,
                               protocol_type="consumer",
                               group_protocols=[("range", b"\x00\x01")])


def test_a_32767_byte_client_id_gets_invalid_request_and_responses_stay_decodable(kgroupsd):
    connection = RawConnection(kgroupsd.bootstrap)
    request = join_request("long-client")
    sent = send_with_client_id(connection, request, b"c" * 32767)
    correlation_id, body = connection.receive()
    assert correlation_id == sent
    response = request.RESPONSE_TYPE.decode(io.BytesIO(body))
    assert response.error_code == 42  # INVALID_REQUEST
    described = connection.request(DescribeGroupsRequest[0](groups=["long-client"]))
    assert described.groups[0][2] == "Dead"  # nothing was created
    connection.close()
    assert "--max-id-length" in kgroupsd.log() or "client id" in kgroupsd.log()


def test_group_and_member_ids_beyond_the_limit_are_refused(start_kgroupsd):
    broker = start_kgroupsd("--max-id-length", "64")
    connection = RawConnection(broker.bootstrap)
    assert connection.request(join_request("g" * 65)).error_code == 24  # INVALID_GROUP_ID
    assert connection.request(join_request("ok", member_id="m" * 65)).error_code == 25
    assert connection.request(ListGroupsRequest[0]()).groups == []
    connection.close()


def test_a_new_member_of_a_full_group_gets_group_max_size_reached(start_kgroupsd):
    broker = start_kgroupsd("--group-max-size", "2")
    first = RawConnection(broker.bootstrap)
    joined = first.request(join_request("full"))
    assert joined.error_code == 0
    # The second member's join parks until the first rejoins; it is a member meanwhile.
    second = RawConnection(broker.bootstrap)
    second.send(join_request("full"))
    third = RawConnection(broker.bootstrap)
    threading.Event().wait(0.3)
    assert third.request(join_request("full")).error_code == 81  # GROUP_MAX_SIZE_REACHED
    described = third.request(DescribeGroupsRequest[0](groups=["full"]))
    assert len(described.groups[0][5]) <= 2
    for connection in (first, second, third):
        connection.close()
    assert_responsive(broker)


def test_groups_beyond_max_groups_get_policy_violation(start_kgroupsd):
    broker = start_kgroupsd("--max-groups", "2", "--topic", "t:1")
    connection = RawConnection(broker.bootstrap)
    assert connection.request(join_request("one")).error_code == 0
    commit = connection.request(OffsetCommitRequest[2](
        consumer_group="two", consumer_group_generation_id=-1, consumer_id="",
        retention_time=-1, topics=[("t", [(0, 1, "")])]))
    assert commit.topics[0][1][0][1] == 0
    assert connection.request(join_request("three")).error_code == 44
    commit = connection.request(OffsetCommitRequest[2](
        consumer_group="four", consumer_group_generation_id=-1, consumer_id="",
        retention_time=-1, topics=[("t", [(0, 1, "")])]))
    assert commit.topics[0][1][0][1] == 44
    groups = sorted(group for group, _type in connection.request(ListGroupsRequest[0]()).groups)
    assert groups == ["one", "two"]
    connection.close()


def test_offset_metadata_beyond_the_limit_is_refused_for_that_partition_only(start_kgroupsd):
    broker = start_kgroupsd("--topic", "meta:2")
    connection = RawConnection(broker.bootstrap)
    commit = connection.request(OffsetCommitRequest[2](
        consumer_group="meta-group", consumer_group_generation_id=-1, consumer_id="",
        retention_time=-1, topics=[("meta", [(0, 5, "x" * 4097), (1, 7, "y" * 4096)])]))
    assert [(p, e) for p, e in commit.topics[0][1]] == [(0, 12), (1, 0)]
    fetched = connection.request(OffsetFetchRequest[1](consumer_group="meta-group",
                                                       topics=[("meta", [0, 1])]))
    assert [(p[0], p[1]) for p in fetched.topics[0][1]] == [(0, -1), (1, 7)]
    connection.close()


def test_member_metadata_beyond_the_groups_limit_gets_group_max_size_reached(start_kgroupsd):
    broker = start_kgroupsd("--max-group-metadata-bytes", "4KiB")
    connection = RawConnection(broker.bootstrap)
    big = JoinGroupRequest[0](group="fat", session_timeout=30000, member_id="",
                              protocol_type="consumer", group_protocols=[("range", b"m" * 5000)])
    assert connection.request(big).error_code == 81
    assert connection.request(join_request("fat")).error_code == 0  # small metadata fits
    connection.close()


def test_ten_thousand_groups_keep_the_broker_responsive(start_kgroupsd):
    # The cost per call with many groups is measured by bench/coordinator_bench.cc.
    broker = start_kgroupsd("--topic", "t:1")
    connection = RawConnection(broker.bootstrap, timeout_s=60)
    for i in range(10000):  # pipelined: each commit creates a group
        connection.send(OffsetCommitRequest[2](
            consumer_group=f"group-{i}", consumer_group_generation_id=-1, consumer_id="",
            retention_time=-1, topics=[("t", [(0, i, "")])]))
    for _ in range(10000):
        connection.receive()
    assert_responsive(broker)
    assert len(connection.request(ListGroupsRequest[0]()).groups) == 10000
    fetched = connection.request(OffsetFetchRequest[1](consumer_group="group-5000",
                                                       topics=[("t", [0])]))
    assert fetched.topics[0][1][0][1] == 5000
    connection.close()


def test_a_sync_group_assignment_naming_50000_missing_partitions_costs_nothing_per_partition(
        start_kgroupsd):
    """A leader's SyncGroup assignment naming 50,000 partitions of a 2,000-byte topic name that
    does not exist, over six generations: the broker keeps it as the member's bytes, and the
    replay tracker, events and group views do not expand it per partition."""
    import struct
    from kafka.protocol.group import LeaveGroupRequest, SyncGroupRequest
    broker = start_kgroupsd("--max-memory", "512MiB", "--http", "127.0.0.1:0",
                            "--initial-rebalance-delay-ms", "0")
    topic = b"t" * 2000
    partitions = 50000
    assignment = (struct.pack(">hih", 0, 1, len(topic)) + topic + struct.pack(">i", partitions) +
                  struct.pack(f">{partitions}i", *range(partitions)) + struct.pack(">i", -1))
    connection = RawConnection(broker.bootstrap, timeout_s=30)
    before = broker.rss_mib()
    for _ in range(6):
        joined = connection.request(join_request("wide"))
        assert joined.error_code == 0, joined
        synced = connection.request(SyncGroupRequest[0](
            group="wide", generation_id=joined.generation_id, member_id=joined.member_id,
            group_assignment=[(joined.member_id, assignment)]))
        assert synced.error_code == 0 and synced.member_assignment == assignment
        left = connection.request(LeaveGroupRequest[0](group="wide", member_id=joined.member_id))
        assert left.error_code == 0
    grown = broker.rss_mib() - before
    assert grown < 64, f"RSS grew {grown:.0f} MiB for six 200 KB assignments"
    assert_responsive(broker)
    connection.close()
