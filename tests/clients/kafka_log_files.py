# SPDX-License-Identifier: Apache-2.0
"""An independent reader of Kafka's log files, written from Kafka's documented formats with no
project code: record batches v2 (with CRC-32C), records (varints), control records, .index,
.timeindex, offset checkpoints, leader-epoch-checkpoint and partition.metadata. Tests decode
kgroupsd's --log-dirs files with it (test_durable_log.py); its own tests, on bytes built by
hand, are test_kafka_log_files.py.

The batch layout (Kafka's "Record Batch", magic 2), big-endian:

    baseOffset int64 | batchLength int32 | partitionLeaderEpoch int32 | magic int8 |
    crc uint32 (CRC-32C of everything after it) | attributes int16 | lastOffsetDelta int32 |
    baseTimestamp int64 | maxTimestamp int64 | producerId int64 | producerEpoch int16 |
    baseSequence int32 | recordCount int32 | records

and each record: length varint | attributes int8 | timestampDelta varlong |
offsetDelta varint | keyLength varint | key | valueLength varint | value |
headerCount varint | headers (keyLength varint | key | valueLength varint | value).
"""
import struct
from dataclasses import dataclass, field
from pathlib import Path

BATCH_HEADER = struct.Struct(">qiibIhiqqqhii")
BATCH_HEADER_SIZE = BATCH_HEADER.size  # 61
# batchLength counts the bytes after itself: a batch of no records has 49.
_MIN_BATCH_LENGTH = BATCH_HEADER_SIZE - 12
_CRC_START = 21  # the CRC covers attributes to the end of the batch

_CRC32C_TABLE = []
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _CRC32C_TABLE.append(_c)


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), table-driven."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _CRC32C_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def read_varint(data: bytes, at: int) -> tuple[int, int]:
    """A zigzag varint (or varlong) at `at`: (value, position after it). IndexError if the
    bytes end inside it; ValueError if it runs past 10 bytes."""
    shift = 0
    value = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            break
        shift += 7
        if shift > 63:
            raise ValueError(f"varint longer than 10 bytes ending at {at}")
    return (value >> 1) ^ -(value & 1), at


@dataclass
class Record:
    offset: int
    timestamp: int
    key: bytes | None
    value: bytes | None
    headers: list = field(default_factory=list)  # [(name bytes, value bytes | None)]


@dataclass
class Batch:
    position: int  # byte position of the batch in its file
    base_offset: int
    last_offset: int
    size: int  # bytes, the 12 of baseOffset and batchLength included
    crc_valid: bool
    attributes: int
    max_timestamp: int
    producer_id: int
    producer_epoch: int
    base_sequence: int
    records: list  # [Record]; empty for a compressed batch or one whose CRC fails
    partition_leader_epoch: int = -1
    base_timestamp: int = -1
    record_count: int = 0

    @property
    def compression(self) -> int:
        return self.attributes & 0x07

    @property
    def is_transactional(self) -> bool:
        return bool(self.attributes & 0x10)

    @property
    def is_control(self) -> bool:
        return bool(self.attributes & 0x20)

    def control_type(self) -> str | None:
        """"COMMIT" or "ABORT" for a control batch's marker (its record's key: version int16,
        type int16), None for a data batch."""
        if not self.is_control or not self.records or self.records[0].key is None:
            return None
        _version, kind = struct.unpack_from(">hh", self.records[0].key)
        return {0: "ABORT", 1: "COMMIT"}.get(kind, f"type {kind}")


def _records(batch: bytes, base_offset: int, base_timestamp: int, count: int) -> list:
    records = []
    at = BATCH_HEADER_SIZE
    previous_delta = -1
    for _ in range(count):
        length, at = read_varint(batch, at)
        end = at + length
        if length <= 0 or end > len(batch):
            raise ValueError(f"record of length {length} at batch byte {at} does not fit")
        at += 1  # attributes
        timestamp_delta, at = read_varint(batch, at)
        offset_delta, at = read_varint(batch, at)
        if offset_delta <= previous_delta:
            raise ValueError(f"record offset delta {offset_delta} after {previous_delta}")
        previous_delta = offset_delta
        key_length, at = read_varint(batch, at)
        key = None if key_length < 0 else batch[at:at + key_length]
        at += max(key_length, 0)
        value_length, at = read_varint(batch, at)
        value = None if value_length < 0 else batch[at:at + value_length]
        at += max(value_length, 0)
        headers = []
        header_count, at = read_varint(batch, at)
        for _ in range(header_count):
            name_length, at = read_varint(batch, at)
            name = batch[at:at + name_length]
            at += name_length
            header_length, at = read_varint(batch, at)
            headers.append((name, None if header_length < 0 else batch[at:at + header_length]))
            at += max(header_length, 0)
        if at != end:
            raise ValueError(f"record at offset {base_offset + offset_delta} has "
                             f"{end - at} stray bytes")
        records.append(Record(base_offset + offset_delta, base_timestamp + timestamp_delta,
                              key, value, headers))
    if at != len(batch):
        raise ValueError(f"batch at offset {base_offset} has {len(batch) - at} bytes after its "
                         f"{count} records")
    return records


def read_batches(data: bytes, name: str = "segment", zero_tail: bool = False) -> list[Batch]:
    """Every batch in `data` (a .log file's bytes). Raises ValueError at the first bytes that
    are no batch (too short, magic not 2, a length running past the end, records that do not
    parse); a CRC that does not match is reported in Batch.crc_valid instead, and its records
    are not decoded. `zero_tail`: zero bytes from a batch boundary to the end (space a
    running or killed broker reserved) end the segment instead of failing."""
    batches = []
    at = 0
    while at < len(data):
        if zero_tail and not any(data[at:]):
            break
        if len(data) - at < BATCH_HEADER_SIZE:
            raise ValueError(f"{name}: {len(data) - at} stray bytes at {at}")
        (base_offset, length, leader_epoch, magic, crc, attributes, last_delta, base_ts,
         max_ts, pid, pepoch, base_seq, count) = BATCH_HEADER.unpack_from(data, at)
        size = length + 12
        if magic != 2 or length < _MIN_BATCH_LENGTH or at + size > len(data) or count < 0 \
                or last_delta < 0:
            raise ValueError(f"{name}: no valid batch at byte {at} (magic {magic}, length "
                             f"{length}, {len(data) - at} bytes left)")
        batch = data[at:at + size]
        crc_valid = crc32c(batch[_CRC_START:]) == crc
        records = []
        if crc_valid and not attributes & 0x07:
            records = _records(batch, base_offset, base_ts, count)
            # The cleaner of a compacted topic keeps lastOffsetDelta when it drops records.
            if records and records[-1].offset > base_offset + last_delta:
                raise ValueError(f"{name}: batch at byte {at}: a record at offset "
                                 f"{records[-1].offset}, past lastOffsetDelta's "
                                 f"{base_offset + last_delta}")
        batches.append(Batch(at, base_offset, base_offset + last_delta, size, crc_valid,
                             attributes, max_ts, pid, pepoch, base_seq, records, leader_epoch,
                             base_ts, count))
        at += size
    return batches


def read_segment(path: Path, zero_tail: bool = False) -> list[Batch]:
    """Every batch of a .log file (see read_batches)."""
    return read_batches(Path(path).read_bytes(), str(path), zero_tail)


def segment_base_offset(path: Path) -> int:
    """The base offset a segment, index or time index file is named after (20 digits)."""
    stem = Path(path).name.split(".")[0]
    if len(stem) != 20 or not stem.isdigit():
        raise ValueError(f"{path}: not named after a base offset of 20 digits")
    return int(stem)


def read_offset_index(path: Path) -> list[tuple[int, int]]:
    """(absolute offset, position) entries of a .index file: 8 bytes each, relative offset
    int32 and position int32, big-endian. ValueError if the size is no multiple of 8."""
    base = segment_base_offset(path)
    data = Path(path).read_bytes()
    if len(data) % 8:
        raise ValueError(f"{path}: {len(data)} bytes, not whole 8-byte entries")
    return [(base + relative, position) for relative, position in struct.iter_unpack(">ii", data)]


def read_time_index(path: Path) -> list[tuple[int, int]]:
    """(timestamp, absolute offset) entries of a .timeindex file: 12 bytes each, timestamp
    int64 and relative offset int32, big-endian. ValueError if the size is no multiple of 12."""
    base = segment_base_offset(path)
    data = Path(path).read_bytes()
    if len(data) % 12:
        raise ValueError(f"{path}: {len(data)} bytes, not whole 12-byte entries")
    return [(timestamp, base + relative)
            for timestamp, relative in struct.iter_unpack(">qi", data)]


def _versioned_lines(path: Path) -> list[str]:
    text = Path(path).read_text()
    if not text.endswith("\n"):
        raise ValueError(f"{path}: does not end with a newline")
    lines = text.split("\n")[:-1]
    if len(lines) < 2 or lines[0] != "0" or not lines[1].isdigit() or \
            int(lines[1]) != len(lines) - 2:
        raise ValueError(f"{path}: not a version-0 checkpoint with its entry count")
    return lines[2:]


def read_offset_checkpoint(path: Path) -> dict[tuple[str, int], int]:
    """recovery-point-offset-checkpoint or log-start-offset-checkpoint:
    "0\\n<count>\\n<topic> <partition> <offset>\\n"... as {(topic, partition): offset}."""
    entries = {}
    for line in _versioned_lines(path):
        topic, partition, offset = line.split(" ")
        if (topic, int(partition)) in entries:
            raise ValueError(f"{path}: {topic}-{partition} twice")
        entries[(topic, int(partition))] = int(offset)
    return entries


def read_leader_epoch_checkpoint(path: Path) -> list[tuple[int, int]]:
    """leader-epoch-checkpoint: "0\\n<count>\\n<epoch> <start offset>\\n"... as a list."""
    entries = []
    for line in _versioned_lines(path):
        epoch, start_offset = line.split(" ")
        entries.append((int(epoch), int(start_offset)))
    return entries


def read_partition_metadata(path: Path) -> dict[str, str]:
    """partition.metadata: "version: 0\\ntopic_id: <base64 uuid>\\n" as a dict."""
    entries = {}
    for line in Path(path).read_text().splitlines():
        name, value = line.split(": ", 1)
        entries[name] = value
    if entries.get("version") != "0" or "topic_id" not in entries:
        raise ValueError(f"{path}: not a version-0 partition.metadata with a topic_id")
    return entries
