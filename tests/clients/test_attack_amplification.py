# SPDX-License-Identifier: Apache-2.0
"""Attacks by amplification: small requests that repeat a topic, group or partition, or ask
for huge partition counts. kgroupsd answers them as Kafka does (each repeated name once, or
INVALID_REQUEST where Kafka rejects repeats; INVALID_PARTITIONS / POLICY_VIOLATION beyond the
limits), so no response outgrows what the request and the stored data justify, memory stays
within the budget and a probe connection is answered meanwhile."""
import io

from kafka.protocol.admin import CreateTopicsRequest, DescribeGroupsRequest
from kafka.protocol.commit import OffsetCommitRequest, OffsetFetchRequest
from kafka.protocol.fetch import FetchRequest
from kafka.protocol.group import JoinGroupRequest, SyncGroupRequest
from kafka.protocol.metadata import MetadataRequest
from kafka.protocol.offset import OffsetRequest
from kafka.protocol.produce import ProduceRequest
from kafka.record.default_records import DefaultRecordBatchBuilder

from attack_checks import assert_responsive, assert_within_budget
from raw_client import RawConnection, record_batch

BUDGET = ["--max-memory", "256MiB"]


def response_size(connection, request):
    """(decoded response, body size in bytes)."""
    sent = connection.send(request)
    correlation_id, body = connection.receive()
    assert correlation_id == sent
    return request.RESPONSE_TYPE.decode(io.BytesIO(body)), len(body)


def test_metadata_naming_one_big_topic_250_times_describes_it_once(start_kgroupsd):
    broker = start_kgroupsd(*BUDGET, "--topic", "big:10000")
    connection = RawConnection(broker.bootstrap)
    once, once_size = response_size(connection, MetadataRequest[4](
        topics=["big"], allow_auto_topic_creation=False))
    repeated, repeated_size = response_size(connection, MetadataRequest[4](
        topics=["big"] * 250, allow_auto_topic_creation=False))
    assert len(repeated.topics) == 1 and len(repeated.topics[0][3]) == 10000
    assert repeated_size == once_size
    connection.close()
    assert_responsive(broker)
    assert_within_budget(broker, 256)


def join_and_sync(connection, group, assignment):
    join = connection.request(JoinGroupRequest[0](
        group=group, session_timeout=30000, member_id="", protocol_type="consumer",
        group_protocols=[("range", b"\x00" * 100)]))
    assert join.error_code == 0
    sync = connection.request(SyncGroupRequest[0](
        group=group, generation_id=join.generation_id, member_id=join.member_id,
        group_assignment=[(join.member_id, assignment)]))
    assert sync.error_code == 0


def test_describe_groups_repeating_one_group_describes_it_once(start_kgroupsd):
    broker = start_kgroupsd(*BUDGET)
    member = RawConnection(broker.bootstrap)
    join_and_sync(member, "described", b"\x01" * 60000)
    connection = RawConnection(broker.bootstrap)
    once, once_size = response_size(connection, DescribeGroupsRequest[0](groups=["described"]))
    repeated, repeated_size = response_size(connection,
                                            DescribeGroupsRequest[0](groups=["described"] * 5000))
    assert len(repeated.groups) == 1
    assert repeated.groups[0][2] == "Stable"
    assert repeated_size == once_size  # about 60 KB, not 300 MB
    member.close()
    connection.close()
    assert_responsive(broker)
    assert_within_budget(broker, 256)


def test_offset_fetch_repeating_one_partition_answers_it_once(start_kgroupsd):
    broker = start_kgroupsd(*BUDGET, "--topic", "committed:1")
    connection = RawConnection(broker.bootstrap)
    commit = connection.request(OffsetCommitRequest[2](
        consumer_group="fetcher", consumer_group_generation_id=-1, consumer_id="",
        retention_time=-1, topics=[("committed", [(0, 42, "m" * 4000)])]))
    assert commit.topics[0][1][0][1] == 0
    response, size = response_size(connection, OffsetFetchRequest[1](
        consumer_group="fetcher", topics=[("committed", [0] * 10000)]))
    [(topic, partitions)] = response.topics
    assert [(p[0], p[1], len(p[2]), p[3]) for p in partitions] == [(0, 42, 4000, 0)]
    assert size < 4200  # one partition's metadata, not 10,000 copies of it (40 MB)
    connection.close()
    assert_responsive(broker)


def test_list_offsets_repeating_a_partition_gets_invalid_request_at_each_mention(start_kgroupsd):
    broker = start_kgroupsd(*BUDGET, "--topic", "listed:2")
    connection = RawConnection(broker.bootstrap)
    response = connection.request(OffsetRequest[1](replica_id=-1, topics=[
        ("listed", [(0, -1), (1, -1), (0, -2)])]))
    [(topic, partitions)] = response.topics
    assert [(index, error) for index, error, _timestamp, _offset in partitions] == [
        (0, 42), (1, 0), (0, 42)]
    connection.close()


def create_topics(connection, topics, version=1):
    """topics: [(name, partitions)]; returns [(name, error_code, error_message)]."""
    request = CreateTopicsRequest[version](
        create_topic_requests=[(name, partitions, 1, [], []) for name, partitions in topics],
        timeout=1000, **({"validate_only": False} if version >= 1 else {}))
    response = connection.request(request)
    return [(topic[0], topic[1], topic[2] if version >= 1 else None)
            for topic in response.topic_errors]


def test_create_topics_with_ten_million_partitions_is_refused_at_once(start_kgroupsd):
    broker = start_kgroupsd(*BUDGET)
    before = broker.rss_mib()
    connection = RawConnection(broker.bootstrap)
    [(name, error, message)] = create_topics(connection, [("huge", 10 ** 7)])
    assert error == 37  # INVALID_PARTITIONS
    assert "--max-partitions-per-topic" in message
    assert broker.rss_mib() - before < 16
    assert_responsive(broker)
    connection.close()


def test_partition_limits_per_request_and_in_all_give_policy_violation(start_kgroupsd):
    broker = start_kgroupsd(*BUDGET, "--max-partitions", "12003")
    connection = RawConnection(broker.bootstrap)
    # 6,000 + 6,000 in one request: the second passes --max-partitions-per-request (10,000).
    results = create_topics(connection, [("first", 6000), ("second", 6000)])
    assert [(name, error) for name, error, _ in results] == [("first", 0), ("second", 44)]
    # 6,000 + 6,000 + 6,000 in all would pass --max-partitions 12,003.
    assert [(n, e) for n, e, _ in create_topics(connection, [("third", 6000)])] == [("third", 0)]
    [(name, error, message)] = create_topics(connection, [("fourth", 6000)])
    assert (name, error) == ("fourth", 44)
    assert "--max-partitions 12003" in message
    # Auto-creation (6 partitions) stops at the limits too, without a malformed response.
    metadata = connection.request(MetadataRequest[4](topics=["auto-more"] * 3,
                                                     allow_auto_topic_creation=True))
    assert len(metadata.topics) == 1
    connection.close()
    assert_responsive(broker)
    assert "not auto-creating topic \"auto-more\"" in broker.log()


def test_many_failing_topics_do_not_make_a_response_much_larger_than_the_request(start_kgroupsd):
    broker = start_kgroupsd(*BUDGET)
    connection = RawConnection(broker.bootstrap)
    request = CreateTopicsRequest[1](
        create_topic_requests=[("", 1, 1, [], [])] * 20000, timeout=1000, validate_only=False)
    request_size = len(request.encode())
    response, size = response_size(connection, request)
    assert len(response.topic_errors) == 20000
    assert all(error == 42 for _name, error, _message in response.topic_errors)
    assert size < 2 * request_size
    connection.close()


def test_a_fetch_asking_for_2_gib_gets_at_most_fetch_max_bytes(start_kgroupsd):
    broker = start_kgroupsd(*BUDGET, "--topic", "wide:1", "--fetch-max-bytes", "1MiB")
    connection = RawConnection(broker.bootstrap)
    batch = record_batch([(b"k", bytes(300 * 1000))])
    for _ in range(10):  # 3 MB stored
        connection.request(ProduceRequest[3](transactional_id=None, required_acks=1,
                                             timeout=1000, topics=[("wide", [(0, batch)])]))
    response, size = response_size(connection, FetchRequest[4](
        replica_id=-1, max_wait_time=0, min_bytes=0, max_bytes=2 ** 31 - 1, isolation_level=0,
        topics=[("wide", [(0, 0, 2 ** 31 - 1)])]))
    records = response.topics[0][1][0][5]
    assert 3 * len(batch) <= len(records) <= (1 << 20)  # three whole batches fit in 1 MiB
    assert size < (1 << 20) + 1000
    connection.close()


def test_topics_beyond_max_topics_get_policy_violation(start_kgroupsd):
    broker = start_kgroupsd(*BUDGET, "--max-topics", "2")
    connection = RawConnection(broker.bootstrap)
    results = create_topics(connection, [("one", 1), ("two", 1), ("three", 1)])
    assert [(name, error) for name, error, _ in results] == [("one", 0), ("two", 0),
                                                              ("three", 44)]
    assert "--max-topics 2" in results[2][2]
    connection.close()


def test_list_offsets_by_timestamp_on_a_long_log_is_answered_through_the_index(start_kgroupsd):
    broker = start_kgroupsd(*BUDGET, "--topic", "long:1")
    connection = RawConnection(broker.bootstrap, timeout_s=60)
    batches = 20000
    for i in range(batches):  # one record per batch, timestamps 1000, 1001, ...
        builder = DefaultRecordBatchBuilder(magic=2, compression_type=0, is_transactional=False,
                                            producer_id=-1, producer_epoch=-1, base_sequence=-1,
                                            batch_size=1 << 10)
        builder.append(0, timestamp=1000 + i, key=b"k", value=b"v", headers=[])
        connection.send(ProduceRequest[3](transactional_id=None, required_acks=1, timeout=1000,
                                          topics=[("long", [(0, bytes(builder.build()))])]))
    for _ in range(batches):
        connection.receive()
    # Many lookups pipelined while a probe connection is answered.
    targets = list(range(1000, 1000 + batches, 7))
    for target in targets:
        connection.send(OffsetRequest[1](replica_id=-1, topics=[("long", [(0, target)])]))
    assert_responsive(broker)
    for target in targets:
        _correlation_id, body = connection.receive()
        response = OffsetRequest[1].RESPONSE_TYPE.decode(io.BytesIO(body))
        assert response.topics[0][1][0][1:] == (0, target, target - 1000)
    connection.close()
