# SPDX-License-Identifier: Apache-2.0
"""The independent log-file reader itself (kafka_log_files.py), on bytes built here by hand
from Kafka's documented layouts, so that test_durable_log.py's checks rest on a checked
reader."""
import struct

import pytest

from kafka_log_files import (crc32c, read_batches, read_leader_epoch_checkpoint,
                             read_offset_checkpoint, read_offset_index, read_partition_metadata,
                             read_segment, read_time_index, read_varint)


def zigzag(value):
    value = (value << 1) ^ (value >> 63)
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def nullable(data):
    return zigzag(-1) if data is None else zigzag(len(data)) + data


def record(offset_delta, key, value, headers=(), timestamp_delta=0):
    body = b"\0" + zigzag(timestamp_delta) + zigzag(offset_delta) + nullable(key) + \
        nullable(value) + zigzag(len(headers))
    for name, header_value in headers:
        body += zigzag(len(name)) + name + nullable(header_value)
    return zigzag(len(body)) + body


def batch(base_offset, values, *, keys=None, headers=None, attributes=0, base_timestamp=1000,
          producer_id=-1, producer_epoch=-1, base_sequence=-1, leader_epoch=0,
          offset_deltas=None, last_offset_delta=None):
    deltas = offset_deltas if offset_deltas is not None else list(range(len(values)))
    records = b"".join(record(delta, keys[n] if keys else None, value,
                              headers[n] if headers else (), timestamp_delta=n)
                       for n, (delta, value) in enumerate(zip(deltas, values)))
    last = last_offset_delta if last_offset_delta is not None else max(deltas, default=0)
    after_crc = struct.pack(">hiqqqhii", attributes, last, base_timestamp,
                            base_timestamp + len(values) - 1, producer_id, producer_epoch,
                            base_sequence, len(values)) + records
    header = struct.pack(">qiibI", base_offset, 4 + 1 + 4 + len(after_crc), leader_epoch, 2,
                         crc32c(after_crc))
    return header + after_crc


def test_crc32c_matches_the_standard_check_values():
    assert crc32c(b"123456789") == 0xE3069283  # the CRC catalogue's check value
    assert crc32c(b"") == 0
    assert crc32c(bytes(32)) == 0x8A9136AA  # RFC 3720 B.4: 32 bytes of zeros
    assert crc32c(b"\xff" * 32) == 0x62A8AB43  # RFC 3720 B.4: 32 bytes of 0xFF
    assert crc32c(bytes(range(32))) == 0x46DD794E  # RFC 3720 B.4: incrementing bytes


@pytest.mark.parametrize("value", [0, 1, -1, 63, -64, 64, 300, -300, 2**31 - 1, -2**31,
                                   2**63 - 1, -2**63])
def test_varints_decode_zigzag_values_of_every_length(value):
    encoded = b"\x07" + zigzag(value) + b"\x09"
    assert read_varint(encoded, 1) == (value, 1 + len(zigzag(value)))


def test_a_varint_cut_short_fails():
    with pytest.raises(IndexError):
        read_varint(b"\x80\x80", 0)


def test_batches_and_records_decode_and_a_flipped_byte_fails_the_crc(tmp_path):
    segment = tmp_path / "00000000000000000005.log"
    data = batch(5, [b"a", b"bc"]) + batch(7, [b"def"])
    segment.write_bytes(data)
    batches = read_segment(segment)
    assert [(b.base_offset, b.last_offset, b.crc_valid) for b in batches] == [(5, 6, True),
                                                                            (7, 7, True)]
    assert [(r.offset, r.value, r.timestamp) for r in batches[0].records] == [
        (5, b"a", 1000), (6, b"bc", 1001)]
    assert batches[1].position == len(batch(5, [b"a", b"bc"]))
    assert sum(b.size for b in batches) == len(data)
    flipped = bytearray(data)
    flipped[-1] ^= 1
    segment.write_bytes(bytes(flipped))
    assert [b.crc_valid for b in read_segment(segment)] == [True, False]
    assert read_segment(segment)[1].records == []  # what fails its CRC is not decoded


def test_keys_null_values_and_headers_decode():
    data = batch(0, [b"v", None], keys=[b"key", None],
                 headers=[[(b"trace", b"1"), (b"empty", b""), (b"none", None)], []])
    first, second = read_batches(data)[0].records
    assert (first.key, first.value, first.headers) == (
        b"key", b"v", [(b"trace", b"1"), (b"empty", b""), (b"none", None)])
    assert (second.key, second.value, second.headers) == (None, None, [])


def test_batch_header_fields_and_attributes():
    data = batch(42, [b"x"], attributes=0x10, producer_id=7, producer_epoch=3, base_sequence=11,
                 leader_epoch=5, base_timestamp=1700000000000)
    (parsed,) = read_batches(data)
    assert (parsed.producer_id, parsed.producer_epoch, parsed.base_sequence) == (7, 3, 11)
    assert (parsed.partition_leader_epoch, parsed.base_timestamp, parsed.max_timestamp) == (
        5, 1700000000000, 1700000000000)
    assert parsed.is_transactional and not parsed.is_control and parsed.compression == 0
    assert parsed.record_count == 1


def test_a_control_batch_names_its_marker():
    abort = batch(3, [struct.pack(">hi", 0, 0)], keys=[struct.pack(">hh", 0, 0)],
                  attributes=0x30)
    commit = batch(4, [struct.pack(">hi", 0, 0)], keys=[struct.pack(">hh", 0, 1)],
                   attributes=0x30)
    data = batch(0, [b"a"]) + abort + commit
    assert [b.control_type() for b in read_batches(data)] == [None, "ABORT", "COMMIT"]


def test_a_compacted_batch_keeps_its_last_offset_delta_with_records_gone():
    (parsed,) = read_batches(batch(10, [b"b"], offset_deltas=[2], last_offset_delta=4))
    assert (parsed.base_offset, parsed.last_offset) == (10, 14)
    assert [r.offset for r in parsed.records] == [12]


def test_a_record_past_the_last_offset_delta_is_refused():
    with pytest.raises(ValueError, match="past lastOffsetDelta"):
        read_batches(batch(0, [b"a", b"b"], last_offset_delta=0))


@pytest.mark.parametrize("cut", [1, 8, 12, 60, 61, -1])
def test_a_torn_batch_is_refused_at_its_position(cut):
    whole = batch(0, [b"first"])
    torn = batch(1, [b"second" * 5])
    data = whole + torn[:cut if cut > 0 else len(torn) + cut]
    with pytest.raises(ValueError, match=f"at (byte )?{len(whole)}"):
        read_batches(data)


def test_a_zeroed_tail_ends_the_segment_only_when_allowed():
    data = batch(0, [b"a"]) + bytes(100)
    assert [b.base_offset for b in read_batches(data, zero_tail=True)] == [0]
    with pytest.raises(ValueError):
        read_batches(data)


def test_a_wrong_magic_is_refused():
    data = bytearray(batch(0, [b"a"]))
    data[16] = 1
    with pytest.raises(ValueError, match="magic 1"):
        read_batches(bytes(data))


def test_stray_bytes_inside_a_record_are_refused():
    good = batch(0, [b"abc"])
    # The record claims one more byte than it has; lengths and the CRC are made consistent.
    records = bytearray(good[61:])
    records[0] += 2  # zigzag: length + 1
    records += b"\0"
    after_crc = good[21:61] + bytes(records)
    header = struct.pack(">qiibI", 0, 9 + len(after_crc), 0, 2, crc32c(after_crc))
    with pytest.raises(ValueError, match="stray bytes"):
        read_batches(header + after_crc)


def test_offset_index_entries_are_relative_to_the_file_name(tmp_path):
    index = tmp_path / "00000000000000000100.index"
    index.write_bytes(struct.pack(">iiii", 3, 4096, 9, 8200))
    assert read_offset_index(index) == [(103, 4096), (109, 8200)]
    index.write_bytes(struct.pack(">ii", 3, 4096) + b"\0\0\0")
    with pytest.raises(ValueError, match="8-byte"):
        read_offset_index(index)


def test_time_index_entries_are_timestamp_then_relative_offset(tmp_path):
    index = tmp_path / "00000000000000000100.timeindex"
    index.write_bytes(struct.pack(">qiqi", 1700000000000, 0, 1700000000500, 42))
    assert read_time_index(index) == [(1700000000000, 100), (1700000000500, 142)]
    index.write_bytes(struct.pack(">qi", 1, 0)[:11])
    with pytest.raises(ValueError, match="12-byte"):
        read_time_index(index)


def test_index_files_must_be_named_after_a_base_offset(tmp_path):
    index = tmp_path / "100.index"
    index.write_bytes(b"")
    with pytest.raises(ValueError, match="20 digits"):
        read_offset_index(index)


def test_offset_checkpoints_read_and_a_wrong_count_is_refused(tmp_path):
    checkpoint = tmp_path / "recovery-point-offset-checkpoint"
    checkpoint.write_text("0\n2\norders 0 17\n__consumer_offsets 31 4\n")
    assert read_offset_checkpoint(checkpoint) == {("orders", 0): 17,
                                                  ("__consumer_offsets", 31): 4}
    checkpoint.write_text("0\n0\n")
    assert read_offset_checkpoint(checkpoint) == {}
    for bad in ("0\n3\norders 0 17\n", "1\n1\norders 0 17\n", "0\n1\norders 0 17",
                "0\n2\norders 0 1\norders 0 2\n"):
        checkpoint.write_text(bad)
        with pytest.raises(ValueError):
            read_offset_checkpoint(checkpoint)


def test_leader_epoch_checkpoint_and_partition_metadata(tmp_path):
    epochs = tmp_path / "leader-epoch-checkpoint"
    epochs.write_text("0\n2\n0 0\n3 120\n")
    assert read_leader_epoch_checkpoint(epochs) == [(0, 0), (3, 120)]
    metadata = tmp_path / "partition.metadata"
    metadata.write_text("version: 0\ntopic_id: kNbwCl4oSl6tJbUQE6wcDg\n")
    assert read_partition_metadata(metadata)["topic_id"] == "kNbwCl4oSl6tJbUQE6wcDg"
    metadata.write_text("version: 1\ntopic_id: x\n")
    with pytest.raises(ValueError):
        read_partition_metadata(metadata)
