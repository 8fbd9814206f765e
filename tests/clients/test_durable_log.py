# SPDX-License-Identifier: Apache-2.0
"""kgroupsd --log-dirs (docs/STORAGE.md) with real clients, through kgroups.Broker's
log_dirs, kill() and restart():

- a clean restart keeps topics (ids, partitions), records and a group's committed offsets;
- a kill -9 loop under an idempotent acks=all producer (--log-flush-interval-messages 1)
  loses no acknowledged record and duplicates none, and a group resumes at its last
  acknowledged commit after every kill (the seed is printed; KGROUPS_DURABLE_SEED=N replays
  the schedule, timing aside);
- producer ids given before a restart are not given again, and their producers go on;
- a transaction open at the kill is aborted after the restart, a committed one kept whole;
- a torn last batch, cut at 8 points, and a flipped byte are cut at start with a log line,
  the records before them served, and producing goes on;
- every file decodes with an independent reader (kafka_log_files.py) and a clean restart
  changes no file;
- a full disk (a small tmpfs, as root) gets KAFKA_STORAGE_ERROR and the broker goes on when
  space returns.
"""
import os
import random
import shutil
import subprocess
import threading
import time
import uuid
from pathlib import Path

import pytest
from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic
from kafka import KafkaProducer

from durable_log_checks import (check_log_folder, files_of, init_producer_id,
                                partition_batches, produce, produce_as, read_all,
                                truncation_lines)
from kafka_log_files import read_segment
from kgroups import Broker


def create_topics(broker, *topics):
    admin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
    for future in admin.create_topics(list(topics)).values():
        future.result(10)


def partition_count(broker, topic):
    admin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
    return len(admin.list_topics(topic, timeout=10).topics[topic].partitions)


# --- The fixture -----------------------------------------------------------------------------
def test_the_fixture_restarts_on_the_same_ports_and_without_log_dirs_starts_empty():
    with Broker(topics={"scratch": 1}) as broker:
        assert broker.log_dirs is None
        assert "--log-dirs" not in broker.command
        produce(broker, "scratch", [b"gone"])
        with pytest.raises(RuntimeError, match="stopped broker"):
            broker.restart()
        addresses = (broker.bootstrap_servers, broker.http_url)
        assert broker.kill() == -9
        assert broker.kill() == -9
        broker.restart()
        assert (broker.bootstrap_servers, broker.http_url) == addresses
        assert broker.topic("scratch")["partitions"][0]["log_end_offset"] == 0
        assert broker.stop() == 0
        broker.restart()
        assert [t["name"] for t in broker.topics() if not t["internal"]] == ["scratch"]


def test_the_fixture_passes_the_log_flags(tmp_path):
    with Broker(log_dirs=tmp_path / "logs", log_flush_interval_messages=1,
                log_flush_interval_ms=500) as broker:
        assert broker.log_dirs == tmp_path / "logs"
        command = broker.command
        assert command[command.index("--log-dirs") + 1] == str(tmp_path / "logs")
        assert command[command.index("--log-flush-interval-messages") + 1] == "1"
        assert command[command.index("--log-flush-interval-ms") + 1] == "500"
        assert (tmp_path / "logs" / "meta.properties").is_file()


# --- A clean restart -------------------------------------------------------------------------
def test_a_clean_restart_keeps_topics_records_and_a_groups_committed_offsets(tmp_path):
    with Broker(log_dirs=tmp_path / "logs", topics={"orders": 2}) as broker:
        for partition in (0, 1):
            produce(broker, "orders", [f"p{partition}-{n}".encode() for n in range(10)],
                    partition=partition)
        before = {p: read_all(broker, "orders", p) for p in (0, 1)}
        config = {"bootstrap.servers": broker.bootstrap_servers, "group.id": "billing",
                  "enable.auto.commit": False, "auto.offset.reset": "earliest"}
        consumer = Consumer(config)
        consumer.assign([TopicPartition("orders", 0, 0)])
        got = [consumer.poll(10) for _ in range(3)]
        assert all(m is not None and m.error() is None for m in got)
        consumer.commit(asynchronous=False)  # orders-0 at 3
        consumer.commit(offsets=[TopicPartition("orders", 1, 7)], asynchronous=False)
        consumer.close()
        topic_id = broker.topic("orders")["id"]

        assert broker.stop() == 0
        broker.restart()

        assert "log directory: " in broker.log()
        assert broker.topic("orders")["id"] == topic_id
        assert partition_count(broker, "orders") == 2
        assert {p: read_all(broker, "orders", p) for p in (0, 1)} == before
        # A new member of the group resumes at the committed offsets and reads the rest.
        consumer = Consumer(config)
        committed = consumer.committed([TopicPartition("orders", 0),
                                        TopicPartition("orders", 1)], timeout=10)
        assert [tp.offset for tp in committed] == [3, 7]
        consumer.subscribe(["orders"])
        read = {0: [], 1: []}
        deadline = time.monotonic() + 30
        while len(read[0]) < 7 or len(read[1]) < 3:
            assert time.monotonic() < deadline, read
            message = consumer.poll(1)
            if message is not None and message.error() is None:
                read[message.partition()].append((message.offset(), message.value()))
        consumer.close()
        assert read == {0: before[0][3:], 1: before[1][7:]}


# --- kill -9 ---------------------------------------------------------------------------------
def test_kill_9_loop_keeps_every_acknowledged_record_once_in_order_and_the_groups_commits(
        tmp_path):
    seed = int(os.environ.get("KGROUPS_DURABLE_SEED") or random.SystemRandom().randrange(1 << 30))
    print(f"KGROUPS_DURABLE_SEED={seed}")
    rng = random.Random(seed)
    acknowledged = {}  # offset -> value, from the delivery reports
    failed = []
    seen = {}  # offset -> value, as the group read them between kills
    with Broker(log_dirs=tmp_path / "logs", topics={"ledger": 1},
                log_flush_interval_messages=1) as broker:
        producer = Producer({"bootstrap.servers": broker.bootstrap_servers,
                             "enable.idempotence": True, "acks": "all", "linger.ms": 2,
                             "message.timeout.ms": 30000, "retry.backoff.ms": 50})

        def delivered(error, message):
            if error is None:
                acknowledged[message.offset()] = message.value()
            else:
                failed.append(error)

        group = {"bootstrap.servers": broker.bootstrap_servers, "group.id": "audit",
                 "enable.auto.commit": False, "auto.offset.reset": "earliest",
                 "enable.partition.eof": True}
        committed_at = 0  # the group's last acknowledged commit
        in_flight = None  # a commit sent but not acknowledged when the broker was killed

        def resume_and_commit(round_number):
            """A new member of the group starts at its last acknowledged commit (or the one
            in flight at the kill, if that reached the log), reads on and commits."""
            nonlocal committed_at, in_flight
            consumer = Consumer(group)
            (committed,) = consumer.committed([TopicPartition("ledger", 0)], timeout=10)
            start = max(committed.offset, 0)
            assert start in (committed_at, in_flight), (
                f"round {round_number}: the group resumes at {committed.offset}, its last "
                f"acknowledged commit was {committed_at} (in flight: {in_flight}; seed {seed})")
            committed_at, in_flight = start, None
            consumer.assign([TopicPartition("ledger", 0)])
            position = start
            wanted = rng.randrange(0, 80)
            deadline = time.monotonic() + 20
            while position - start < wanted:
                assert time.monotonic() < deadline, f"round {round_number}: stuck at {position}"
                message = consumer.poll(1)
                if message is None:
                    continue
                if message.error() is not None:
                    if message.error().code() == KafkaError._PARTITION_EOF:
                        break
                    raise AssertionError(message.error())
                assert message.offset() == position, (
                    f"round {round_number}: read offset {message.offset()} after "
                    f"{position - 1} (seed {seed})")
                assert seen.setdefault(position, message.value()) == message.value(), (
                    f"offset {position} changed across a kill (seed {seed})")
                position += 1
            if position > start:
                consumer.commit(offsets=[TopicPartition("ledger", 0, position)],
                                asynchronous=False)
                committed_at = position
            written = max(acknowledged, default=-1) + 1  # offsets below it are in the log
            if rng.random() < 0.5 and position < written:
                # A commit the kill may or may not keep.
                in_flight = rng.randrange(position + 1, written + 1)
                consumer.commit(offsets=[TopicPartition("ledger", 0, in_flight)],
                                asynchronous=True)
            return consumer

        sent = 0
        for round_number in range(10):
            consumer = resume_and_commit(round_number)
            burst = rng.randrange(50, 400)
            for _ in range(burst):
                producer.produce("ledger", value=str(sent).encode(), on_delivery=delivered)
                sent += 1
                if rng.random() < 0.02:
                    producer.poll(0)
            producer.poll(rng.random() * 0.05)
            broker.kill()  # with a random part of the burst (and maybe a commit) in flight
            broker.restart()
            # Closed only now: librdkafka's close() waits for a commit in flight, which would
            # never end against a dead broker. A commit it retries lands before the next round
            # reads the committed offset, so the group still resumes at one of the two.
            consumer.close()
        assert producer.flush(60) == 0
        resume_and_commit(10).close()
        records = read_all(broker, "ledger")
    values = [int(value) for _, value in records]
    assert not failed, f"{failed[:5]} (seed {seed})"
    assert len(acknowledged) == sent
    assert len(values) == len(set(values)), f"a record is there twice (seed {seed})"
    assert values == sorted(values), f"records out of order (seed {seed})"
    assert [offset for offset, _ in records] == list(range(len(records))), "a gap in the log"
    stored = dict(records)
    lost = {offset: value for offset, value in acknowledged.items() if stored.get(offset) != value}
    assert not lost, f"acknowledged records lost or moved: {sorted(lost.items())[:10]} (seed {seed})"
    assert all(stored[offset] == value for offset, value in seen.items()), \
        f"a record the group read is gone (seed {seed})"


def test_a_subscribed_group_resumes_at_its_last_acknowledged_commit_after_each_kill(tmp_path):
    with Broker(log_dirs=tmp_path / "logs", topics={"work": 1}) as broker:
        produce(broker, "work", [str(n).encode() for n in range(50)])
        config = {"bootstrap.servers": broker.bootstrap_servers, "group.id": "workers",
                  "enable.auto.commit": False, "auto.offset.reset": "earliest",
                  "session.timeout.ms": 6000}
        position = 0
        for _ in range(3):
            consumer = Consumer(config)
            consumer.subscribe(["work"])
            taken = 0
            deadline = time.monotonic() + 30
            while taken < 5:
                assert time.monotonic() < deadline, f"no record after offset {position + taken}"
                message = consumer.poll(1)
                if message is None or message.error() is not None:
                    continue
                assert message.offset() == position + taken
                taken += 1
            consumer.commit(asynchronous=False)  # acknowledged: it must survive the kill
            position += taken
            broker.kill()  # the member is still in the group: it expires after the restart
            consumer.close()
            broker.restart()
        consumer = Consumer(config)
        (committed,) = consumer.committed([TopicPartition("work", 0)], timeout=10)
        consumer.close()
        assert committed.offset == position


@pytest.mark.parametrize("how", ["stop", "kill"])
def test_producer_ids_given_before_a_restart_are_never_given_again(tmp_path, how):
    # Kafka allocates producer ids in blocks it records in its metadata: an id is given once.
    with Broker(log_dirs=tmp_path / "logs", topics={"p": 1}) as broker:
        error, writer, epoch = init_producer_id(broker.bootstrap_servers)
        assert error == 0 and produce_as(broker.bootstrap_servers, "p", 0, writer, epoch, 0,
                                         [b"writer"]) == (0, 0)
        error, silent, _ = init_producer_id(broker.bootstrap_servers)  # writes nothing
        assert error == 0
        getattr(broker, how)()
        broker.restart()
        error, after, _ = init_producer_id(broker.bootstrap_servers)
        assert error == 0
        assert after not in (silent, writer), (
            f"producer id {after} given again after the restart (before it: {silent} and "
            f"{writer})")


def test_an_acknowledged_record_is_never_taken_for_another_producers_duplicate(tmp_path):
    with Broker(log_dirs=tmp_path / "logs", topics={"p": 1}) as broker:
        error, writer, epoch = init_producer_id(broker.bootstrap_servers)
        assert produce_as(broker.bootstrap_servers, "p", 0, writer, epoch, 0, [b"w"]) == (0, 0)
        error, early, early_epoch = init_producer_id(broker.bootstrap_servers)
        assert error == 0
        assert broker.stop() == 0
        broker.restart()
        error, late, late_epoch = init_producer_id(broker.bootstrap_servers)
        assert error == 0
        assert produce_as(broker.bootstrap_servers, "p", 0, late, late_epoch, 0,
                          [b"late"])[0] == 0
        error, offset = produce_as(broker.bootstrap_servers, "p", 0, early, early_epoch, 0,
                                   [b"early"])
        stored = read_all(broker, "p")
        if error == 0:  # acknowledged: then it must be there, at the offset given
            assert (offset, b"early") in stored, (
                f"producer {early}'s first batch was acknowledged at offset {offset}, which "
                f"holds another record: {stored} (producer {late} got the same id?)")


@pytest.mark.parametrize("how", ["stop", "kill"])
def test_an_idempotent_producer_that_wrote_nothing_before_a_restart_goes_on_after_it(
        tmp_path, how):
    # Kafka accepts a first batch of sequence 0 from any producer id it has no state for
    # (KIP-360); librdkafka answers UNKNOWN_PRODUCER_ID by bumping its epoch itself, and retries.
    with Broker(log_dirs=tmp_path / "logs", topics={"p": 1}) as broker:
        error, producer_id, epoch = init_producer_id(broker.bootstrap_servers)
        assert error == 0
        getattr(broker, how)()
        broker.restart()
        error, offset = produce_as(broker.bootstrap_servers, "p", 0, producer_id, epoch, 0,
                                   [b"first"])
        assert error == 0, f"the first batch of producer {producer_id} got error {error}"
        assert read_all(broker, "p") == [(offset, b"first")]


def test_a_confluent_kafka_producer_created_before_a_restart_delivers_after_it(tmp_path):
    with Broker(log_dirs=tmp_path / "logs", topics={"p": 1}) as broker:
        reports = []
        producer = Producer({"bootstrap.servers": broker.bootstrap_servers,
                             "enable.idempotence": True, "message.timeout.ms": 10000})
        # Its InitProducerId answered (nothing written yet) before the kill.
        broker.wait_for(lambda: broker.metric("kgroupsd_requests_total",
                                              api="InitProducerId") >= 1)
        producer.poll(0.2)
        broker.kill()
        broker.restart()
        producer.produce("p", value=b"after", on_delivery=lambda e, m: reports.append(e))
        producer.flush(15)
        assert reports == [None], [str(e) for e in reports]
        assert [v for _, v in read_all(broker, "p")] == [b"after"]


# --- Compaction killed mid-pass --------------------------------------------------------------
def test_compaction_killed_mid_pass_recovers_old_or_new_segments_never_a_mix(tmp_path):
    """kill -9 at random moments while the cleaner works through many small segments (1 KiB
    passes, so one cleaning spans many turns): after each restart every record read is the
    one produced at its offset, offsets increase, every key's latest value is there, and the
    files decode; .cleaned and .swap files found at the kills are printed."""
    seed = int(os.environ.get("KGROUPS_DURABLE_SEED") or random.SystemRandom().randrange(1 << 30))
    print(f"KGROUPS_DURABLE_SEED={seed}")
    rng = random.Random(seed)
    produced = {}  # offset -> (key, value)
    latest = {}  # key -> offset of its latest value
    leftovers = []  # (.cleaned, .swap) files found right after each kill
    cleaned_before_kill = []  # cleaned segments (of the newest 16) just before each kill
    with Broker(log_dirs=tmp_path / "logs", extra_args=[
            "--log-cleaner-interval-ms", "10", "--log-cleaner-bytes-per-pass", "1024"]) as broker:
        create_topics(broker, NewTopic("table", 1, 1, config={
            "cleanup.policy": "compact", "segment.bytes": "2048",
            "min.cleanable.dirty.ratio": "0.01", "delete.retention.ms": "600000"}))
        for kill in range(6):
            records = [(f"k{rng.randrange(40)}".encode(), f"{kill}-{n}".encode() * 8)
                       for n in range(400)]
            producer = Producer({"bootstrap.servers": broker.bootstrap_servers, "acks": "all",
                                 "linger.ms": 0, "batch.num.messages": 4})
            delivered = []
            for key, value in records:
                producer.produce("table", key=key, value=value, partition=0,
                                 on_delivery=lambda error, message: delivered.append(
                                     (error, message.offset(), message.key(), message.value())))
            assert producer.flush(30) == 0
            for error, offset, key, value in delivered:
                assert error is None, error
                produced[offset] = (key, value)
                latest[key] = max(latest.get(key, -1), offset)
            time.sleep(rng.uniform(0, 0.3))  # the cleaner is at work
            segments = broker.topic("table")["partitions"][0]["segments"]
            cleaned_before_kill.append(sum(1 for segment in segments if segment["cleaned"]))
            broker.kill()
            folder = tmp_path / "logs" / "table-0"
            leftovers.append((len(list(folder.glob("*.cleaned"))),
                              len(list(folder.glob("*.swap")))))
            partition_batches(folder, zero_tail=True)  # every segment decodes as the kill left it
            broker.restart()
            got = read_all(broker, "table", keys=True)
            offsets = [offset for offset, _, _ in got]
            assert offsets == sorted(set(offsets)), "offsets do not increase"
            for offset, key, value in got:
                assert produced.get(offset) == (key, value), \
                    f"offset {offset} holds a record never produced there (seed {seed})"
            present = set(offsets)
            missing = {key: offset for key, offset in latest.items() if offset not in present}
            assert not missing, f"latest values lost: {missing} (seed {seed})"
        print(f"(.cleaned, .swap) files at each kill: {leftovers}; cleaned segments before "
              f"each kill: {cleaned_before_kill}")
        assert any(cleaned_before_kill), "the cleaner never ran between kills"
        broker.wait_for(lambda: len(read_all(broker, "table")) <= len(latest) + 80, timeout=30)
        topics = broker.topics()
        assert broker.stop() == 0
    check_log_folder(tmp_path / "logs", topics)


# --- Group commit ----------------------------------------------------------------------------
def group_flush_counts(broker):
    return (broker.metric("kgroupsd_log_group_flushes_total"),
            broker.metric("kgroupsd_log_group_flush_partitions_total"),
            broker.metric("kgroupsd_log_group_flush_waits_total"))


def test_concurrent_producers_flushing_every_message_share_flushes_and_lose_nothing(tmp_path):
    with Broker(log_dirs=tmp_path / "logs", log_flush_interval_messages=1,
                topics={"shared": 1, "spread": 4}) as broker:
        # One Produce naming four partitions (kafka-python puts them in one request, where
        # librdkafka sends one per partition): one group flush covers all four.
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap_servers, acks="all",
                                 linger_ms=200)
        producer.partitions_for("spread")
        rounds, partitions, _ = group_flush_counts(broker)
        for partition in range(4):
            producer.send("spread", value=b"x", partition=partition)
        producer.flush(30)
        producer.close()
        after_rounds, after_partitions, _ = group_flush_counts(broker)
        assert after_partitions - partitions == 4
        assert after_rounds - rounds == 1, "the partitions of one request had flushes of their own"

        # Six producers at once into one partition, each record acknowledged only once it
        # is flushed; the producers of a turn share a flush.
        def produce_all(name):
            produce(broker, "shared", [f"{name}-{n}".encode() for n in range(150)],
                    **{"linger.ms": 0})

        threads = [threading.Thread(target=produce_all, args=(f"p{i}",)) for i in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        rounds, partitions, waits = group_flush_counts(broker)
        assert waits >= 900 / 150, "Produce requests did not wait for their flush"
        assert rounds <= waits
        print(f"group commit: {waits:.0f} Produce waits, {rounds:.0f} flush rounds")
        # Acknowledged means on disk: a kill -9 keeps every record, once.
        broker.kill()
        broker.restart()
        values = sorted(value for _, value in read_all(broker, "shared"))
        assert values == sorted(f"p{i}-{n}".encode() for i in range(6) for n in range(150))


def test_a_transaction_open_at_a_kill_is_aborted_after_the_restart_and_a_committed_one_kept(
        tmp_path):
    logs = tmp_path / "logs"
    with Broker(log_dirs=logs, topics={"payments": 1}) as broker:
        def transactional(transactional_id):
            producer = Producer({"bootstrap.servers": broker.bootstrap_servers,
                                 "transactional.id": transactional_id,
                                 "transaction.timeout.ms": 2000})
            producer.init_transactions(10)
            return producer
        committed = transactional("committer")
        committed.begin_transaction()
        for n in range(3):
            committed.produce("payments", value=f"committed-{n}".encode())
        committed.commit_transaction(10)
        hanging = transactional("hanger")
        hanging.begin_transaction()
        for n in range(3):
            hanging.produce("payments", value=f"open-{n}".encode())
        hanging.flush(10)  # in the log, the transaction still open
        broker.kill()
        broker.restart()

        # The open transaction ends (aborted at its timeout; the broker checks every 100 ms)
        # and the last stable offset passes it: a record produced after it is readable only
        # then.
        produce(broker, "payments", [b"after"])
        consumer = Consumer({"bootstrap.servers": broker.bootstrap_servers,
                             "group.id": str(uuid.uuid4()), "isolation.level": "read_committed",
                             "auto.offset.reset": "earliest", "enable.auto.commit": False})
        consumer.assign([TopicPartition("payments", 0, 0)])
        values = []
        deadline = time.monotonic() + 20
        while b"after" not in values:
            assert time.monotonic() < deadline, f"the open transaction never ended: {values}"
            message = consumer.poll(1)
            if message is not None and message.error() is None:
                values.append(message.value())
        consumer.close()
        assert values == [b"committed-0", b"committed-1", b"committed-2", b"after"], values
        # The aborted records are in the log (the kill kept them), never served read_committed.
        everything = read_all(broker, "payments", isolation="read_uncommitted")
        assert [v for _, v in everything if v.startswith(b"open-")] == [
            b"open-0", b"open-1", b"open-2"]
        assert read_all(broker, "payments") == [
            (o, v) for o, v in everything if not v.startswith(b"open-")]
        assert broker.stop() == 0
    # In the files: the committed transaction's COMMIT marker, the open one's ABORT marker.
    batches = partition_batches(logs / "payments-0")
    producers = {r.value: b.producer_id for b in batches if not b.is_control for r in b.records}
    markers = {(b.producer_id, b.control_type()) for b in batches if b.is_control}
    assert (producers[b"committed-0"], "COMMIT") in markers, markers
    assert (producers[b"open-0"], "ABORT") in markers, markers
    assert (producers[b"open-0"], "COMMIT") not in markers


# --- Damaged files ---------------------------------------------------------------------------
def test_a_torn_last_batch_is_cut_with_a_log_line_and_the_records_before_it_served(tmp_path):
    logs = tmp_path / "logs"
    with Broker(log_dirs=logs, topics={"events": 1}) as broker:
        for n in range(5):
            produce(broker, "events", [f"event-{n}".encode() * 20])
        assert broker.stop() == 0
    segment = Path("events-0") / "00000000000000000000.log"
    data = (logs / segment).read_bytes()
    batches = read_segment(logs / segment)
    last = batches[-1]
    assert last.base_offset == 4
    before = [(b.base_offset, b.records[0].value) for b in batches[:-1]]
    # 1 byte, the base offset's zeros, its last byte, the length, the magic, the header, half
    # the batch, all but 1 byte.
    cuts = [1, 7, 8, 12, 17, 61, last.size // 2, last.size - 1]
    for cut in cuts:
        copy = tmp_path / f"cut-{cut}"
        shutil.copytree(logs, copy)
        os.truncate(copy / segment, last.position + cut)
        with Broker(log_dirs=copy) as broker:
            lines = truncation_lines(broker.log())
            if any(data[last.position:last.position + cut]):
                assert len(lines) == 1, broker.log()
                assert str(copy / segment) in lines[0] and f"at byte {last.position}" in \
                    lines[0], lines
            else:
                # Only zero bytes: what a broker reserves and never wrote, cut quietly.
                assert lines == [], lines
            assert read_all(broker, "events") == before, f"cut at {cut}"
            assert produce(broker, "events", [b"after the cut"]) == [4]
            assert read_all(broker, "events")[-1] == (4, b"after the cut")
            assert broker.stop() == 0


def flip_a_byte_in_batch(segment, index):
    """Flips a byte in the records of batch `index` of a killed broker's segment; returns the
    batch."""
    data = bytearray(segment.read_bytes())
    batch = read_segment(segment, zero_tail=True)[index]
    data[batch.position + batch.size - 3] ^= 0xFF
    segment.write_bytes(bytes(data))
    return batch


def test_a_flipped_byte_in_the_middle_truncates_there_and_never_serves_it(tmp_path):
    logs = tmp_path / "logs"
    with Broker(log_dirs=logs, topics={"events": 1}) as broker:
        for n in range(6):
            produce(broker, "events", [f"event-{n}".encode() * 20])
        before = read_all(broker, "events")
        broker.kill()  # nothing checkpointed: every batch is beyond the recovery point
        segment = logs / "events-0" / "00000000000000000000.log"
        flipped = flip_a_byte_in_batch(segment, 3)
        broker.restart()
        lines = truncation_lines(broker.log())
        assert len(lines) == 1 and str(segment) in lines[0] and \
            f"at byte {flipped.position}" in lines[0] and "CRC mismatch" in lines[0], broker.log()
        assert read_all(broker, "events") == before[:3]
        assert produce(broker, "events", [b"after"]) == [3]
        assert broker.stop() == 0
    assert [(b.base_offset, b.records[-1].value[:7]) for b in partition_batches(
        logs / "events-0")] == [(0, b"event-0"), (1, b"event-1"), (2, b"event-2"), (3, b"after")]


def test_a_flipped_byte_in_an_earlier_segment_deletes_the_later_ones(tmp_path):
    logs = tmp_path / "logs"
    with Broker(log_dirs=logs) as broker:
        create_topics(broker, NewTopic("rolled", 1, 1, config={"segment.bytes": "2000"}))
        for n in range(16):
            produce(broker, "rolled", [f"{n:04}".encode() * 100])  # one ~470-byte batch each
        before = read_all(broker, "rolled")
        broker.kill()
        # Without the checkpoint every segment is beyond the recovery point.
        (logs / "recovery-point-offset-checkpoint").unlink(missing_ok=True)
        segments = sorted((logs / "rolled-0").glob("*.log"))
        assert len(segments) >= 3, segments
        flipped = flip_a_byte_in_batch(segments[1], 1)
        broker.restart()
        lines = truncation_lines(broker.log())
        assert lines and str(segments[1]) in lines[0] and \
            f"at byte {flipped.position}" in lines[0], broker.log()
        assert read_all(broker, "rolled") == before[:flipped.base_offset]
        assert sorted((logs / "rolled-0").glob("*.log")) == segments[:2], \
            "the segments after the bad byte are still there"
        assert produce(broker, "rolled", [b"after"]) == [flipped.base_offset]
        assert broker.stop() == 0


# --- The files, read independently -----------------------------------------------------------
def test_files_decode_with_an_independent_reader_and_a_clean_restart_changes_none(tmp_path):
    logs = tmp_path / "logs"
    sent = {0: [], 1: []}
    with Broker(log_dirs=logs, topics={"a": 2}) as broker:
        create_topics(broker, NewTopic("small", 1, 1, config={"segment.bytes": "20000"}),
                      NewTopic("keys", 1, 1, config={"cleanup.policy": "compact"}))
        producer = Producer({"bootstrap.servers": broker.bootstrap_servers, "linger.ms": 5})
        for n in range(200):
            record = (None if n % 5 == 0 else f"key-{n}".encode(), bytes([n]) * 300,
                      [("n", str(n).encode()), ("empty", b""), ("none", None)][:n % 4])
            sent[n % 2].append(record)
            producer.produce("a", key=record[0], value=record[1], headers=record[2],
                             partition=n % 2)
        for n in range(100):
            producer.produce("keys", key=str(n % 7).encode(), value=str(n).encode())
        assert producer.flush(10) == 0
        for _ in range(10):  # ten Produce requests of ~10 KB: segments of 20000 bytes roll
            produce(broker, "small", [b"x" * 1000 for _ in range(10)])
        consumer = Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": "g"})
        consumer.commit(offsets=[TopicPartition("a", 0, 17)], asynchronous=False)
        consumer.close()
        transactional = Producer({"bootstrap.servers": broker.bootstrap_servers,
                                  "transactional.id": "files"})
        transactional.init_transactions(10)
        transactional.begin_transaction()
        transactional.produce("small", value=b"in a transaction")
        transactional.commit_transaction(10)
        assert broker.stop() == 0

        before = files_of(logs)
        broker.restart()
        assert "0 B checked beyond the recovery points" in broker.log(), broker.log()
        topics = broker.topics()  # as recovered from the files, which nothing changes now
        assert broker.stop() == 0
        after = files_of(logs)
        assert after == before, {name for name in before.keys() | after.keys()
                                 if before.get(name) != after.get(name)}

    found = check_log_folder(logs, topics)
    assert len(list((logs / "small-0").glob("*.log"))) > 1, "segment.bytes rolled no segment"
    for partition in (0, 1):
        decoded = [(r.key, r.value, [(k.decode(), v) for k, v in r.headers])
                   for b in found[("a", partition)] for r in b.records]
        assert decoded == sent[partition]
    assert any(b.control_type() == "COMMIT" for b in found[("small", 0)])
    assert any(b.records for key, batches in found.items()
               if key[0] == "__consumer_offsets" for b in batches)
    assert any(b.records for key, batches in found.items()
               if key[0] == "__transaction_state" for b in batches)


# --- A full disk -----------------------------------------------------------------------------
def test_a_full_disk_gets_storage_errors_and_the_broker_goes_on_when_space_returns(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs as root)")
    logs = tmp_path / "logs"
    logs.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(logs)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        with Broker(log_dirs=logs, topics={"big": 1}) as broker:
            errors = []
            stored_values = []
            producer = Producer({"bootstrap.servers": broker.bootstrap_servers, "acks": "all",
                                 "message.timeout.ms": 3000, "retries": 2,
                                 "retry.backoff.ms": 50, "linger.ms": 0})

            def delivered(error, message):
                if error is not None:
                    errors.append(error)
                else:
                    stored_values.append(message.value())
            for n in range(60):
                producer.produce("big", value=f"{n:05}".encode() * 20000,
                                 on_delivery=delivered)
                producer.flush(10)
                if errors:
                    break
            assert errors, "the disk never filled"
            assert any(e.code() in (KafkaError.KAFKA_STORAGE_ERROR, KafkaError._MSG_TIMED_OUT)
                       for e in errors), errors
            assert "KAFKA_STORAGE_ERROR" in broker.log() or "cannot reserve" in broker.log()
            # Alive, and what it acknowledged is there.
            assert broker.topic("big")["partitions"][0]["log_end_offset"] == len(stored_values)
            assert [v for _, v in read_all(broker, "big")] == stored_values
            subprocess.run(["mount", "-o", "remount,size=64m", str(logs)], check=True)
            produce(broker, "big", [b"after"])
            assert [v for _, v in read_all(broker, "big")] == stored_values + [b"after"]
            assert broker.stop() == 0
    finally:
        subprocess.run(["umount", "-l", str(logs)], check=False)


# --- kgroups dump-log ------------------------------------------------------------------------
def test_kgroups_dump_log_prints_what_the_independent_reader_reads(tmp_path):
    cli = Path(os.environ.get("KGROUPS_CLI", Path(__file__).resolve().parents[2] /
                              "build/broker/tools/cli/kgroups"))
    if not cli.exists():
        pytest.fail(f"kgroups binary not found at {cli}: set KGROUPS_CLI")
    logs = tmp_path / "logs"
    with Broker(log_dirs=logs, topics={"notes": 1}) as broker:
        for n in range(3):
            produce(broker, "notes", [f"note-{n}-{k}".encode() for k in range(4)])
        broker.stop()
    segment = logs / "notes-0" / "00000000000000000000.log"
    dumped = subprocess.run([str(cli), "dump-log", str(segment), "--print-data-log"],
                            capture_output=True, text=True, check=True).stdout
    batches = read_segment(segment)
    lines = dumped.splitlines()
    batch_lines = [line for line in lines if line.startswith("baseOffset: ")]
    assert [(int(line.split()[1]), int(line.split()[3])) for line in batch_lines] == \
        [(b.base_offset, b.last_offset) for b in batches]
    payloads = [line.rsplit("payload: ", 1)[1] for line in lines if line.startswith("| offset")]
    assert payloads == [r.value.decode() for b in batches for r in b.records]
    # A torn copy: the dump says where the valid batches end and why.
    torn = tmp_path / "00000000000000000000.log"
    torn.write_bytes(segment.read_bytes()[:batches[-1].position + 20])
    dumped = subprocess.run([str(cli), "dump-log", str(torn)], capture_output=True, text=True,
                            check=True).stdout
    assert f"invalid bytes at position {batches[-1].position}" in dumped
