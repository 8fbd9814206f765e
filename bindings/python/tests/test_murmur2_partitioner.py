# SPDX-License-Identifier: Apache-2.0
"""SPEC.md "Options: Partitioner murmur2": Kafka's default partitioner, bit for bit,
through partition_for and Topic(partitioner="murmur2")."""

import random

import pytest

import kgroups
from reference_model import fnv1a_32, murmur2

INT_MAX = 2**31 - 1
# Kafka's own vectors (clients' UtilsTest.testMurmur2): key bytes -> the Java int murmur2 returns.
KAFKA_VECTORS = {
    b"21": -973932308,
    b"foobar": -790332482,
    b"a-little-bit-long-string": -985981536,
    b"a-little-bit-longer-string": -1486304829,
    b"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8": -58897971,
    b"abc": 479470107,
}
MODULI = (INT_MAX, 1_000_003, 65_536, 97, 6, 1)


def kafka_partition(key_bytes, num_partitions):
    """What Kafka's DefaultPartitioner/BuiltInPartitioner computes for a keyed record."""
    return (murmur2(key_bytes) & 0x7FFFFFFF) % num_partitions


@pytest.mark.parametrize("key,java_int", KAFKA_VECTORS.items())
def test_the_reference_in_this_suite_matches_kafkas_vectors(key, java_int):
    assert murmur2(key) == java_int


@pytest.mark.parametrize("key,java_int", KAFKA_VECTORS.items())
def test_partition_for_murmur2_matches_kafkas_vectors(key, java_int):
    positive = java_int & 0x7FFFFFFF
    for n in MODULI:
        assert kgroups.partition_for(key, n, "murmur2") == positive % n
        assert kgroups.partition_for(key.decode(), n, partitioner="murmur2") == positive % n


def test_spec_example_foobar_over_six_partitions():
    assert kgroups.partition_for("foobar", 6, "murmur2") == (-790332482 & 0x7FFFFFFF) % 6


def test_murmur2_matches_the_reference_for_every_tail_length_and_byte():
    rng = random.Random(14)
    keys = [bytes(rng.randrange(256) for _ in range(length)) for length in range(40)
            for _ in range(8)]
    keys += [bytes([b]) for b in range(256)] + [b"\xff" * n for n in range(9)] + [b""]
    for key in keys:
        for n in (INT_MAX, 12_345, 7):
            assert kgroups.partition_for(key, n, "murmur2") == kafka_partition(key, n), key


def test_a_str_key_is_hashed_as_its_utf8_bytes():
    for key in ["é", "ключ", "日本語", "🎉 party", "a\x00b", ""]:
        expected = kafka_partition(key.encode("utf-8"), INT_MAX)
        assert kgroups.partition_for(key, INT_MAX, "murmur2") == expected
        assert kgroups.partition_for(key.encode("utf-8"), INT_MAX, "murmur2") == expected


def test_the_default_partitioner_is_still_fnv1a():
    for key in ["", "a", "foobar", "alice"]:
        assert kgroups.partition_for(key, INT_MAX) == fnv1a_32(key.encode()) % INT_MAX
        assert kgroups.partition_for(key, INT_MAX, "fnv1a") == fnv1a_32(key.encode()) % INT_MAX


def test_murmur2_topic_appends_where_partition_for_murmur2_says():
    topic = kgroups.Topic(6, partitioner="murmur2")
    differs = 0
    for i in range(200):
        key = f"user-{i}"
        partition, offset = topic.append(key, "v")
        assert partition == kgroups.partition_for(key, 6, "murmur2")
        assert offset == topic.end_offset(partition) - 1
        differs += partition != kgroups.partition_for(key, 6)
    assert differs > 100, "murmur2 and fnv1a place keys differently"
    assert sum(topic.end_offset(p) for p in range(6)) == 200


def test_murmur2_topic_keeps_one_key_on_one_partition_in_order():
    topic = kgroups.Topic(5, partitioner="murmur2")
    places = [topic.append(b"same-key", f"v{i}") for i in range(10)]
    partition = kgroups.partition_for(b"same-key", 5, "murmur2")
    assert places == [(partition, offset) for offset in range(10)]


def test_partition_for_rejects_an_unknown_partitioner():
    for bad in ["", "murmur", "Murmur2", "default", "fnv1a "]:
        with pytest.raises(ValueError, match="partitioner") as raised:
            kgroups.partition_for("k", 6, bad)
        assert "fnv1a" in str(raised.value) and "murmur2" in str(raised.value)


def test_partition_for_argument_types_come_first():
    with pytest.raises(TypeError, match="partitioner must be a str"):
        kgroups.partition_for("k", 6, b"murmur2")
    with pytest.raises(TypeError, match="partitioner must be a str"):
        kgroups.partition_for("k", 0, None)
    with pytest.raises(TypeError, match="num_partitions must be an int"):
        kgroups.partition_for("k", "6", 5)
    with pytest.raises(ValueError, match="num_partitions"):
        kgroups.partition_for("k", 0, "murmur2")
    with pytest.raises(TypeError):
        kgroups.partition_for("k", 6, "murmur2", "extra")
