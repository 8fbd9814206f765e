# SPDX-License-Identifier: Apache-2.0
"""confluent-kafka 1.7.0 (librdkafka 2.0.2) transactions against kgroupsd.

Exactly-once: a consume-transform-produce loop (exactly_once_loop.py, its own process) is
SIGKILLed with some transactions committed and one open, then restarted with the same
transactional.id, which fences the old one and aborts its open transaction; the output topic,
read read_committed, then holds every input exactly once, and read_uncommitted also shows the
aborted copy. Also: an aborted transaction's records are invisible to read_committed and
visible to read_uncommitted, each transaction's end taking one offset (its control marker);
a second producer with the same transactional.id fences a live first one."""
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from confluent_kafka import (OFFSET_BEGINNING, Consumer, KafkaError, KafkaException, Producer,
                             TopicPartition)
from confluent_kafka.admin import AdminClient, NewTopic

TIMEOUT_S = 60
LOOP = Path(__file__).resolve().parent / "exactly_once_loop.py"


@pytest.fixture
def kgroupsd(start_kgroupsd):
    """A kgroupsd that accepts the loop's 6 s session timeout."""
    return start_kgroupsd("--group-min-session-timeout-ms", "1000")


def create_topics(bootstrap, *names, partitions=1):
    admin = AdminClient({"bootstrap.servers": bootstrap})
    futures = admin.create_topics([NewTopic(name, num_partitions=partitions, replication_factor=1)
                                   for name in names])
    for future in futures.values():
        future.result(timeout=TIMEOUT_S)


def read_topic(bootstrap, topic, partitions, count, isolation="read_committed", settle_s=1.0,
               timeout_s=TIMEOUT_S):
    """Reads every partition from the start (assign, no group) until `count` messages arrived
    (bounded), then `settle_s` more; returns [(partition, offset, value)]."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "ck-txn-reader",
                         "enable.auto.commit": False, "isolation.level": isolation,
                         "fetch.wait.max.ms": 100})
    rows = []
    try:
        consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(partitions)])
        deadline = time.monotonic() + timeout_s
        settle_until = None
        while True:
            now = time.monotonic()
            if settle_until is None and len(rows) >= count:
                settle_until = now + settle_s
            if settle_until is not None and now >= settle_until:
                break
            assert now < deadline, (
                f"read {len(rows)} of {count} messages from {topic} ({isolation})")
            message = consumer.poll(0.1)
            if message is None:
                continue
            if message.error():
                if message.error().code() == KafkaError._PARTITION_EOF:
                    continue
                raise KafkaException(message.error())
            rows.append((message.partition(), message.offset(), message.value().decode()))
    finally:
        consumer.close()
    return rows


class Loop:
    """exactly_once_loop.py as a child process; `lines` collects its stdout lines."""

    def __init__(self, bootstrap, *args):
        self.process = subprocess.Popen(
            [sys.executable, str(LOOP), bootstrap, *args], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        self.lines = []
        self.stderr = []
        threading.Thread(target=self._collect, args=(self.process.stdout, self.lines),
                         daemon=True).start()
        threading.Thread(target=self._collect, args=(self.process.stderr, self.stderr),
                         daemon=True).start()

    @staticmethod
    def _collect(stream, into):
        for line in stream:
            into.append(line.rstrip("\n"))

    def count(self, word):
        return sum(int(line.split()[1]) for line in list(self.lines)
                   if line.startswith(word + " "))

    def wait_for(self, condition, what, timeout_s=TIMEOUT_S):
        deadline = time.monotonic() + timeout_s
        while not condition():
            code = self.process.poll()
            assert code is None, f"the loop exited ({code}):\n" + "\n".join(self.stderr)
            assert time.monotonic() < deadline, f"timed out waiting for {what}"
            time.sleep(0.05)

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)


def test_loop_killed_with_a_transaction_open_and_restarted_writes_every_input_once(kgroupsd):
    bootstrap = kgroupsd.bootstrap
    partitions, per_partition = 6, 20
    create_topics(bootstrap, "ck-eos-input", "ck-eos-output", partitions=partitions)
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5})
    for p in range(partitions):
        for i in range(per_partition):
            producer.produce("ck-eos-input", key=f"k{i}", value=f"in-{p}-{i}", partition=p)
    assert producer.flush(TIMEOUT_S) == 0
    expected = sorted((p, f"IN-{p}-{i}") for p in range(partitions) for i in range(per_partition))
    loop_args = ("ck-eos-input", "ck-eos-output", "ck-eos-loop", "ck-eos-loop-txn")

    # First run: 5 transactions committed, a sixth left open, then SIGKILL.
    first = Loop(bootstrap, *loop_args, "5")
    try:
        first.wait_for(lambda: first.count("open") > 0, "the loop to open its sixth transaction")
    finally:
        first.kill()
    open_count = first.count("open")
    committed_before = first.count("committed")
    assert len([line for line in first.lines if line.startswith("committed ")]) == 5

    # While the open transaction stands, read_committed sees the committed outputs only.
    before = read_topic(bootstrap, "ck-eos-output", partitions, committed_before, settle_s=1.5)
    assert len(before) == committed_before, "read_committed showed records of an open transaction"

    # Second run, same transactional.id: fences the first, aborts its transaction, resumes
    # from the transactionally committed offsets and processes the rest.
    second = Loop(bootstrap, *loop_args, "-1")
    try:
        second.wait_for(lambda: committed_before + second.count("committed") >= len(expected),
                        "the restarted loop to process the rest")
        rows = read_topic(bootstrap, "ck-eos-output", partitions, len(expected), settle_s=1.5)
    finally:
        second.kill()
    assert sorted((partition, value) for partition, _, value in rows) == expected
    assert committed_before + second.count("committed") == len(expected)

    # The input offsets were committed through the transactions: all of the input.
    reader = Consumer({"bootstrap.servers": bootstrap, "group.id": "ck-eos-loop"})
    try:
        offsets = reader.committed([TopicPartition("ck-eos-input", p) for p in range(partitions)],
                                   timeout=TIMEOUT_S)
    finally:
        reader.close()
    assert [tp.offset for tp in offsets] == [per_partition] * partitions

    # read_uncommitted also sees the aborted transaction's copy of one chunk.
    everything = read_topic(bootstrap, "ck-eos-output", partitions, len(expected) + open_count,
                            isolation="read_uncommitted")
    assert len(everything) == len(expected) + open_count
    assert {(partition, value) for partition, _, value in everything} == set(expected)


def transactional_producer(bootstrap, transactional_id):
    producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": transactional_id})
    producer.init_transactions(TIMEOUT_S)
    return producer


def in_transaction(producer, topic, values):
    producer.begin_transaction()
    for value in values:
        producer.produce(topic, value=value, partition=0)
    assert producer.flush(TIMEOUT_S) == 0


def test_aborted_transaction_is_invisible_to_read_committed_and_visible_to_read_uncommitted(
        kgroupsd):
    bootstrap = kgroupsd.bootstrap
    create_topics(bootstrap, "ck-txn-abort")
    producer = transactional_producer(bootstrap, "ck-txn-abort-producer")
    in_transaction(producer, "ck-txn-abort", ["a0", "a1", "a2"])
    producer.commit_transaction(TIMEOUT_S)
    in_transaction(producer, "ck-txn-abort", ["b0", "b1", "b2"])
    producer.abort_transaction(TIMEOUT_S)
    in_transaction(producer, "ck-txn-abort", ["c0", "c1", "c2"])
    producer.commit_transaction(TIMEOUT_S)

    # Each transaction's end is a control record in the log: a 0-2, marker 3, b 4-6,
    # marker 7, c 8-10, marker 11.
    watcher = Consumer({"bootstrap.servers": bootstrap, "group.id": "ck-txn-watermarks",
                        "isolation.level": "read_uncommitted"})
    try:
        assert watcher.get_watermark_offsets(TopicPartition("ck-txn-abort", 0),
                                             timeout=TIMEOUT_S) == (0, 12)
    finally:
        watcher.close()

    committed = read_topic(bootstrap, "ck-txn-abort", 1, 6)
    assert [(offset, value) for _, offset, value in committed] == [
        (0, "a0"), (1, "a1"), (2, "a2"), (8, "c0"), (9, "c1"), (10, "c2")]
    uncommitted = read_topic(bootstrap, "ck-txn-abort", 1, 9, isolation="read_uncommitted")
    assert [value for _, _, value in uncommitted] == [
        "a0", "a1", "a2", "b0", "b1", "b2", "c0", "c1", "c2"]


def test_same_transactional_id_fences_a_live_producer_and_aborts_its_transaction(kgroupsd):
    bootstrap = kgroupsd.bootstrap
    create_topics(bootstrap, "ck-txn-fence")
    old = transactional_producer(bootstrap, "ck-txn-fence-producer")
    in_transaction(old, "ck-txn-fence", ["z0", "z1"])
    current = transactional_producer(bootstrap, "ck-txn-fence-producer")
    in_transaction(current, "ck-txn-fence", ["n0", "n1"])
    current.commit_transaction(TIMEOUT_S)

    with pytest.raises(KafkaException) as failure:
        old.commit_transaction(TIMEOUT_S)
    error = failure.value.args[0]
    assert error.fatal() and error.code() == KafkaError._FENCED, error

    committed = read_topic(bootstrap, "ck-txn-fence", 1, 2)
    assert [value for _, _, value in committed] == ["n0", "n1"]
    uncommitted = read_topic(bootstrap, "ck-txn-fence", 1, 4, isolation="read_uncommitted")
    assert [value for _, _, value in uncommitted] == ["z0", "z1", "n0", "n1"]
