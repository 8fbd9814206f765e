# SPDX-License-Identifier: Apache-2.0
"""Attacks through transactions: open transactions that each add the most partitions a
transaction may hold, under the longest topic name, until the groups' share of --max-memory
(which open transactions are charged to) is full. Beyond it AddPartitionsToTxn gets
COORDINATOR_LOAD_IN_PROGRESS and adds nothing; the broker stays within its budget and
answers others at once."""
import struct

from attack_checks import assert_responsive, assert_within_budget
from flexible_wire import exchange, i16, i32, i64
from raw_client import RawConnection

COORDINATOR_LOAD_IN_PROGRESS = 14


def string(value):
    return i16(len(value)) + value


def test_open_transactions_beyond_the_groups_share_are_refused_and_memory_stays_bounded(
        start_kgroupsd):
    topic = b"x" * 249  # the longest legal topic name
    broker = start_kgroupsd("--max-memory", "256MiB", "--topic", f"{topic.decode()}:1000")
    connection = RawConnection(broker.bootstrap, timeout_s=30)
    topics = i32(1) + string(topic) + i32(1000) + b"".join(i32(p) for p in range(1000))
    before = broker.rss_mib()
    outcomes = []
    for n in range(120):
        transactional_id = f"txn-{n}".encode()
        init = exchange(connection, 22, 0, string(transactional_id) + i32(60000), flexible=False)
        (error,) = struct.unpack(">h", init[4:6])
        assert error == 0, error
        producer_id, epoch = struct.unpack(">qh", init[6:16])
        added = exchange(connection, 24, 0, string(transactional_id) + i64(producer_id) +
                         i16(epoch) + topics, flexible=False)
        # throttle, one topic (count, name), its partitions (count, then partition and error)
        name_length = struct.unpack(">h", added[8:10])[0]
        at = 10 + name_length + 4
        errors = {struct.unpack(">h", added[at + 6 * i + 4:at + 6 * i + 6])[0]
                  for i in range(1000)}
        assert len(errors) == 1, errors  # a transaction adds all its partitions or none
        outcomes.append(errors.pop())
    accepted = outcomes.count(0)
    refused = outcomes.count(COORDINATOR_LOAD_IN_PROGRESS)
    assert accepted + refused == len(outcomes), outcomes
    assert accepted > 0 and refused > 0, (accepted, refused)
    # The groups' share is 16 MiB of the 256: what the accepted transactions hold fits in it.
    grown = broker.rss_mib() - before
    assert grown < 16 + 16, f"RSS grew {grown:.0f} MiB for {accepted} open transactions"
    assert "do not fit in the groups' share" in broker.log()
    assert_responsive(broker)
    assert_within_budget(broker, 256)
    connection.close()
