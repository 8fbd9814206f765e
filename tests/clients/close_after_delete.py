# SPDX-License-Identifier: Apache-2.0
"""One confluent-kafka consumer whose subscribed topics are deleted, then closed: the child
process of test_close_after_topic_delete.py (a close() that never returns must not wedge
pytest, so the test can kill this process).

    close_after_delete.py BOOTSTRAP MODE STRATEGY

MODE "topic" subscribes to life-a (3 partitions) and deletes it; MODE "regex" subscribes to
^life-.*, creates life-b (2 partitions) while subscribed, then deletes both. STRATEGY is
partition.assignment.strategy. Prints one JSON object a line, flushed: {"assigned": [...]}
after each assignment, {"revoked": [...]} after each revocation, {"closing": true} just
before close() and {"closed_s": seconds} once close() returned; {"error": "..."} (and exit
1) when a step times out. librdkafka's version is printed first ({"librdkafka": "2.0.2"}).
"""
import json
import sys
import time

from confluent_kafka import Consumer, Producer, libversion
from confluent_kafka.admin import AdminClient, NewTopic

TIMEOUT_S = 30


def say(**line):
    print(json.dumps(line), flush=True)


def fail(what):
    say(error=what)
    sys.exit(1)


def main(bootstrap, mode, strategy):
    say(librdkafka=libversion()[0])
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic("life-a", 3, 1)])["life-a"].result(timeout=TIMEOUT_S)
    producer = Producer({"bootstrap.servers": bootstrap})
    for i in range(10):
        producer.produce("life-a", value=f"v{i}".encode(), partition=i % 3)
    if producer.flush(TIMEOUT_S) != 0:
        fail("records not delivered")

    owned = set()

    def assigned(consumer, partitions):
        owned.update((p.topic, p.partition) for p in partitions)
        say(assigned=sorted(owned))

    def revoked(consumer, partitions):
        owned.difference_update((p.topic, p.partition) for p in partitions)
        say(revoked=sorted((p.topic, p.partition) for p in partitions))

    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": f"life-{mode}",
                         "partition.assignment.strategy": strategy,
                         "auto.offset.reset": "earliest",
                         "topic.metadata.refresh.interval.ms": 500})
    consumer.subscribe(["^life-.*" if mode == "regex" else "life-a"], on_assign=assigned,
                       on_revoke=revoked)

    def poll_until(condition, what):
        deadline = time.monotonic() + TIMEOUT_S
        while not condition():
            if time.monotonic() > deadline:
                fail(f"timed out waiting for {what}; owned {sorted(owned)}")
            consumer.poll(0.1)

    poll_until(lambda: len(owned) == 3, "life-a's 3 partitions")
    topics = ["life-a"]
    if mode == "regex":
        admin.create_topics([NewTopic("life-b", 2, 1)])["life-b"].result(timeout=TIMEOUT_S)
        poll_until(lambda: len(owned) == 5, "life-b's partitions too")
        topics.append("life-b")
    for future in admin.delete_topics(topics).values():
        future.result(timeout=TIMEOUT_S)
    poll_until(lambda: not owned, "the deleted topics' partitions to be revoked")
    # Revoked: librdkafka has seen the deletion in a Metadata answer. A few more polls, as an
    # application would make, then close.
    end = time.monotonic() + 0.5
    while time.monotonic() < end:
        consumer.poll(0.1)
    say(closing=True)
    start = time.monotonic()
    consumer.close()
    say(closed_s=time.monotonic() - start)


if __name__ == "__main__":
    main(*sys.argv[1:4])
