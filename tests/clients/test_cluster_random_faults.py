# SPDX-License-Identifier: Apache-2.0
"""A randomized fault test of kgroupsd --brokers 3 (docs/CLUSTER.md) against confluent-kafka
(librdkafka): for 20 s (KGROUPS_FAULT_SECONDS) a seeded schedule stops and starts brokers and
delays their replication, and in a second test (as long) isolates them too, keeping two
brokers healthy most of the time, while an
idempotent acks=all producer writes to a topic of replication factor 3 and min.insync.replicas=2
and a consumer reads it. Then every broker starts, the producer flushes, the log is read back,
and Kafka's guarantees are checked:

- an acknowledged acks=all write is never lost under clean elections, and sits at the offset
  it was acknowledged at, holding exactly the value acknowledged: had two brokers both
  acknowledged a write for one partition and leader epoch, one of the two would not be there;
- the log holds each record at most once, in the order sent (idempotence);
- the high watermark of each partition, polled from GET /v1/topics during the run, never goes
  backwards, and what the consumer read below it during the run is still there at the end;
- every leader_elected event is clean (it may still cut records above the high watermark).

The seed is random and printed with any failure; KGROUPS_FAULT_SEED=N replays one schedule
(the faults' timing against the clients is not replayed exactly).

The variant with isolations runs twice: with confluent-kafka's own librdkafka (Debian's 2.0.2),
and, when it is installed, with librdkafka 2.12.0 as node-rdkafka builds it
(scripts/install-deps) in its place, the producer and consumer then in a child process.
"""
import json
import os
import random
import subprocess
import sys
import threading
import time
from types import SimpleNamespace

import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition, libversion
from confluent_kafka.admin import AdminClient, NewTopic

from cluster_checks import broker_action, http, partitions, read_partitions, wait_until
from newer_librdkafka import (LIBRARIES, NEWER_VERSION, child_environment, library_dir_for,
                              older_than)

FAULT_SECONDS = float(os.environ.get("KGROUPS_FAULT_SECONDS", "20"))
TOPIC = "chaos"
PARTITIONS = 3
BROKERS = 3
EPOCH_BUMP_DUPLICATES_EXIT = 3  # the child's exit status for EpochBumpDuplicates (it says why)


class EpochBumpDuplicates(AssertionError):
    """Records stored twice after librdkafka bumped the producer's epoch (see the comment above
    the isolations test)."""


@pytest.fixture
def seed():
    chosen = int(os.environ.get("KGROUPS_FAULT_SEED") or random.SystemRandom().randrange(1 << 32))
    print(f"KGROUPS_FAULT_SEED={chosen}")
    return chosen


def brokers(cluster):
    status, answer = http(cluster, "GET", "/v1/brokers")
    assert status == 200, answer
    return answer["brokers"]


class Faults:
    """The seeded schedule: every 0.2-0.8 s one fault, chosen among those that keep at least
    two brokers running and not isolated, except that now and then (1 in 8) one more goes."""

    def __init__(self, cluster, rng, isolate):
        self.cluster = cluster
        self.rng = rng
        self.isolate = isolate
        self.done = []  # (action, broker)

    def step(self):
        states = {b["id"]: b["state"] for b in brokers(self.cluster)}
        healthy = [node for node, state in states.items() if state == "running"]
        down = [node for node, state in states.items() if state != "running"]
        choices = []
        if len(healthy) > 2 or (healthy and self.rng.random() < 1 / 8):
            choices += [("stop", node) for node in healthy]
            if self.isolate:
                choices += [("isolate", node) for node in healthy]
        choices += [("start", node) for node in down] * 2
        choices += [("replication-delay", node) for node in healthy]
        if not choices:
            return
        action, node = self.rng.choice(sorted(choices))
        body = {"ms": self.rng.choice([0, 0, 50, 200, 800, 2000])} if action == "replication-delay" else None
        broker_action(self.cluster, node, action, body)
        self.done.append((action, node) if body is None else (action, node, body["ms"]))

    def heal(self):
        for node in range(BROKERS):
            broker_action(self.cluster, node, "start")
            broker_action(self.cluster, node, "replication-delay", {"ms": 0})


class Watermarks:
    """Polls each partition's high watermark from GET /v1/topics until stopped; `backwards`
    lists every time one went down: (partition, before, after)."""

    def __init__(self, cluster):
        self.cluster = cluster
        self.samples = 0
        self.backwards = []
        self.errors = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run)
        self._thread.start()

    def _run(self):
        last = {}
        while not self._stop.is_set():
            try:
                for p in partitions(self.cluster, TOPIC):
                    before = last.get(p["partition"], 0)
                    if p["high_watermark"] < before:
                        self.backwards.append((p["partition"], before, p["high_watermark"]))
                    last[p["partition"]] = max(before, p["high_watermark"])
                self.samples += 1
            except Exception as error:  # noqa: BLE001 - reported by the test
                self.errors.append(repr(error))
            self._stop.wait(0.02)

    def stop(self):
        self._stop.set()
        self._thread.join()


class Reader:
    """A consumer reading every partition from offset 0 during the run: `read` maps
    (partition, offset) to the value read there (a second, different value is a conflict)."""

    def __init__(self, cluster):
        self.consumer = Consumer({"bootstrap.servers": cluster.bootstrap, "group.id": "chaos-reader",
                                  "enable.auto.commit": False, "fetch.wait.max.ms": 100})
        self.consumer.assign([TopicPartition(TOPIC, p, 0) for p in range(PARTITIONS)])
        self.read = {}
        self.conflicts = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run)
        self._thread.start()

    def _run(self):
        while not self._stop.is_set():
            message = self.consumer.poll(0.1)
            if message is None or message.error():
                continue
            place, value = (message.partition(), message.offset()), int(message.value())
            if self.read.setdefault(place, value) != value:
                self.conflicts.append((place, self.read[place], value))
        self.consumer.close()

    def stop(self):
        self._stop.set()
        self._thread.join()


def read_all(cluster):
    """Every record below each partition's high watermark: {(partition, offset): value}."""
    ends = {p["partition"]: p["high_watermark"] for p in partitions(cluster, TOPIC)}
    found = {(p, offset): int(value)
             for p, records in read_partitions(cluster.bootstrap, TOPIC, PARTITIONS,
                                               "chaos-final").items()
             for offset, value in records}
    for p, end in ends.items():
        assert sorted(o for q, o in found if q == p) == list(range(end)), (
            f"partition {p}: the offsets read are not 0..{end - 1}")
    return found


def test_random_stops_starts_and_replication_delays_keep_kafkas_guarantees(start_kgroupsd, seed):
    check_random_faults(start_kgroupsd, seed, isolate=False)


# With isolations among the faults: an isolated leader takes writes it can never get
# replicated, and its producer then retries them at the new leader. This found three broker
# bugs, fixed: a truncation forgot the producer's older batches (a retry was stored twice, or
# got OUT_OF_ORDER_SEQUENCE_NUMBER), the isolated leader ignored min.insync.replicas, and its
# waiting writes were not told when it rejoined as a follower (librdkafka then met the next
# sequence first and failed fatally).
# A fourth failure, a fatal OUT_OF_ORDER_SEQUENCE_NUMBER ("sequence desynchronization" or
# "rewound sequence number"; with KGROUPS_FAULT_SEED=3065094165 about 1 run in 6), is
# librdkafka's, not the broker's. A leader stops before reading a batch the producer sent it
# (a write ahead of it waits for a late follower); the producer sends it again to the new
# leader, the next batches pipelined behind it. The new leader's ISR is below
# min.insync.replicas, so the first gets NOT_ENOUGH_REPLICAS; a follower rejoins before the
# next is read, which then gets OUT_OF_ORDER_SEQUENCE_NUMBER, its predecessor not being in
# the log. Kafka answers so too (broker_stopped_leader_retry_test.cc). librdkafka before
# 2.3.0 took the disconnection as "possibly stored" and moved its next expected sequence past
# the batch, so it takes that answer as fatal instead of retrying in order (its issue 4438,
# fixed in 2.3.0); with librdkafka 2.12.0 the same runs pass (docs/CLIENTS.md). The variant
# is an xfail with an older librdkafka only.
# The other outcome, records stored twice, was traced to librdkafka too (once with 2.0.2 and
# once with 2.12.0, in some 50 runs of random seeds): a batch that gets
# OUT_OF_ORDER_SEQUENCE_NUMBER after an earlier one failed ("skipped sequence numbers") makes
# it bump the producer's epoch for every partition and send
# again, under the new epoch's sequences, every batch not yet acknowledged, among them one that
# a leader stored and answered with NOT_ENOUGH_REPLICAS_AFTER_APPEND (its retries got
# NOT_ENOUGH_REPLICAS, which Kafka checks before duplicates). Kafka detects duplicates within
# an epoch only, so it stores that batch twice. Records stored twice after the producer's
# epoch moved are an xfail with either library; without an epoch bump they fail the test.
@pytest.mark.parametrize("library", LIBRARIES)
def test_random_faults_with_isolations_keep_kafkas_guarantees(start_kgroupsd, seed, request,
                                                              library):
    newer_dir = library_dir_for(library)
    if newer_dir is None:
        if misreads_possibly_persisted(libversion()[0]):
            request.applymarker(pytest.mark.xfail(
                strict=False,
                reason=f"librdkafka {libversion()[0]} fails fatally on an "
                       "OUT_OF_ORDER_SEQUENCE_NUMBER that follows a disconnection (its issue "
                       "4438, fixed in 2.3.0)"))
    try:
        check_random_faults(start_kgroupsd, seed, isolate=True, library_dir=newer_dir)
    except EpochBumpDuplicates as error:
        if request.config.option.runxfail:
            raise
        pytest.xfail(f"librdkafka sent stored records again under a new producer epoch: {error}")


def misreads_possibly_persisted(version):
    """librdkafka before 2.3.0 (see the comment above the isolations test)."""
    return older_than(version, (2, 3))


def check_random_faults(start_kgroupsd, seed, isolate, seconds=FAULT_SECONDS, library_dir=None):
    """Runs the schedule against a new cluster; with `library_dir`, the clients run in a child
    process (this file as a script) that loads the librdkafka found there."""
    cluster = start_kgroupsd("--brokers", str(BROKERS), "--http", "127.0.0.1:0",
                             "--replica-lag-time-max-ms", "300", "--max-events", "1000000")
    try:
        if library_dir is None:
            run(cluster, random.Random(seed), isolate, seconds)
        else:
            run_in_child(cluster, seed, isolate, seconds, library_dir)
    except AssertionError as error:
        raise type(error)(f"{error}\n(replay with KGROUPS_FAULT_SEED={seed})") from error


def run_in_child(cluster, seed, isolate, seconds, library_dir):
    child = subprocess.run(
        [sys.executable, __file__, cluster.bootstrap, cluster.http, str(seed), str(int(isolate)),
         str(seconds)],
        capture_output=True, text=True, env=child_environment(library_dir),
        timeout=seconds + 240, check=False)
    print(child.stdout, end="")
    if child.returncode == EPOCH_BUMP_DUPLICATES_EXIT:
        said = [line for line in child.stdout.splitlines() if line.startswith("duplicates: ")]
        raise EpochBumpDuplicates(said[-1].removeprefix("duplicates: ") if said else "")
    assert child.returncode == 0, f"the clients' run failed:\n{child.stderr[-4000:]}"
    assert child.stdout.startswith(f"librdkafka {NEWER_VERSION}\n"), child.stdout


def run(cluster, rng, isolate, seconds):
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    admin.create_topics([NewTopic(TOPIC, PARTITIONS, BROKERS,
                                  config={"min.insync.replicas": "2"})])[TOPIC].result(10)
    epochs = set()  # the producer epochs librdkafka's statistics reported
    producer = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all",
                         "enable.idempotence": True, "linger.ms": 5,
                         "message.timeout.ms": 60000, "request.timeout.ms": 3000,
                         "statistics.interval.ms": 100, "stats_cb": lambda text: epochs.add(
                             json.loads(text).get("eos", {}).get("producer_epoch", 0))})
    acknowledged = {}  # (partition, offset) -> value
    failed = []
    implicit = []  # (partition, value): acknowledged without an offset

    def delivered(error, message):
        if error is None and message.offset() is None:
            # librdkafka acknowledges a batch implicitly, without an offset, when the broker
            # took the next batch's sequence after answering this one with an error that left
            # it possibly persisted (e.g. REQUEST_TIMED_OUT): it must be in the log.
            implicit.append((message.partition(), int(message.value())))
        elif error is None:
            place = (message.partition(), message.offset())
            assert place not in acknowledged, f"{place} acknowledged twice"
            acknowledged[place] = int(message.value())
        else:
            failed.append(str(error))

    faults = Faults(cluster, rng, isolate)
    watermarks = Watermarks(cluster)
    reader = Reader(cluster)
    sent = 0
    try:
        deadline = time.monotonic() + seconds
        next_fault = time.monotonic()
        while time.monotonic() < deadline:
            if time.monotonic() >= next_fault:
                faults.step()
                next_fault = time.monotonic() + rng.uniform(0.2, 0.8)
            try:
                producer.produce(TOPIC, key=str(sent % 30), value=str(sent), on_delivery=delivered)
                sent += 1
            except BufferError:  # the queue is full while no leader takes acks=all writes
                pass
            except KafkaException as error:  # a fatal idempotence error (the broker's state)
                raise AssertionError(f"the idempotent producer failed: {error}") from error
            producer.poll(0.002)
        faults.heal()
        assert producer.flush(60) == 0, "records left undelivered after every broker started"
        wait_until(lambda: all(p["leader"] >= 0 and len(p["isr"]) == BROKERS
                               for p in partitions(cluster, TOPIC)),
                   timeout_s=15, what="every partition led with all three replicas in sync")
    finally:
        watermarks.stop()
        reader.stop()
    print(f"{sent} sent, {len(acknowledged)} acknowledged ({len(implicit)} more without an "
          f"offset), {len(failed)} failed; "
          f"{watermarks.samples} watermark samples; {len(reader.read)} read during the run; "
          f"faults: {faults.done}")
    kinds = {fault[0] for fault in faults.done}
    assert {"stop", "start", "replication-delay"} | ({"isolate"} if isolate else set()) <= kinds, (
        faults.done)
    assert len(acknowledged) + len(implicit) + len(failed) == sent
    assert len(acknowledged) >= sent // 2, f"only {len(acknowledged)} of {sent} acknowledged"

    stored = read_all(cluster)
    # Acknowledged acks=all writes are there, at the offset acknowledged, with their value.
    wrong = [(place, value, stored.get(place)) for place, value in sorted(acknowledged.items())
             if stored.get(place) != value]
    assert not wrong, f"{len(wrong)} acknowledged records are not where acknowledged: {wrong[:5]}"
    partition_of = {value: p for (p, _), value in stored.items()}
    missing = [(p, value) for p, value in implicit if partition_of.get(value) != p]
    assert not missing, f"records acknowledged without an offset are not in the log: {missing[:5]}"
    # Each value at most once, and in the order sent, in every partition.
    for p in range(PARTITIONS):
        records = [(offset, value) for (q, offset), value in sorted(stored.items()) if q == p]
        offsets_of = {}
        for offset, value in records:
            offsets_of.setdefault(value, []).append(offset)
        twice = {value: offsets for value, offsets in offsets_of.items() if len(offsets) > 1}
        if twice and max(epochs, default=0) > 0:
            raise EpochBumpDuplicates(
                f"partition {p} holds {len(twice)} records twice (value: offsets): "
                f"{dict(list(twice.items())[:5])}; librdkafka bumped the producer epoch to "
                f"{max(epochs, default=0)} during the run")
        assert not twice, (f"partition {p} holds {len(twice)} records twice (value: offsets): "
                           f"{dict(list(twice.items())[:5])}")
        back = [(records[i - 1], records[i]) for i in range(1, len(records))
                if records[i][1] < records[i - 1][1]]
        assert not back, f"partition {p} is out of the order sent ((offset, value) pairs): {back[:5]}"
    # The high watermark never went back, and nothing read below it was lost.
    assert watermarks.samples > seconds, watermarks.errors[:3]
    assert not watermarks.backwards, f"high watermark went backwards: {watermarks.backwards[:5]}"
    assert not reader.conflicts, reader.conflicts[:5]
    lost = [(place, value, stored.get(place)) for place, value in sorted(reader.read.items())
            if stored.get(place) != value]
    assert not lost, f"{len(lost)} records read during the run are gone: {lost[:5]}"
    assert reader.read, "the consumer read nothing during the run"
    # Elections happened, every one clean (every event of the run is kept: the first is id 1).
    # A clean election may still cut records above the high watermark (lost_records): never
    # acknowledged acks=all writes, or an isolated leader's, which the checks above cover.
    status, kept = http(cluster, "GET", "/v1/events/log")
    assert status == 200 and kept[0]["id"] == 1, "events of the run were forgotten"
    counts = {}
    for event in kept:
        counts[event["type"]] = counts.get(event["type"], 0) + 1
    print(f"events: {counts}")
    elections = [event for event in kept if event["type"] == "leader_elected"]
    assert elections, "no leader was elected"
    unclean = [e for e in elections if e["unclean"]]
    assert not unclean, unclean[:5]


if __name__ == "__main__":
    # The child of run_in_child(): BOOTSTRAP HTTP SEED ISOLATE SECONDS.
    bootstrap, http_address, seed_text, isolate_text, seconds_text = sys.argv[1:]
    print(f"librdkafka {libversion()[0]}", flush=True)
    try:
        run(SimpleNamespace(bootstrap=bootstrap, http=http_address),
            random.Random(int(seed_text)), isolate_text == "1", float(seconds_text))
    except EpochBumpDuplicates as error:
        print(f"duplicates: {error}".replace("\n", " "), flush=True)
        sys.exit(EPOCH_BUMP_DUPLICATES_EXIT)
