# SPDX-License-Identifier: Apache-2.0
"""Attacks on memory through stored records: producing far more than the budget holds, and
one tiny batch into each of 100,000 partitions. The broker's peak resident memory stays within
--max-memory; the oldest segments are evicted (with a log line) and consumers of evicted
offsets get OFFSET_OUT_OF_RANGE; near-empty partitions cost about a kilobyte each."""
from kafka.protocol.admin import CreateTopicsRequest
from kafka.protocol.fetch import FetchRequest
from kafka.protocol.offset import OffsetRequest
from kafka.protocol.produce import ProduceRequest

from attack_checks import assert_responsive, assert_within_budget
from raw_client import RawConnection, record_batch

SMALL_BUDGET = ["--max-memory", "128MiB", "--max-partitions", "1000", "--max-topics", "100"]


def offsets(connection, topic, partition):
    """(log start offset, high watermark) of a partition (two requests: a request naming a
    partition twice is rejected)."""
    start = connection.request(OffsetRequest[1](replica_id=-1, topics=[(topic, [(partition, -2)])]))
    end = connection.request(OffsetRequest[1](replica_id=-1, topics=[(topic, [(partition, -1)])]))
    return start.topics[0][1][0][3], end.topics[0][1][0][3]


def test_producing_twice_the_budget_evicts_the_oldest_and_stays_within_it(start_kgroupsd):
    broker = start_kgroupsd(*SMALL_BUDGET, "--topic", "flood:4")
    connection = RawConnection(broker.bootstrap, timeout_s=30)
    batch = record_batch([(b"k", bytes(1000 * 1000))])  # about 1 MB, reused: the broker
    batches_per_request = 4                              # writes each one's base offset
    requests = 64  # 256 MB in all, twice the budget
    for _ in range(requests):
        sent = connection.send(ProduceRequest[3](
            transactional_id=None, required_acks=1, timeout=1000,
            topics=[("flood", [(p, batch) for p in range(batches_per_request)])]))
        correlation_id, _body = connection.receive()
        assert correlation_id == sent
    assert_within_budget(broker, 128)
    assert_responsive(broker)
    starts = [offsets(connection, "flood", p) for p in range(4)]
    assert all(end == requests for _start, end in starts), starts
    assert all(start > 0 for start, _end in starts), starts
    # Reading from offset 0, which was evicted, is OFFSET_OUT_OF_RANGE.
    fetch = connection.request(FetchRequest[4](
        replica_id=-1, max_wait_time=0, min_bytes=0, max_bytes=1 << 20, isolation_level=0,
        topics=[("flood", [(0, 0, 1 << 20)])]))
    assert fetch.topics[0][1][0][1] == 1
    # From the log start offset, records are served.
    start = starts[0][0]
    fetch = connection.request(FetchRequest[4](
        replica_id=-1, max_wait_time=0, min_bytes=0, max_bytes=4 << 20, isolation_level=0,
        topics=[("flood", [(0, start, 4 << 20)])]))
    assert fetch.topics[0][1][0][1] == 0 and len(fetch.topics[0][1][0][5]) > 1000 * 1000
    assert "evicted the" in broker.log()
    connection.close()


def test_one_tiny_batch_into_each_of_100k_partitions_costs_about_a_kilobyte_each(start_kgroupsd):
    broker = start_kgroupsd("--max-memory", "1GiB")
    connection = RawConnection(broker.bootstrap, timeout_s=60)
    before = broker.rss_mib()
    topics = [f"wide-{i}" for i in range(10)]
    for name in topics:  # 10,000 partitions each: the per-request and per-topic limit
        response = connection.request(CreateTopicsRequest[0](
            create_topic_requests=[(name, 10000, 1, [], [])], timeout=1000))
        assert response.topic_errors[0][1] == 0
    tiny = record_batch([(b"k", b"v")])
    for name in topics:
        response = connection.request(ProduceRequest[3](
            transactional_id=None, required_acks=1, timeout=1000,
            topics=[(name, [(p, tiny) for p in range(10000)])]))
        assert all(partition[1] == 0 for partition in response.topics[0][1])
    grown = broker.rss_mib() - before
    # A 1 KiB segment, one index entry and the partition itself: well under 2 KiB each.
    assert grown < 100000 * 2 / 1024, f"RSS grew {grown:.0f} MiB for 100k one-batch partitions"
    assert_responsive(broker)
    assert_within_budget(broker, 1024)
    connection.close()
