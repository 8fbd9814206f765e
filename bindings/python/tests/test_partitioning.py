# SPDX-License-Identifier: Apache-2.0
"""SPEC.md "Partitioning" and the append/end_offset rows of "Operations"."""

import pytest

import kgroups
from reference_model import fnv1a_32
from support import keys_for_partition

INT_MAX = 2**31 - 1
REFERENCE_HASHES = {"": 2166136261, "a": 3826002220, "foobar": 3214735720}


@pytest.mark.parametrize("key,expected_hash", REFERENCE_HASHES.items())
def test_reference_hash_values(key, expected_hash):
    # With n = INT_MAX the partition reveals the hash modulo a prime; check several moduli.
    for n in (INT_MAX, 1_000_003, 6, 1):
        assert kgroups.partition_for(key, n) == expected_hash % n
        assert kgroups.partition_for(key.encode(), n) == expected_hash % n


def test_the_hash_is_fnv1a_over_utf8_bytes():
    for key in ["é", "日本語", "emoji 🎉", "a\x00b", "x" * 1000]:
        expected = fnv1a_32(key.encode("utf-8"))
        assert kgroups.partition_for(key, INT_MAX) == expected % INT_MAX
        assert kgroups.partition_for(key.encode("utf-8"), 97) == expected % 97


def test_str_and_its_utf8_bytes_land_on_the_same_partition():
    for key in ["alice", "ключ", "🎉"]:
        assert kgroups.partition_for(key, 7) == kgroups.partition_for(key.encode(), 7)


def test_partition_for_rejects_num_partitions_below_one():
    for n in (0, -1, -(2**40)):
        with pytest.raises(ValueError, match="num_partitions"):
            kgroups.partition_for("a", n)


def test_append_writes_to_partition_for_key():
    topic = kgroups.Topic(6)
    for i in range(60):
        key = f"user-{i}"
        partition, _ = topic.append(key, "v")
        assert partition == kgroups.partition_for(key, 6)


def test_one_key_always_lands_on_one_partition_in_order():
    topic = kgroups.Topic(5)
    places = [topic.append("same-key", f"v{i}") for i in range(20)]
    partition = kgroups.partition_for("same-key", 5)
    assert places == [(partition, offset) for offset in range(20)]


def test_offsets_start_at_zero_and_count_up_per_partition():
    topic = kgroups.Topic(3)
    next_offset = [0, 0, 0]
    for i in range(100):
        partition, offset = topic.append(f"k{i}", b"v")
        assert offset == next_offset[partition]
        next_offset[partition] += 1
    assert [topic.end_offset(p) for p in range(3)] == next_offset


def test_end_offset_is_the_number_of_records():
    topic = kgroups.Topic(2)
    keys = keys_for_partition(1, 2, 4)
    assert topic.end_offset(1) == 0
    for count, key in enumerate(keys, start=1):
        topic.append(key, "v")
        assert topic.end_offset(1) == count
    assert topic.end_offset(0) == 0


def test_single_partition_topic_takes_every_key():
    topic = kgroups.Topic(1)
    assert {topic.append(f"k{i}", "v")[0] for i in range(50)} == {0}


def test_topic_rejects_num_partitions_below_one():
    for n in (0, -5):
        with pytest.raises(ValueError, match="num_partitions"):
            kgroups.Topic(n)


@pytest.mark.parametrize("partition", [-1, 6, 7, 2**31, -(2**31) - 1, 2**100])
def test_end_offset_outside_the_topic_is_index_error(topic, partition):
    with pytest.raises(IndexError, match="partition"):
        topic.end_offset(partition)


def test_num_partitions_property():
    assert kgroups.Topic(13).num_partitions == 13
    with pytest.raises(AttributeError):
        kgroups.Topic(2).num_partitions = 3
