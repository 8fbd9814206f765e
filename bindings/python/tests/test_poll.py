# SPDX-License-Identifier: Apache-2.0
"""SPEC.md "Poll"."""

import pytest

import kgroups
from support import append_to


def places(records):
    return [(r["partition"], r["offset"]) for r in records]


def test_poll_takes_partitions_ascending_then_offsets_in_order(topic):
    topic.join("g", "A")
    append_to(topic, 3, 2)
    append_to(topic, 0, 2)
    append_to(topic, 5, 1)
    append_to(topic, 3, 1, prefix="more")
    assert places(topic.poll("g", "A")) == [(0, 0), (0, 1), (3, 0), (3, 1), (3, 2), (5, 0)]


def test_poll_returns_the_appended_keys_and_values(topic):
    topic.join("g", "A")
    written = append_to(topic, 2, 3)
    records = topic.poll("g", "A")
    assert [(r["key"], r["value"]) for r in records] == written


def test_poll_only_reads_the_consumers_partitions(topic):
    topic.join("g", "A")
    topic.join("g", "B")  # A [0, 1, 2], B [3, 4, 5]
    append_to(topic, 1, 2)
    append_to(topic, 4, 3)
    assert places(topic.poll("g", "A")) == [(1, 0), (1, 1)]
    assert places(topic.poll("g", "B")) == [(4, 0), (4, 1), (4, 2)]


def test_max_records_caps_across_partitions_and_positions_advance(topic):
    topic.join("g", "A")
    append_to(topic, 0, 3)
    append_to(topic, 1, 3)
    assert places(topic.poll("g", "A", 4)) == [(0, 0), (0, 1), (0, 2), (1, 0)]
    assert places(topic.poll("g", "A", 4)) == [(1, 1), (1, 2)]
    assert topic.poll("g", "A", 4) == []


def test_default_max_records_is_100(topic):
    topic.join("g", "A")
    append_to(topic, 0, 150)
    assert len(topic.poll("g", "A")) == 100
    assert len(topic.poll("g", "A")) == 50


def test_max_records_zero_returns_nothing_and_moves_nothing(topic):
    topic.join("g", "A")
    append_to(topic, 0, 2)
    assert topic.poll("g", "A", 0) == []
    assert places(topic.poll("g", "A")) == [(0, 0), (0, 1)]


def test_huge_max_records_means_no_limit(topic):
    topic.join("g", "A")
    append_to(topic, 0, 3)
    assert len(topic.poll("g", "A", max_records=2**31)) == 3
    append_to(topic, 0, 1, prefix="x")
    assert len(topic.poll("g", "A", max_records=2**100)) == 1


@pytest.mark.parametrize("max_records", [-1, -100, -(2**31) - 1, -(2**80)])
def test_negative_max_records_is_value_error_even_for_idle_consumer(topic, max_records):
    with pytest.raises(ValueError, match="max_records"):
        topic.poll("unknown", "nobody", max_records)
    topic.join("g", "A")
    append_to(topic, 0, 1)
    with pytest.raises(ValueError):
        topic.poll("g", "A", max_records)
    assert len(topic.poll("g", "A")) == 1  # the failed poll moved nothing


def test_consumer_without_partitions_gets_nothing(topic):
    for c in "ABCDEFG":
        topic.join("g", c)
    for p in range(6):
        append_to(topic, p, 1)
    assert topic.poll("g", "G") == []  # idle: 7 members, 6 partitions
    assert topic.poll("g", "stranger") == []
    assert topic.poll("never", "A") == []


def test_records_appended_after_a_poll_come_in_later_polls(topic):
    topic.join("g", "A")
    append_to(topic, 0, 1)
    assert places(topic.poll("g", "A")) == [(0, 0)]
    assert topic.poll("g", "A") == []
    append_to(topic, 0, 2, prefix="later")
    assert places(topic.poll("g", "A")) == [(0, 1), (0, 2)]


def test_poll_commits_nothing(topic):
    topic.join("g", "A")
    append_to(topic, 0, 3)
    topic.poll("g", "A")
    assert topic.committed("g", 0) == 0


def test_records_are_dicts_with_exactly_the_four_keys(topic):
    topic.join("g", "A")
    topic.append("k", "v")
    (record,) = topic.poll("g", "A")
    assert type(record) is dict
    assert list(record) == ["partition", "offset", "key", "value"]
    assert record == {"partition": kgroups.partition_for("k", 6), "offset": 0, "key": "k", "value": "v"}


def test_poll_hands_out_independent_copies(topic):
    topic.join("g", "A")
    topic.join("g2", "A")
    topic.append("k", "v")
    (first,) = topic.poll("g", "A")
    first["value"] = "changed"
    first["extra"] = 1
    (second,) = topic.poll("g2", "A")
    assert second["value"] == "v" and "extra" not in second


def test_many_keys_in_one_batch_come_back_exactly():
    topic = kgroups.Topic(1)
    topic.join("g", "A")
    written = []
    for i in range(3000):
        key = f"id-{i % 700}" if i % 3 else f"id-{i % 700}".encode()
        written.append((key, f"v{i}"))
        topic.append(*written[-1])
    records = topic.poll("g", "A", max_records=3000)
    assert [(r["key"], r["value"]) for r in records] == written
    assert [type(r["key"]) for r in records] == [type(k) for k, _ in written]
