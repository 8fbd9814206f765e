# SPDX-License-Identifier: Apache-2.0
"""Share groups (KIP-932) with librdkafka 2.15's share consumer (share_consumer_process.py)
against kgroupsd: two consumers on one partition split its records; release redelivers with a
higher delivery count; reject never delivers again; a killed consumer's records go to the other
once their lock expires (the manual clock makes that instant); the delivery-count limit
archives a record that is always released; a share group and a consumer group on one topic
do not disturb each other."""
import json
import time
import urllib.request

from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from share_consumer_process import ShareConsumer

EXPLICIT = {"share.acknowledgement.mode": "explicit"}


def create_topic(broker, name="orders", partitions=1):
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    admin.create_topics([NewTopic(name, num_partitions=partitions,
                                  replication_factor=1)])[name].result(10)


def produce(broker, count, topic="orders", prefix="job"):
    # One batch for a handful of records, so a poll sees them together: metadata first (else
    # librdkafka sends the first record alone once it arrives), then linger.
    producer = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 100})
    producer.list_topics(topic, timeout=10)
    for i in range(count):
        producer.produce(topic, key=b"k", value=f"{prefix}-{i}".encode(), partition=0)
    assert producer.flush(10) == 0


def advance(broker, ms):
    request = urllib.request.Request(f"http://{broker.http}/v1/clock/advance",
                                     data=json.dumps({"ms": ms}).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200


def start(tmp_path, broker, name, options=None, group="queue", topic="orders"):
    return ShareConsumer(tmp_path / f"{name}.log", broker.bootstrap, group, topic,
                         {**EXPLICIT, **(options or {})})


def joined(consumer):
    """Polls once so the consumer joins and is assigned before records arrive (a share group
    starts at the end of the log: share.auto.offset.reset=latest)."""
    records, reply = consumer.poll(1, 1500)
    assert records == [] and reply.errors == [], consumer.log()


def settle(consumer, kind):
    consumer.ack("all", kind)
    assert set(consumer.commit().values()) <= {"NO_ERROR"}, consumer.log()


def test_two_share_consumers_on_one_partition_split_its_records(kgroupsd, tmp_path):
    create_topic(kgroupsd)
    first = start(tmp_path, kgroupsd, "first", {"max.poll.records": "10"})
    second = start(tmp_path, kgroupsd, "second", {"max.poll.records": "10"})
    try:
        joined(first)
        joined(second)
        produce(kgroupsd, 200)
        seen = {first: [], second: []}
        deadline = time.monotonic() + 60
        while sum(len(v) for v in seen.values()) < 200 and time.monotonic() < deadline:
            for consumer in (first, second):
                records, _ = consumer.poll(10, 300)
                seen[consumer] += [r.offset for r in records]
                assert all(r.delivery_count == 1 for r in records)
                if records:
                    settle(consumer, "accept")
        offsets = seen[first] + seen[second]
        assert sorted(offsets) == list(range(200)), "each record exactly once"
        assert seen[first] and seen[second], "both consumers got records"
    finally:
        first.kill()
        second.kill()


def test_release_redelivers_with_a_higher_delivery_count(kgroupsd, tmp_path):
    create_topic(kgroupsd)
    consumer = start(tmp_path, kgroupsd, "worker")
    try:
        joined(consumer)
        produce(kgroupsd, 3)
        records, _ = consumer.poll(3, 5000)
        assert [(r.offset, r.delivery_count) for r in records] == [(0, 1), (1, 1), (2, 1)]
        settle(consumer, "release")
        again, _ = consumer.poll(3, 5000)
        assert [(r.offset, r.delivery_count, r.value) for r in again] == [
            (0, 2, b"job-0"), (1, 2, b"job-1"), (2, 2, b"job-2")]
        settle(consumer, "accept")
    finally:
        consumer.kill()


def test_a_rejected_record_is_never_delivered_again(kgroupsd, tmp_path):
    create_topic(kgroupsd)
    first = start(tmp_path, kgroupsd, "first")
    second = None
    try:
        joined(first)
        produce(kgroupsd, 5)
        rejected = []
        deadline = time.monotonic() + 30
        while len(rejected) < 5 and time.monotonic() < deadline:
            records, _ = first.poll(5, 1000)
            rejected += [r.offset for r in records]
            if records:
                settle(first, "reject")
        assert sorted(rejected) == [0, 1, 2, 3, 4]
        # A member that joins later sees none of them, nor does the one that rejected them.
        second = start(tmp_path, kgroupsd, "second")
        for consumer in (second, first):
            assert consumer.poll(5, 1500)[0] == []
    finally:
        first.kill()
        if second is not None:
            second.kill()


def test_a_killed_consumers_records_go_to_the_other_when_their_lock_expires(start_kgroupsd,
                                                                            tmp_path):
    broker = start_kgroupsd("--manual-clock", "--http", "127.0.0.1:0")
    create_topic(broker)
    doomed = start(tmp_path, broker, "doomed")
    survivor = None
    try:
        joined(doomed)
        produce(broker, 4)
        taken, _ = doomed.poll(4, 5000)
        assert [r.offset for r in taken] == [0, 1, 2, 3]
        # The survivor joins only now: its client fetches in the background, and would
        # otherwise acquire some of the records before the doomed consumer does.
        survivor = start(tmp_path, broker, "survivor")
        doomed.kill()  # crashes holding four records
        nothing, _ = survivor.poll(4, 1000)
        assert nothing == [], "the records are still locked to the dead consumer"
        advance(broker, 30_000)  # group.share.record.lock.duration.ms
        redelivered, _ = survivor.poll(4, 5000)
        assert [(r.offset, r.delivery_count) for r in redelivered] == [
            (0, 2), (1, 2), (2, 2), (3, 2)]
        settle(survivor, "accept")
    finally:
        doomed.kill()
        if survivor is not None:
            survivor.kill()


def test_the_delivery_count_limit_archives_a_record_that_is_always_released(start_kgroupsd,
                                                                            tmp_path):
    broker = start_kgroupsd("--group-share-delivery-count-limit", "3")
    create_topic(broker)
    consumer = start(tmp_path, broker, "worker")
    try:
        joined(consumer)
        produce(broker, 1)
        counts = []
        for _ in range(3):
            records, _ = consumer.poll(1, 5000)
            counts += [r.delivery_count for r in records]
            settle(consumer, "release")
        assert counts == [1, 2, 3]
        after, _ = consumer.poll(1, 1500)
        assert after == [], "archived after its third delivery"
    finally:
        consumer.kill()


def test_a_share_group_and_a_consumer_group_on_one_topic_do_not_disturb_each_other(
        kgroupsd, tmp_path):
    create_topic(kgroupsd)
    share = start(tmp_path, kgroupsd, "share")
    classic = Consumer({"bootstrap.servers": kgroupsd.bootstrap, "group.id": "readers",
                        "auto.offset.reset": "earliest", "enable.auto.commit": False})
    try:
        joined(share)
        classic.subscribe(["orders"])
        produce(kgroupsd, 20)
        share_offsets = []
        deadline = time.monotonic() + 30
        while len(share_offsets) < 20 and time.monotonic() < deadline:
            records, _ = share.poll(20, 500)
            share_offsets += [r.offset for r in records]
            if records:
                settle(share, "accept")
        classic_offsets = []
        while len(classic_offsets) < 20 and time.monotonic() < deadline:
            message = classic.poll(0.5)
            if message is not None and message.error() is None:
                classic_offsets.append(message.offset())
        classic.commit(asynchronous=False)
        assert sorted(share_offsets) == list(range(20))
        assert sorted(classic_offsets) == list(range(20))
        committed = classic.committed(classic.assignment(), timeout=10)
        assert [tp.offset for tp in committed] == [20]
    finally:
        classic.close()
        share.kill()
