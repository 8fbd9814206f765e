# SPDX-License-Identifier: Apache-2.0
"""Attack through zero-copy Fetch: connections that never read their Fetch answers while the
topic they read is deleted and refilled, again and again. A queued answer sends its batches
straight from the log's segments and keeps them (pins them) until written; a segment the log
lets go meanwhile stays allocated, whole, however little of it the answer sends. Those
segments stay charged to the records' share until the last pin goes, so refilling evicts
older records instead of growing the broker past --max-memory, and a produce that cannot
fit beside them gets KAFKA_STORAGE_ERROR."""
import re

from kafka.protocol.admin import CreateTopicsRequest, DeleteTopicsRequest
from kafka.protocol.fetch import FetchRequest
from kafka.protocol.produce import ProduceRequest

from attack_checks import assert_responsive, assert_within_budget
from raw_client import RawConnection, record_batch

PARTITIONS = 32
BUDGET_MIB = 256
KAFKA_STORAGE_ERROR = 56


def create_topic(connection, topic):
    created = connection.request(CreateTopicsRequest[0](
        create_topic_requests=[(topic, PARTITIONS, 1, [], [])], timeout=10000))
    assert created.topic_errors[0][1] == 0, created


def delete_topic(connection, topic):
    deleted = connection.request(DeleteTopicsRequest[0](topics=[topic], timeout=10000))
    assert deleted.topic_error_codes[0][1] == 0, deleted


def produce(connection, topic, batch):
    """One batch into every partition; the error codes of the partitions."""
    answer = connection.request(ProduceRequest[3](
        transactional_id=None, required_acks=1, timeout=1000,
        topics=[(topic, [(p, batch) for p in range(PARTITIONS)])]))
    return [partition[1] for partition in answer.topics[0][1]]


def pin_last_segments(bootstrap, topic, high_watermark):
    """A connection that reads nothing: one Fetch of a few MiB fills the socket's buffers, then
    Fetches of each partition's last (small) batch queue behind it, each pinning the partition's
    last segment (a MiB) for a few hundred bytes sent."""
    stalled = RawConnection(bootstrap, timeout_s=30, receive_buffer_bytes=4096)
    stalled.send(FetchRequest[4](
        replica_id=-1, max_wait_time=0, min_bytes=0, max_bytes=6 << 20, isolation_level=0,
        topics=[(topic, [(p, 0, 6 << 20) for p in range(PARTITIONS)])]))
    for _ in range(4):
        stalled.send(FetchRequest[4](
            replica_id=-1, max_wait_time=0, min_bytes=0, max_bytes=1 << 20, isolation_level=0,
            topics=[(topic, [(p, high_watermark - 1, 1024) for p in range(PARTITIONS)])]))
    return stalled


def test_unread_fetch_answers_over_deleted_and_refilled_topics_stay_within_the_budget(
        start_kgroupsd):
    broker = start_kgroupsd("--max-memory", f"{BUDGET_MIB}MiB", "--max-partitions", "1000",
                            "--max-topics", "100")
    records_mib = float(re.search(r"records ([0-9.]+) MiB", broker.log()).group(1))
    before = broker.rss_mib()
    admin = RawConnection(broker.bootstrap, timeout_s=30)
    large = record_batch([(b"k", bytes(240 * 1024))])  # segments of 256 KiB, 512 KiB, 1 MiB
    small = record_batch([(b"k", b"v" * 100)])
    stalled = []
    refused = 0
    for _cycle in range(10):
        create_topic(admin, "refilled")
        for _ in range(4):
            refused += produce(admin, "refilled", large).count(KAFKA_STORAGE_ERROR)
        refused += produce(admin, "refilled", small).count(KAFKA_STORAGE_ERROR)
        stalled.append(pin_last_segments(broker.bootstrap, "refilled", 5))
        assert_responsive(broker)
        delete_topic(admin, "refilled")
    assert_within_budget(broker, BUDGET_MIB)
    # Records and pinned segments together stay within the records' share (plus the unsent
    # answers' bytes and an allowance); uncounted, each cycle kept 36 MiB more, to the budget.
    grown = broker.peak_rss_mib() - before
    assert grown < records_mib + 32 + 16, f"RSS grew {grown:.0f} MiB"
    # The pinned segments were counted: the share was full, so records were evicted (or, with
    # nothing left to evict, refused).
    log = broker.log()
    assert "evicted the" in log or refused > 0
    for connection in stalled:
        connection.close()
    # Once those connections are gone, the whole share is the logs' again.
    create_topic(admin, "after")
    for _ in range(4):
        assert produce(admin, "after", large) == [0] * PARTITIONS
    assert_within_budget(broker, BUDGET_MIB)
    admin.close()
