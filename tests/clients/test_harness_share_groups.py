# SPDX-License-Identifier: Apache-2.0
"""Share groups (KIP-932) through kgroups.Broker, the Python test harness: librdkafka 2.15's
share consumer (share_consumer_process.py) against a broker the fixture started, with the
manual clock making a crashed consumer's acquisition locks run out at once.

Needs the kgroups package on PYTHONPATH and kgroupsd in $KGROUPSD (scripts/test-clients)."""
import pytest
from confluent_kafka import Producer

from share_consumer_process import ShareConsumer

EXPLICIT = {"share.acknowledgement.mode": "explicit"}


def produce(broker, count):
    producer = Producer({"bootstrap.servers": broker.bootstrap_servers, "linger.ms": 100})
    producer.list_topics("orders", timeout=30)  # metadata first: then one batch
    for i in range(count):
        producer.produce("orders", value=b"task-%d" % i, partition=0)
    assert producer.flush(30) == 0


@pytest.mark.kgroups_broker(topics={"orders": 1}, manual_clock=True)
def test_a_crashed_share_consumers_records_go_to_the_survivor_after_advance(kgroups_broker,
                                                                            tmp_path):
    crashing = ShareConsumer(tmp_path / "crashing.log", kgroups_broker.bootstrap_servers,
                             "queue", "orders", EXPLICIT)
    survivor = None
    try:
        assert crashing.poll(1, 1500)[0] == []  # joined: the group starts at the end
        produce(kgroups_broker, 3)
        held, _ = crashing.poll(3, 5000)
        assert [r.offset for r in held] == [0, 1, 2]
        # The survivor joins only now: its client fetches in the background and could
        # otherwise acquire records first.
        survivor = ShareConsumer(tmp_path / "survivor.log", kgroups_broker.bootstrap_servers,
                                 "queue", "orders", EXPLICIT)
        crashing.kill()
        assert survivor.poll(3, 1000)[0] == [], "still locked to the crashed consumer"
        kgroups_broker.advance(30_000)  # group.share.record.lock.duration.ms
        redelivered, _ = survivor.poll(3, 5000)
        assert [(r.offset, r.delivery_count, r.value) for r in redelivered] == [
            (0, 2, b"task-0"), (1, 2, b"task-1"), (2, 2, b"task-2")]
        survivor.ack("all", "accept")
        assert survivor.commit() == {0: "NO_ERROR"}
    finally:
        crashing.kill()
        if survivor is not None:
            survivor.kill()


@pytest.mark.kgroups_broker(topics={"orders": 1}, group_share_delivery_count_limit=2)
def test_broker_options_set_the_share_group_limits(kgroups_broker, tmp_path):
    assert "--group-share-delivery-count-limit" in kgroups_broker.command
    consumer = ShareConsumer(tmp_path / "worker.log", kgroups_broker.bootstrap_servers, "queue",
                             "orders", EXPLICIT)
    try:
        assert consumer.poll(1, 1500)[0] == []
        produce(kgroups_broker, 1)
        counts = []
        for _ in range(2):
            records, _ = consumer.poll(1, 5000)
            counts += [r.delivery_count for r in records]
            consumer.ack("all", "release")
            consumer.commit()
        assert counts == [1, 2]
        assert consumer.poll(1, 1500)[0] == [], "archived at the limit"
    finally:
        consumer.kill()
