# SPDX-License-Identifier: Apache-2.0
"""An independent reader of Kafka's log files, written from Kafka's documented formats with no
project code: record batches v2 (with CRC-32C), records (varints), .index, .timeindex and
offset checkpoints. Tests decode kgroupsd's --log-dirs files with it."""
import struct
from dataclasses import dataclass, field
from pathlib import Path

_CRC32C_TABLE = []
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _CRC32C_TABLE.append(_c)


def crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _CRC32C_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def _varint(data: bytes, at: int) -> tuple[int, int]:
    shift = 0
    value = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            break
        shift += 7
    return (value >> 1) ^ -(value & 1), at


@dataclass
class Record:
    offset: int
    timestamp: int
    key: bytes | None
    value: bytes | None
    headers: list = field(default_factory=list)


@dataclass
class Batch:
    position: int
    base_offset: int
    last_offset: int
    size: int
    crc_valid: bool
    attributes: int
    max_timestamp: int
    producer_id: int
    producer_epoch: int
    base_sequence: int
    records: list


def _records(batch: bytes, base_offset: int, base_timestamp: int, count: int) -> list:
    records = []
    at = 61
    for _ in range(count):
        length, at = _varint(batch, at)
        end = at + length
        at += 1  # attributes
        timestamp_delta, at = _varint(batch, at)
        offset_delta, at = _varint(batch, at)
        key_length, at = _varint(batch, at)
        key = None if key_length < 0 else batch[at:at + key_length]
        at += max(key_length, 0)
        value_length, at = _varint(batch, at)
        value = None if value_length < 0 else batch[at:at + value_length]
        at += max(value_length, 0)
        headers = []
        header_count, at = _varint(batch, at)
        for _ in range(header_count):
            name_length, at = _varint(batch, at)
            name = batch[at:at + name_length]
            at += name_length
            header_length, at = _varint(batch, at)
            headers.append((name, None if header_length < 0 else batch[at:at + header_length]))
            at += max(header_length, 0)
        if at != end:
            raise ValueError(f"record at offset {base_offset + offset_delta} has "
                             f"{end - at} stray bytes")
        records.append(Record(base_offset + offset_delta, base_timestamp + timestamp_delta,
                              key, value, headers))
    return records


def read_segment(path: Path) -> list[Batch]:
    """Every batch of a .log file; raises ValueError at the first bytes that are not one."""
    data = Path(path).read_bytes()
    batches = []
    at = 0
    while at < len(data):
        if len(data) - at < 61:
            raise ValueError(f"{path}: {len(data) - at} stray bytes at {at}")
        base_offset, length, _epoch, magic, crc, attributes, delta, base_ts, max_ts, pid, \
            pepoch, base_seq, count = struct.unpack_from(">qiibIhiqqqhii", data, at)
        size = length + 12
        if magic != 2 or at + size > len(data):
            raise ValueError(f"{path}: no valid batch at byte {at}")
        batch = data[at:at + size]
        compressed = attributes & 0x07
        records = [] if compressed else _records(batch, base_offset, base_ts, count)
        batches.append(Batch(at, base_offset, base_offset + delta, size,
                             crc32c(batch[21:]) == crc, attributes, max_ts, pid, pepoch,
                             base_seq, records))
        at += size
    return batches


def read_offset_index(path: Path) -> list[tuple[int, int]]:
    """(absolute offset, position) entries of a .index file."""
    base = int(Path(path).name.split(".")[0])
    data = Path(path).read_bytes()
    return [(base + relative, position)
            for relative, position in struct.iter_unpack(">ii", data[:len(data) // 8 * 8])]


def read_time_index(path: Path) -> list[tuple[int, int]]:
    """(timestamp, absolute offset) entries of a .timeindex file."""
    base = int(Path(path).name.split(".")[0])
    data = Path(path).read_bytes()
    return [(timestamp, base + relative)
            for timestamp, relative in struct.iter_unpack(">qi", data[:len(data) // 12 * 12])]


def read_offset_checkpoint(path: Path) -> dict[tuple[str, int], int]:
    lines = Path(path).read_text().splitlines()
    if lines[0] != "0" or int(lines[1]) != len(lines) - 2:
        raise ValueError(f"{path}: not a version-0 checkpoint")
    entries = {}
    for line in lines[2:]:
        topic, partition, offset = line.split(" ")
        entries[(topic, int(partition))] = int(offset)
    return entries
