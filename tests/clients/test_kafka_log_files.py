# SPDX-License-Identifier: Apache-2.0
"""The independent log-file reader itself, on bytes built here by hand."""
import struct

from kafka_log_files import crc32c, read_offset_index, read_segment


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


def batch(base_offset, values):
    records = b""
    for delta, value in enumerate(values):
        body = b"\0" + zigzag(0) + zigzag(delta) + zigzag(-1) + zigzag(len(value)) + value + zigzag(0)
        records += zigzag(len(body)) + body
    after_crc = struct.pack(">hiqqqhii", 0, len(values) - 1, 1000, 1000, -1, -1, -1,
                            len(values)) + records
    crc = crc32c(after_crc)
    header = struct.pack(">qiibI", base_offset, 4 + 1 + 4 + len(after_crc), 0, 2, crc)
    return header + after_crc


def test_crc32c_matches_the_standard_check_value():
    assert crc32c(b"123456789") == 0xE3069283


def test_batches_and_records_decode_and_a_flipped_byte_fails_the_crc(tmp_path):
    segment = tmp_path / "00000000000000000005.log"
    data = batch(5, [b"a", b"bc"]) + batch(7, [b"def"])
    segment.write_bytes(data)
    batches = read_segment(segment)
    assert [(b.base_offset, b.last_offset, b.crc_valid) for b in batches] == [(5, 6, True),
                                                                            (7, 7, True)]
    assert [r.value for r in batches[0].records] == [b"a", b"bc"]
    assert batches[1].position == len(batch(5, [b"a", b"bc"]))
    flipped = bytearray(data)
    flipped[-1] ^= 1
    segment.write_bytes(bytes(flipped))
    assert [b.crc_valid for b in read_segment(segment)] == [True, False]


def test_offset_index_entries_are_relative_to_the_file_name(tmp_path):
    index = tmp_path / "00000000000000000100.index"
    index.write_bytes(struct.pack(">iiii", 3, 4096, 9, 8200))
    assert read_offset_index(index) == [(103, 4096), (109, 8200)]
