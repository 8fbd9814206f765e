# SPDX-License-Identifier: Apache-2.0
"""Helpers of test_durable_log.py: producing and reading with confluent-kafka against a
kgroups.Broker, a folder's files and their hashes, and the checks of a stopped broker's log
folder made with the independent reader (kafka_log_files.py); InitProducerId and an
idempotent Produce on the wire (as test_idempotence.py sends them)."""
import hashlib
import time
from pathlib import Path

from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
from kafka.record.default_records import DefaultRecordBatchBuilder

from flexible_wire import TAGS, cstr, flexible_request, i16, i32, i64, produce_one_batch
from kafka_log_files import (read_leader_epoch_checkpoint, read_offset_checkpoint,
                             read_offset_index, read_partition_metadata, read_segment,
                             read_time_index, segment_base_offset)
from raw_client import RawConnection


def produce(broker, topic, values, partition=None, **config):
    """Produces `values` with acks=all and waits until every one is acknowledged; returns
    their offsets."""
    producer = Producer({"bootstrap.servers": broker.bootstrap_servers, "acks": "all", **config})
    offsets = []
    errors = []

    def delivered(error, message):
        if error is None:
            offsets.append(message.offset())
        else:
            errors.append(error)

    for value in values:
        if partition is None:
            producer.produce(topic, value=value, on_delivery=delivered)
        else:
            producer.produce(topic, value=value, partition=partition, on_delivery=delivered)
    assert producer.flush(30) == 0, "records still unacknowledged after 30 s"
    assert not errors, errors
    return offsets


def read_all(broker, topic, partition=0, isolation="read_committed", timeout=20.0,
             keys=False):
    """Every record of the partition from its log start to its high watermark, as (offset,
    value), or (offset, key, value) with `keys`; aborted ones and markers are skipped under
    read_committed."""
    consumer = Consumer({"bootstrap.servers": broker.bootstrap_servers,
                         "group.id": "reader", "enable.auto.commit": False,
                         "enable.partition.eof": True, "isolation.level": isolation})
    try:
        low, high = consumer.get_watermark_offsets(TopicPartition(topic, partition),
                                                   timeout=10)
        if high == low:
            return []
        consumer.assign([TopicPartition(topic, partition, low)])
        records = []
        deadline = time.monotonic() + timeout
        while True:
            assert time.monotonic() < deadline, \
                f"{topic}-{partition}: only up to {records[-1:]} of [{low}, {high}) came"
            message = consumer.poll(1)
            if message is None:
                continue
            error = message.error()
            if error is None:
                records.append((message.offset(), message.key(), message.value()) if keys
                               else (message.offset(), message.value()))
            elif error.code() == KafkaError._PARTITION_EOF:
                if message.offset() >= high:
                    return records
            else:
                raise AssertionError(f"{topic}-{partition}: {error}")
    finally:
        consumer.close()


def partition_batches(folder, zero_tail=False):
    """The batches of every segment of a partition's folder, oldest first."""
    return [batch for segment in sorted(Path(folder).glob("*.log"))
            for batch in read_segment(segment, zero_tail)]


def files_of(folder):
    """{relative path: sha256} of every file under `folder` (the lock file aside)."""
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(Path(folder).rglob("*")) if path.is_file() and path.name != ".lock"}


def truncation_lines(log):
    return [line for line in log.splitlines() if "truncated" in line]


def check_partition_folder(folder):
    """Checks one partition's folder of a cleanly stopped broker with the independent reader
    and returns its batches, oldest first:

    - every .log decodes: CRCs valid, base offsets increasing across segments, the first
      batch at or past the segment's base offset, no zero bytes left at the end;
    - every .index entry points at a batch start and names that batch's last offset, with
      offsets and positions increasing;
    - every .timeindex entry names an offset of its segment whose batch has that maximum
      timestamp, with timestamps increasing, the last one the segment's largest;
    - leader-epoch-checkpoint's epochs and start offsets increase."""
    batches = []
    segments = sorted(folder.glob("*.log"))
    for segment in segments:
        base = segment_base_offset(segment)
        found = read_segment(segment)
        assert found, f"{segment}: a segment with no batch"
        assert all(batch.crc_valid for batch in found), f"{segment}: a CRC does not match"
        assert found[0].base_offset >= base, f"{segment}: batch below the file's base offset"
        if batches:
            assert found[0].base_offset > batches[-1].last_offset, f"{segment}: offsets go back"
        for earlier, later in zip(found, found[1:]):
            assert later.base_offset > earlier.last_offset, f"{segment}: offsets go back"
        starts = {batch.position: batch for batch in found}
        entries = read_offset_index(segment.with_suffix(".index"))
        for offset, position in entries:
            assert position in starts, f"{segment}: index entry ({offset}, {position}) at no batch"
            assert starts[position].last_offset == offset, \
                f"{segment}: index entry ({offset}, {position}) names another offset"
        assert [o for o, _ in entries] == sorted(set(o for o, _ in entries))
        assert [p for _, p in entries] == sorted(set(p for _, p in entries))
        times = read_time_index(segment.with_suffix(".timeindex"))
        assert [t for t, _ in times] == sorted(set(t for t, _ in times)), \
            f"{segment}: time index timestamps do not increase"
        for timestamp, offset in times:
            owner = [b for b in found if b.base_offset <= offset <= b.last_offset]
            assert owner and owner[0].max_timestamp == timestamp, \
                f"{segment}: time index entry ({timestamp}, {offset}) matches no batch"
        assert times and times[-1][0] == max(b.max_timestamp for b in found), \
            f"{segment}: the time index lacks the segment's largest timestamp"
        batches += found
    epochs = read_leader_epoch_checkpoint(folder / "leader-epoch-checkpoint")
    assert [e for e, _ in epochs] == sorted(set(e for e, _ in epochs))
    assert [s for _, s in epochs] == sorted(s for _, s in epochs)
    return batches


def check_log_folder(logs, topics):
    """Checks a cleanly stopped broker's folder against `topics` (Broker.topics() of a broker
    on it): one folder per partition with partition.metadata naming the topic's id, every
    folder's files (check_partition_folder), and the offset checkpoints naming every partition
    at its log end offset (recovery point) and log start offset. Returns {(topic, partition):
    batches}."""
    expected = {(t["name"], p["partition"]): (t["id"], p) for t in topics for p in t["partitions"]}
    folders = {(path.name.rsplit("-", 1)[0], int(path.name.rsplit("-", 1)[1])): path
               for path in logs.iterdir() if path.is_dir()}
    assert set(folders) == set(expected), set(folders) ^ set(expected)
    recovery = read_offset_checkpoint(logs / "recovery-point-offset-checkpoint")
    starts = read_offset_checkpoint(logs / "log-start-offset-checkpoint")
    found = {}
    for key, folder in folders.items():
        topic_id, partition = expected[key]
        assert read_partition_metadata(folder / "partition.metadata")["topic_id"] == topic_id
        batches = check_partition_folder(folder)
        if batches:
            assert batches[-1].last_offset + 1 == partition["log_end_offset"], key
        assert recovery[key] == partition["log_end_offset"], key
        # Kafka writes a log start offset only where it is past the first segment's base.
        first_base = segment_base_offset(min(folder.glob("*.log"))) if batches else 0
        assert starts.get(key, first_base) == partition["log_start_offset"], key
        found[key] = batches
    return found


# --- Producer ids on the wire (as test_idempotence.py sends them) -----------------------------
def init_producer_id(bootstrap):
    """InitProducerId v4 without a transactional id: (error, producer id, epoch)."""
    connection = RawConnection(bootstrap)
    try:
        r = flexible_request(connection, 22, 4, cstr(None) + i32(60000) + i64(-1) + i16(-1) +
                             TAGS)
        _throttle, error, producer_id, epoch = r.i32(), r.i16(), r.i64(), r.i16()
        r.finish()
        return error, producer_id, epoch
    finally:
        connection.close()


def produce_as(bootstrap, topic, partition, producer_id, epoch, sequence, values):
    """One idempotent batch of `values` in a Produce v9 (acks=all): (error, base offset)."""
    builder = DefaultRecordBatchBuilder(magic=2, compression_type=0, is_transactional=False,
                                        producer_id=producer_id, producer_epoch=epoch,
                                        base_sequence=sequence, batch_size=1 << 20)
    for offset, value in enumerate(values):
        builder.append(offset, timestamp=1000 + offset, key=None, value=value, headers=[])
    connection = RawConnection(bootstrap)
    try:
        answer = produce_one_batch(connection, topic, partition, bytes(builder.build()))
        return answer["error"], answer["base_offset"]
    finally:
        connection.close()
