# SPDX-License-Identifier: Apache-2.0
"""A confluent-kafka consume-transform-produce loop, run as a child process by
test_exactly_once_confluent_kafka.py: it reads the input topic in a group (read_committed)
and, for every poll of up to 5 messages, in one transaction writes the upper-cased values to
the same partitions of the output topic and commits the consumer's positions
(send_offsets_to_transaction), then prints "committed <n>". With a crash count C >= 0, after
C committed transactions it writes one more chunk and its offsets, prints "open <n>" and
waits without ending the transaction, so that the test can SIGKILL it with a transaction
open. Any error ends the process with exit code 1.

Usage: exactly_once_loop.py BOOTSTRAP INPUT OUTPUT GROUP TRANSACTIONAL_ID CRASH_AFTER
"""
import sys
import time

from confluent_kafka import Consumer, Producer

CHUNK = 5
TIMEOUT_S = 30


def main(bootstrap, input_topic, output_topic, group, transactional_id, crash_after):
    crash_after = int(crash_after)  # -1: never
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group,
                         "enable.auto.commit": False, "auto.offset.reset": "earliest",
                         "isolation.level": "read_committed",
                         # A short session, so that the restarted loop's group does not wait
                         # long for the killed member.
                         "session.timeout.ms": 6000, "heartbeat.interval.ms": 500})
    # The transaction timeout is long, so that only fencing (not the timeout) can end the
    # open transaction while the test waits.
    producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": transactional_id,
                         "transaction.timeout.ms": 120000})
    producer.init_transactions(TIMEOUT_S)  # fences an earlier producer with this id
    consumer.subscribe([input_topic])
    committed = 0
    while True:
        messages = consumer.consume(CHUNK, timeout=0.5)
        if not messages:
            continue
        for message in messages:
            if message.error():
                raise RuntimeError(message.error())
        producer.begin_transaction()
        for message in messages:
            producer.produce(output_topic, key=message.key(), value=message.value().upper(),
                             partition=message.partition())
        producer.send_offsets_to_transaction(consumer.position(consumer.assignment()),
                                             consumer.consumer_group_metadata(), TIMEOUT_S)
        if committed == crash_after:
            if producer.flush(TIMEOUT_S) != 0:
                raise RuntimeError("the open transaction's records were not delivered")
            print(f"open {len(messages)}", flush=True)
            while True:  # until SIGKILL
                time.sleep(1)
        producer.commit_transaction(TIMEOUT_S)
        committed += 1
        print(f"committed {len(messages)}", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
