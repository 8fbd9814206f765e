# SPDX-License-Identifier: Apache-2.0
"""kgroupsd --log-dirs (docs/STORAGE.md) with real clients: what a clean restart and a kill -9
keep, torn and corrupt segment tails, the files decoded by an independent reader, and a full
disk."""
import hashlib
import os
import random
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest
from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from kafka_log_files import (read_offset_checkpoint, read_offset_index, read_segment,
                             read_time_index)
from kgroups import Broker


def produce(broker, topic, values, **config):
    producer = Producer({"bootstrap.servers": broker.bootstrap_servers, "acks": "all", **config})
    for value in values:
        producer.produce(topic, value=value)
    assert producer.flush(30) == 0


def read_all(broker, topic, partition=0, group=None):
    consumer = Consumer({"bootstrap.servers": broker.bootstrap_servers,
                         "group.id": group or str(uuid.uuid4()), "enable.auto.commit": False,
                         "auto.offset.reset": "earliest"})
    low, high = consumer.get_watermark_offsets(TopicPartition(topic, partition), timeout=10)
    consumer.assign([TopicPartition(topic, partition, low)])
    records = []
    while len(records) < high - low:
        message = consumer.poll(10)
        assert message is not None, f"only {len(records)} of {high - low} records came"
        if message.error() is None:
            records.append((message.offset(), message.value()))
    consumer.close()
    return records


def files_of(folder):
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(Path(folder).rglob("*")) if path.is_file() and path.name != ".lock"}


def test_a_clean_restart_keeps_topics_records_and_a_groups_committed_offset(tmp_path):
    with Broker(log_dirs=tmp_path / "logs", topics={"orders": 2}) as broker:
        produce(broker, "orders", [f"v{n}".encode() for n in range(20)])
        before = read_all(broker, "orders", 0) + read_all(broker, "orders", 1)
        config = {"bootstrap.servers": broker.bootstrap_servers, "group.id": "billing",
                  "enable.auto.commit": False, "auto.offset.reset": "earliest"}
        consumer = Consumer(config)
        consumer.assign([TopicPartition("orders", 0, 0)])
        got = [consumer.poll(10) for _ in range(3)]
        assert all(m is not None and m.error() is None for m in got)
        consumer.commit(asynchronous=False)
        consumer.close()
        topic_id = broker.topic("orders")["id"]
        assert broker.stop() == 0
        broker.restart()
        assert "log directory: " in broker.log()
        assert broker.topic("orders")["id"] == topic_id
        assert read_all(broker, "orders", 0) + read_all(broker, "orders", 1) == before
        consumer = Consumer(config)
        committed = consumer.committed([TopicPartition("orders", 0)], timeout=10)
        assert committed[0].offset == 3
        consumer.close()


def test_kill_9_loop_keeps_every_acknowledged_record_once_and_in_order(tmp_path):
    seed = random.randrange(1 << 30)
    print("seed", seed)
    rng = random.Random(seed)
    acknowledged = []
    with Broker(log_dirs=tmp_path / "logs", topics={"ledger": 1},
                log_flush_interval_messages=1) as broker:
        producer = Producer({"bootstrap.servers": broker.bootstrap_servers,
                             "enable.idempotence": True, "acks": "all", "linger.ms": 2,
                             "message.timeout.ms": 60000, "retry.backoff.ms": 50})

        def delivered(error, message):
            if error is None:
                acknowledged.append(int(message.value()))

        sent = 0
        for round_number in range(10):
            burst = rng.randrange(50, 400)
            for _ in range(burst):
                producer.produce("ledger", value=str(sent).encode(), on_delivery=delivered)
                sent += 1
                if rng.random() < 0.02:
                    producer.poll(0)
            producer.poll(rng.random() * 0.05)
            broker.kill()  # with a random part of the burst in flight
            broker.restart()
        assert producer.flush(60) == 0
        values = [int(value) for _, value in read_all(broker, "ledger")]
    assert len(values) == len(set(values)), "a record is there twice"
    assert values == sorted(values), "records out of order"
    missing = set(acknowledged) - set(values)
    assert not missing, f"acknowledged records lost: {sorted(missing)[:10]} (seed {seed})"
    assert len(acknowledged) == sent


def test_a_group_resumes_at_its_last_acknowledged_commit_after_each_kill(tmp_path):
    with Broker(log_dirs=tmp_path / "logs", topics={"work": 1}) as broker:
        produce(broker, "work", [str(n).encode() for n in range(50)])
        config = {"bootstrap.servers": broker.bootstrap_servers, "group.id": "workers",
                  "enable.auto.commit": False, "auto.offset.reset": "earliest",
                  "session.timeout.ms": 6000}
        position = 0
        for _ in range(4):
            consumer = Consumer(config)
            consumer.subscribe(["work"])
            taken = 0
            while taken < 5:
                message = consumer.poll(10)
                if message is None or message.error() is not None:
                    continue
                assert message.offset() == position + taken
                taken += 1
            consumer.commit(asynchronous=False)  # acknowledged: it must survive the kill
            position += taken
            broker.kill()
            consumer.close()
            broker.restart()


def test_a_torn_last_batch_is_cut_with_a_log_line_and_the_records_before_it_served(tmp_path):
    logs = tmp_path / "logs"
    with Broker(log_dirs=logs, topics={"events": 1}) as broker:
        for n in range(5):
            produce(broker, "events", [f"event-{n}".encode() * 20])
        broker.stop()
    segment = logs / "events-0" / "00000000000000000000.log"
    batches = read_segment(segment)
    last = batches[-1]
    # From the last byte of the base offset on (a piece of only zero bytes is no batch at all).
    cuts = sorted({last.position + 8, last.position + 12, last.position + 61,
                   last.position + last.size // 2, last.position + last.size - 1})
    for cut in cuts:
        copy = tmp_path / f"cut-{cut}"
        shutil.copytree(logs, copy)
        os.truncate(copy / "events-0" / "00000000000000000000.log", cut)
        with Broker(log_dirs=copy) as broker:
            assert "recovery: truncated" in broker.log() and f"at byte {last.position}" in \
                broker.log(), broker.log()
            records = read_all(broker, "events")
            assert [offset for offset, _ in records] == [0, 1, 2, 3]
            produce(broker, "events", [b"after the cut"])
            assert read_all(broker, "events")[-1] == (4, b"after the cut")


def test_a_flipped_byte_in_the_middle_truncates_there_and_never_serves_it(tmp_path):
    logs = tmp_path / "logs"
    with Broker(log_dirs=logs, topics={"events": 1}) as broker:
        for n in range(6):
            produce(broker, "events", [f"event-{n}".encode() * 20])
        broker.kill()  # nothing checkpointed: every batch is beyond the recovery point
    segment = logs / "events-0" / "00000000000000000000.log"
    data = bytearray(segment.read_bytes())
    batches = read_segment_prefix(data)
    middle = batches[3]
    data[middle.position + middle.size - 3] ^= 0xFF
    segment.write_bytes(bytes(data))
    broker = Broker(log_dirs=logs)
    try:
        assert "CRC mismatch" in broker.log(), broker.log()
        assert [offset for offset, _ in read_all(broker, "events")] == [0, 1, 2]
    finally:
        broker.stop()


def read_segment_prefix(data):
    """The batches of a segment whose file still has its reserved zeros (a killed broker)."""
    end = len(data.rstrip(b"\0"))
    scratch = Path(os.environ.get("TMPDIR", "/tmp")) / f"segment-{uuid.uuid4()}.log"
    scratch.write_bytes(bytes(data))
    try:
        # The zeros are no batch: read only as far as the batches go.
        batches = []
        for batch in _batches_until_zeros(scratch, end):
            batches.append(batch)
        return batches
    finally:
        scratch.unlink()


def _batches_until_zeros(path, end):
    data = path.read_bytes()
    trimmed = path.with_suffix(".trimmed")
    position = 0
    import struct
    while position < end:
        size = struct.unpack_from(">i", data, position + 8)[0] + 12
        position += size
    trimmed.write_bytes(data[:position])
    try:
        return read_segment(trimmed)
    finally:
        trimmed.unlink()


def test_files_decode_with_an_independent_reader_and_a_clean_restart_changes_none(tmp_path):
    logs = tmp_path / "logs"
    with Broker(log_dirs=logs, topics={"a": 2}) as broker:
        admin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
        created = admin.create_topics([
            NewTopic("small", 1, 1, config={"segment.bytes": "20000"}),
            NewTopic("keys", 1, 1, config={"cleanup.policy": "compact"})])
        for future in created.values():
            future.result(10)
        produce(broker, "a", [bytes([n]) * 300 for n in range(200)], **{"linger.ms": 0})
        for _ in range(10):  # ten Produce requests of ~10 KB: segments of 20000 bytes roll
            produce(broker, "small", [b"x" * 1000 for _ in range(10)])
        producer = Producer({"bootstrap.servers": broker.bootstrap_servers})
        for n in range(100):
            producer.produce("keys", key=str(n % 7).encode(), value=str(n).encode())
        producer.flush(10)
        broker.stop()
        segments = sorted(logs.rglob("*.log"))
        assert len(list((logs / "small-0").glob("*.log"))) > 1, "segment.bytes rolled no segment"
        for segment in segments:
            batches = read_segment(segment)
            assert all(batch.crc_valid for batch in batches), segment
            offsets = [b.base_offset for b in batches]
            assert offsets == sorted(set(offsets)), segment
            assert batches, f"{segment} is empty"
            assert batches[0].base_offset >= int(segment.name.split(".")[0])
            starts = {b.position: b for b in batches}
            for offset, position in read_offset_index(segment.with_suffix(".index")):
                assert position in starts, f"{segment}: index entry at no batch start"
                assert starts[position].last_offset == offset
            times = read_time_index(segment.with_suffix(".timeindex"))
            assert [t for t, _ in times] == sorted({t for t, _ in times})
            assert times and times[-1][0] == max(b.max_timestamp for b in batches)
        assert sum(b.last_offset - b.base_offset + 1
                   for s in (logs / "a-0").glob("*.log") for b in read_segment(s)) + \
            sum(b.last_offset - b.base_offset + 1
                for s in (logs / "a-1").glob("*.log") for b in read_segment(s)) == 200
        checkpoints = read_offset_checkpoint(logs / "recovery-point-offset-checkpoint")
        assert checkpoints[("small", 0)] == 100
        before = files_of(logs)
        broker.restart()
        assert "0 B checked beyond the recovery points" in broker.log(), broker.log()
        broker.stop()
        assert files_of(logs) == before


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
            producer = Producer({"bootstrap.servers": broker.bootstrap_servers, "acks": "all",
                                 "message.timeout.ms": 3000, "retries": 2,
                                 "retry.backoff.ms": 50, "linger.ms": 0})

            def delivered(error, message):
                if error is not None:
                    errors.append(error)
            for _ in range(60):
                producer.produce("big", value=b"z" * 100000, on_delivery=delivered)
                producer.flush(10)
                if errors:
                    break
            assert errors, "the disk never filled"
            assert any(e.code() in (KafkaError.KAFKA_STORAGE_ERROR, KafkaError._MSG_TIMED_OUT)
                       for e in errors), errors
            assert "KAFKA_STORAGE_ERROR" in broker.log() or "cannot reserve" in broker.log()
            stored = len(read_all(broker, "big"))
            assert stored > 0
            subprocess.run(["mount", "-o", "remount,size=64m", str(logs)], check=True)
            produce(broker, "big", [b"after"])
            assert read_all(broker, "big")[-1][1] == b"after"
            assert len(read_all(broker, "big")) == stored + 1
    finally:
        subprocess.run(["umount", "-l", str(logs)], check=False)


def test_transactions_open_at_a_kill_are_aborted_after_their_timeout_and_committed_ones_kept(
        tmp_path):
    with Broker(log_dirs=tmp_path / "logs", topics={"payments": 1}) as broker:
        def transactional(transactional_id):
            producer = Producer({"bootstrap.servers": broker.bootstrap_servers,
                                 "transactional.id": transactional_id,
                                 "transaction.timeout.ms": 3000})
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
        consumer = Consumer({"bootstrap.servers": broker.bootstrap_servers,
                             "group.id": str(uuid.uuid4()), "isolation.level": "read_committed",
                             "auto.offset.reset": "earliest", "enable.auto.commit": False})
        consumer.assign([TopicPartition("payments", 0, 0)])
        values = []
        deadline = 20
        # The open transaction ends (aborted at its timeout) and the last stable offset passes
        # it: a record produced after it is readable only then.
        produce(broker, "payments", [b"after"])
        while b"after" not in values and deadline > 0:
            message = consumer.poll(1)
            deadline -= 1
            if message is not None and message.error() is None:
                values.append(message.value())
        consumer.close()
        assert values == [b"committed-0", b"committed-1", b"committed-2", b"after"], values


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
