# SPDX-License-Identifier: Apache-2.0
"""Share groups (KIP-932) on kgroupsd --brokers 3 with librdkafka 2.15's share consumer: the
share-partition state is the cluster's, not one broker's, so it survives the leader of the
partition stopping. Acknowledgements librdkafka sends to the stopped leader (or a follower)
fail at the client, which does not resend them to the new leader: the records stay acquired
until their lock runs out, then come again with delivery count 2 from the new leader. Sent to
the new leader, they succeed there. Either way none is lost, none is delivered twice at once,
and later records follow at delivery count 1."""
import time

from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

from cluster_checks import broker_action, http, leader_of, wait_until
from share_consumer_process import ShareConsumer

EXPLICIT = {"share.acknowledgement.mode": "explicit"}


def produce(broker, first, count):
    producer = Producer({"bootstrap.servers": broker.bootstrap, "acks": "all", "linger.ms": 100})
    producer.list_topics("orders", timeout=10)  # metadata first: then one batch
    for i in range(first, first + count):
        producer.produce("orders", value=b"task-%d" % i, partition=0)
    assert producer.flush(30) == 0


def advance(broker, ms):
    status, answer = http(broker, "POST", "/v1/clock/advance", {"ms": ms})
    assert status == 200, answer


def test_acquired_records_survive_the_partition_leader_stopping(start_kgroupsd, tmp_path):
    broker = start_kgroupsd("--brokers", "3", "--http", "127.0.0.1:0", "--manual-clock",
                            "--replica-lag-time-max-ms", "500")
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    admin.create_topics([NewTopic("orders", 1, 3)])["orders"].result(10)
    consumer = ShareConsumer(tmp_path / "worker.log", broker.bootstrap, "queue", "orders",
                             EXPLICIT)
    try:
        assert consumer.poll(1, 2000)[0] == []  # joined
        produce(broker, 0, 5)
        held, _ = consumer.poll(5, 5000)
        assert [(r.offset, r.delivery_count) for r in held] == [(o, 1) for o in range(5)]
        old_leader = leader_of(broker, "orders")
        broker_action(broker, old_leader, "stop")
        wait_until(lambda: leader_of(broker, "orders") not in (-1, old_leader),
                   what="a new leader")
        consumer.ack("all", "accept")
        committed = consumer.commit()
        # librdkafka sends the acknowledgements where it last saw the leader: the stopped
        # broker (_TRANSPORT), or a follower (NOT_LEADER); when it already knows the new leader,
        # they succeed there, which the state surviving the stop is what allows.
        accepted_at_new_leader = committed == {0: "NO_ERROR"}
        produce(broker, 5, 5)
        advance(broker, 30_000)  # group.share.record.lock.duration.ms: the five come back
        seen = []
        deadline = time.monotonic() + 30
        expected = 5 if accepted_at_new_leader else 10
        while len(seen) < expected and time.monotonic() < deadline:
            records, _ = consumer.poll(10, 1000)
            seen += [(r.offset, r.delivery_count) for r in records]
            if records:
                consumer.ack("all", "accept")
                assert consumer.commit() == {0: "NO_ERROR"}, consumer.log()
        again = [] if accepted_at_new_leader else [(o, 2) for o in range(5)]
        assert sorted(seen) == again + [(o, 1) for o in range(5, 10)], committed
    finally:
        consumer.kill()
