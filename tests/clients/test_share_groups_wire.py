# SPDX-License-Identifier: Apache-2.0
"""Share groups (KIP-932) at the wire, against kgroupsd: ShareGroupHeartbeat's assignment,
ShareFetch's acquisition and acknowledgements, ShareAcknowledge, share sessions and their
errors, lock expiry on the manual clock, and the delivery-count limit. Raw requests
(share_wire.py) give exact control of epochs and acknowledgements; records are produced
with confluent-kafka."""
import json
import urllib.request

from confluent_kafka import Producer
from kafka.admin import KafkaAdminClient

from kip848_wire import consumer_heartbeat, create_topic_v7
from raw_client import RawConnection
from share_wire import (acquired_offsets, share_acknowledge, share_fetch, share_heartbeat)

ACCEPT, RELEASE, REJECT = 1, 2, 3
INVALID_RECORD_STATE, SHARE_SESSION_NOT_FOUND, INVALID_SHARE_SESSION_EPOCH = 121, 122, 123
GROUP_ID_NOT_FOUND = 69


def produce(bootstrap, topic, count, prefix="v"):
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0})
    for i in range(count):
        producer.produce(topic, value=f"{prefix}{i}".encode(), partition=0)
    assert producer.flush(10) == 0


def advance(broker, ms):
    request = urllib.request.Request(f"http://{broker.http}/v1/clock/advance",
                                     data=json.dumps({"ms": ms}).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200


def join(connection, group, member, topic):
    joined = share_heartbeat(connection, group, member, 0, [topic])
    assert joined["error"] == 0, joined
    return joined


def make_topic(broker, topic="jobs"):
    admin = RawConnection(broker.bootstrap)
    created = create_topic_v7(admin, topic, 1)
    assert created["error"] == 0, created
    return admin, created["id"]


def test_two_members_share_a_partition_and_never_get_the_same_record(kgroupsd):
    admin, topic_id = make_topic(kgroupsd)
    a, b = RawConnection(kgroupsd.bootstrap), RawConnection(kgroupsd.bootstrap)
    assert join(a, "workers", "member-a", "jobs")["assignment"] == {topic_id: [0]}
    assert join(b, "workers", "member-b", "jobs")["assignment"] == {topic_id: [0]}
    produce(kgroupsd.bootstrap, "jobs", 10)
    got_a = acquired_offsets(share_fetch(a, "workers", "member-a", 0, {topic_id: [0]},
                                         max_records=4, max_wait_ms=2000), topic_id)
    got_b = acquired_offsets(share_fetch(b, "workers", "member-b", 0, {topic_id: [0]},
                                         max_wait_ms=2000), topic_id)
    assert got_a and got_b
    assert not set(got_a) & set(got_b)
    assert set(got_a) | set(got_b) == set(range(10))
    assert set(got_a.values()) == {1} and set(got_b.values()) == {1}


def test_release_redelivers_with_a_higher_count_and_reject_never_again(kgroupsd):
    admin, topic_id = make_topic(kgroupsd)
    a, b = RawConnection(kgroupsd.bootstrap), RawConnection(kgroupsd.bootstrap)
    join(a, "workers", "member-a", "jobs")
    join(b, "workers", "member-b", "jobs")
    produce(kgroupsd.bootstrap, "jobs", 3)
    got = acquired_offsets(share_fetch(a, "workers", "member-a", 0, {topic_id: [0]},
                                       max_wait_ms=2000), topic_id)
    assert got == {0: 1, 1: 1, 2: 1}
    acked = share_acknowledge(a, "workers", "member-a", 1, {
        topic_id: {0: [(0, 0, [RELEASE]), (1, 1, [REJECT]), (2, 2, [ACCEPT])]}})
    assert acked["error"] == 0 and acked["topics"][topic_id][0]["error"] == 0, acked
    again = share_fetch(b, "workers", "member-b", 0, {topic_id: [0]}, max_wait_ms=500)
    assert acquired_offsets(again, topic_id) == {0: 2}


def test_acknowledging_a_record_not_held_is_refused_and_changes_nothing(kgroupsd):
    admin, topic_id = make_topic(kgroupsd)
    a, b = RawConnection(kgroupsd.bootstrap), RawConnection(kgroupsd.bootstrap)
    join(a, "workers", "member-a", "jobs")
    join(b, "workers", "member-b", "jobs")
    produce(kgroupsd.bootstrap, "jobs", 2)
    share_fetch(a, "workers", "member-a", 0, {topic_id: [0]}, max_records=1, max_wait_ms=2000)
    share_fetch(b, "workers", "member-b", 0, {topic_id: [0]}, max_records=0)
    # b acknowledges a's record 0 and its own nothing: refused for the whole partition.
    refused = share_acknowledge(b, "workers", "member-b", 1, {topic_id: {0: [(0, 0, [ACCEPT])]}})
    assert refused["topics"][topic_id][0]["error"] == INVALID_RECORD_STATE
    # a still holds 0 and can accept it.
    accepted = share_acknowledge(a, "workers", "member-a", 1, {topic_id: {0: [(0, 0, [ACCEPT])]}})
    assert accepted["topics"][topic_id][0]["error"] == 0


def test_share_session_epochs_are_checked(kgroupsd):
    admin, topic_id = make_topic(kgroupsd)
    a = RawConnection(kgroupsd.bootstrap)
    join(a, "workers", "member-a", "jobs")
    assert share_fetch(a, "workers", "member-a", 3, {})["error"] == SHARE_SESSION_NOT_FOUND
    assert share_fetch(a, "workers", "member-a", 0, {topic_id: [0]})["error"] == 0
    assert share_fetch(a, "workers", "member-a", 2, {})["error"] == INVALID_SHARE_SESSION_EPOCH
    assert share_fetch(a, "workers", "member-a", 1, {})["error"] == 0
    closed = share_fetch(a, "workers", "member-a", -1, {})
    assert closed["error"] == 0
    assert share_fetch(a, "workers", "member-a", 2, {})["error"] == SHARE_SESSION_NOT_FOUND


def test_an_expired_lock_sends_the_record_to_another_member(start_kgroupsd):
    broker = start_kgroupsd("--manual-clock", "--http", "127.0.0.1:0")
    admin, topic_id = make_topic(broker)
    a, b = RawConnection(broker.bootstrap), RawConnection(broker.bootstrap)
    join(a, "workers", "member-a", "jobs")
    join(b, "workers", "member-b", "jobs")
    produce(broker.bootstrap, "jobs", 2)
    fetched = share_fetch(a, "workers", "member-a", 0, {topic_id: [0]}, max_wait_ms=2000)
    assert fetched["lock_ms"] == 30000
    assert acquired_offsets(fetched, topic_id) == {0: 1, 1: 1}
    assert acquired_offsets(share_fetch(b, "workers", "member-b", 0, {topic_id: [0]}),
                            topic_id) == {}
    advance(broker, 30000)
    assert acquired_offsets(share_fetch(b, "workers", "member-b", 1, {}), topic_id) == {0: 2, 1: 2}


def test_the_delivery_count_limit_archives_a_record_always_released(start_kgroupsd):
    broker = start_kgroupsd("--group-share-delivery-count-limit", "2")
    admin, topic_id = make_topic(broker)
    a = RawConnection(broker.bootstrap)
    join(a, "workers", "member-a", "jobs")
    produce(broker.bootstrap, "jobs", 1)
    epoch, counts = 0, []
    for _ in range(3):
        fetched = share_fetch(a, "workers", "member-a", epoch, {topic_id: [0]} if epoch == 0 else {},
                              max_wait_ms=500 if epoch else 2000)
        epoch += 1
        got = acquired_offsets(fetched, topic_id)
        counts.append(got.get(0))
        if got:
            share_acknowledge(a, "workers", "member-a", epoch, {topic_id: {0: [(0, 0, [RELEASE])]}})
            epoch += 1
    assert counts == [1, 2, None]


def test_a_share_group_id_is_not_a_consumer_groups_and_is_listed_with_its_type(kgroupsd):
    admin, topic_id = make_topic(kgroupsd)
    a = RawConnection(kgroupsd.bootstrap)
    join(a, "workers", "member-a", "jobs")
    refused = consumer_heartbeat(a, "workers", "consumer-1", 0, ["jobs"], owned={},
                                 rebalance_timeout_ms=30000)
    assert refused["error"] == GROUP_ID_NOT_FOUND
    admin_client = KafkaAdminClient(bootstrap_servers=kgroupsd.bootstrap)
    try:
        assert ("workers", "share") in admin_client.list_consumer_groups()
    finally:
        admin_client.close()
