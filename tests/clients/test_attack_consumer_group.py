# SPDX-License-Identifier: Apache-2.0
"""Attack through a KIP-848 consumer group: 500 members joining one group on a 10,000-partition
topic with ConsumerGroupHeartbeat, then heartbeating in turns, reporting what they own, until
the group settles. A heartbeat costs in proportion to what changed, not to the topic's
partitions (the benchmark kgroups_consumer_group_bench has the figure per heartbeat), so a
probe asking ApiVersions every 0.1 s is answered within a second throughout, and the broker
stays within --max-memory. The coordinators run on the manual clock: on a loaded machine a
round of 500 heartbeats can outlast the 45 s session timeout, which is not what this test is
about (members expire by the clock in the coordinator tests)."""
import time

from attack_checks import Probe, assert_within_budget
from kip848_wire import consumer_heartbeat, create_topic_v7
from raw_client import RawConnection

BUDGET_MIB = 512
MEMBERS = 500
PARTITIONS = 10000


def test_a_500_member_group_on_10000_partitions_settles_while_probes_are_answered(
        start_kgroupsd):
    broker = start_kgroupsd("--max-memory", f"{BUDGET_MIB}MiB", "--manual-clock")
    connection = RawConnection(broker.bootstrap, timeout_s=60)
    created = create_topic_v7(connection, "wide", PARTITIONS)
    assert created["error"] == 0, created
    topic_id = created["id"]
    probe = Probe(broker.bootstrap)
    members = []
    for _ in range(MEMBERS):
        joined = consumer_heartbeat(connection, "wide-group", "", 0, topics=["wide"], owned={},
                                    rebalance_timeout_ms=60000)
        assert joined["error"] == 0, joined
        members.append({"id": joined["member_id"], "epoch": joined["epoch"],
                        "owned": (joined["assignment"] or {}).get(topic_id, [])})
    # Heartbeat in turns, each reporting what it owns, until every member holds its share.
    started = time.monotonic()
    heartbeats = 0
    for _ in range(10):
        for member in members:
            answer = consumer_heartbeat(connection, "wide-group", member["id"], member["epoch"],
                                        owned={topic_id: member["owned"]})
            heartbeats += 1
            assert answer["error"] == 0, answer
            member["epoch"] = answer["epoch"]
            if answer["assignment"] is not None:
                member["owned"] = answer["assignment"].get(topic_id, [])
        if all(len(member["owned"]) == PARTITIONS // MEMBERS for member in members):
            break
    elapsed = time.monotonic() - started
    slowest = probe.finish()
    assert all(len(member["owned"]) == PARTITIONS // MEMBERS for member in members)
    owned = [p for member in members for p in member["owned"]]
    assert sorted(owned) == list(range(PARTITIONS)), "each partition owned once"
    assert slowest < 1.0, f"a probe waited {slowest:.2f} s"
    print(f"{heartbeats} heartbeats in {elapsed:.1f} s")
    assert_within_budget(broker, BUDGET_MIB)
    connection.close()
