# SPDX-License-Identifier: Apache-2.0
"""SPEC.md "Options: auto_offset_reset": where a group starts on a partition it never
committed, and NoOffsetError under "none"."""

import pickle

import pytest

import kgroups
from support import append_to, snapshot


def offsets_of(records):
    return [(r["partition"], r["offset"]) for r in records]


def test_earliest_is_the_default_and_starts_at_offset_zero():
    for topic in (kgroups.Topic(2), kgroups.Topic(2, auto_offset_reset="earliest")):
        append_to(topic, 0, 2)
        topic.join("g", "A")
        assert offsets_of(topic.poll("g", "A")) == [(0, 0), (0, 1)]


def test_latest_skips_records_appended_before_the_partition_is_assigned():
    topic = kgroups.Topic(2, auto_offset_reset="latest")
    append_to(topic, 0, 3)
    append_to(topic, 1, 1)
    topic.join("g", "A")
    assert topic.poll("g", "A") == []
    append_to(topic, 1, 2)
    assert offsets_of(topic.poll("g", "A")) == [(1, 1), (1, 2)]
    assert topic.committed("g", 0) == 0 and topic.committed("g", 1) == 0


def test_latest_is_the_end_offset_at_each_rebalance_that_assigns_it_eagerly():
    topic = kgroups.Topic(2, auto_offset_reset="latest")
    topic.join("g", "A")
    append_to(topic, 0, 2)  # not polled, not committed
    topic.join("g", "B")  # eager: A restarts partition 0 at its end offset now, 2
    assert topic.assignment("g", "A") == [0]
    assert topic.poll("g", "A") == []


def test_a_committed_offset_wins_over_latest_even_zero():
    topic = kgroups.Topic(2, auto_offset_reset="latest")
    topic.join("g", "A")
    topic.commit("g", "A", {0: 0})
    append_to(topic, 0, 2)
    append_to(topic, 1, 2)
    topic.leave("g", "A")
    topic.join("g", "A")
    assert offsets_of(topic.poll("g", "A")) == [(0, 0), (0, 1)]  # 1 starts at latest: 2


def test_latest_under_cooperative_keeps_the_position_of_a_kept_partition():
    topic = kgroups.Topic(2, assignor="cooperative-sticky", auto_offset_reset="latest")
    topic.join("g", "A")  # positions 0 on both (empty logs)
    append_to(topic, 0, 2)
    append_to(topic, 1, 2)
    topic.join("g", "B")  # A keeps 0 at position 0; B gets 1 at its end offset 2
    assert offsets_of(topic.poll("g", "A")) == [(0, 0), (0, 1)]
    assert topic.poll("g", "B") == []


@pytest.fixture
def strict():
    """auto_offset_reset="none": A owns [0, 1, 2] of a topic with records, no commits."""
    topic = kgroups.Topic(3, auto_offset_reset="none")
    for p in range(3):
        append_to(topic, p, 2)
    topic.join("g", "A")
    return topic


def test_none_poll_raises_no_offset_error_naming_the_partitions(strict):
    with pytest.raises(kgroups.NoOffsetError) as raised:
        strict.poll("g", "A")
    assert raised.value.partitions == [0, 1, 2]
    assert type(raised.value.partitions) is list
    assert all(type(p) is int for p in raised.value.partitions)
    assert str(raised.value)


def test_no_offset_error_changes_nothing(strict):
    before = snapshot(strict, ["g"], ["A"])
    strict.commit("g", "A", {1: 1})
    for _ in range(2):
        with pytest.raises(kgroups.NoOffsetError) as raised:
            strict.poll("g", "A", 1)
        assert raised.value.partitions == [0, 2]
    assert snapshot(strict, ["g"], ["A"])[0] == before[0]
    assert strict.committed("g", 1) == 1
    # Once every partition has a committed offset, poll reads from them.
    strict.commit("g", "A", {0: 2, 2: 0})
    assert offsets_of(strict.poll("g", "A")) == [(1, 1), (2, 0), (2, 1)]


def test_none_commit_with_offsets_then_poll_works(strict):
    strict.commit("g", "A", {0: 0, 1: 1, 2: 2})
    assert offsets_of(strict.poll("g", "A")) == [(0, 0), (0, 1), (1, 1)]
    strict.commit("g", "A")
    assert [strict.committed("g", p) for p in range(3)] == [2, 2, 2]


def test_none_commit_without_offsets_skips_partitions_without_a_position(strict):
    strict.commit("g", "A")  # nothing to commit: no positions
    with pytest.raises(kgroups.NoOffsetError):
        strict.poll("g", "A")
    assert strict.lag("g") == {0: 2, 1: 2, 2: 2}
    assert [strict.committed("g", p) for p in range(3)] == [0, 0, 0]


def test_none_max_records_zero_returns_nothing_without_checking(strict):
    assert strict.poll("g", "A", 0) == []


def test_none_negative_max_records_is_a_value_error_first(strict):
    with pytest.raises(ValueError, match="max_records"):
        strict.poll("g", "A", -1)


def test_none_idle_or_non_member_polls_nothing(strict):
    for consumer in "BCD":
        strict.join("g", consumer)
    assert strict.assignment("g", "D") == []
    assert strict.poll("g", "D") == []
    assert strict.poll("g", "nobody") == []
    assert strict.poll("other", "A") == []


def test_none_committed_offsets_survive_rebalances(strict):
    strict.commit("g", "A", {0: 1, 1: 0, 2: 1})
    strict.join("g", "B")
    owned_by_b = strict.assignment("g", "B")
    assert owned_by_b
    assert offsets_of(strict.poll("g", "B")) == [
        (p, o) for p in owned_by_b for o in range(strict.committed("g", p), 2)
    ]


def test_committed_is_zero_without_a_commit_under_every_policy():
    for policy in ("earliest", "latest", "none"):
        topic = kgroups.Topic(2, auto_offset_reset=policy)
        append_to(topic, 0, 3)
        topic.join("g", "A")
        assert topic.committed("g", 0) == 0 and topic.committed("g", 1) == 0


def test_no_offset_error_is_a_plain_exception_sibling_of_not_assigned_error():
    assert issubclass(kgroups.NoOffsetError, Exception)
    assert not issubclass(kgroups.NoOffsetError, (ValueError, IndexError, TypeError,
                                                  kgroups.NotAssignedError))
    assert not issubclass(kgroups.NotAssignedError, kgroups.NoOffsetError)
    assert kgroups.NoOffsetError.__module__ == "kgroups"
    assert kgroups.NoOffsetError.__doc__
    assert "NoOffsetError" in kgroups.__all__


def test_no_offset_error_pickles_with_its_partitions(strict):
    with pytest.raises(kgroups.NoOffsetError) as raised:
        strict.poll("g", "A")
    copy = pickle.loads(pickle.dumps(raised.value))
    assert type(copy) is kgroups.NoOffsetError
    assert copy.partitions == [0, 1, 2] and str(copy) == str(raised.value)


def test_none_error_moves_no_position_of_the_partitions_that_have_one():
    topic = kgroups.Topic(3, assignor="cooperative-sticky", auto_offset_reset="none")
    for p in range(3):
        append_to(topic, p, 2)
    topic.join("g", "A")
    topic.join("g", "B")  # A keeps [0, 1], B gets [2]
    assert topic.assignment("g", "A") == [0, 1]
    topic.commit("g", "A", {0: 0, 1: 1})
    assert offsets_of(topic.poll("g", "A", 2)) == [(0, 0), (0, 1)]
    topic.leave("g", "B")  # A keeps 0 and 1 with their positions; 2 was never committed
    for max_records in (1, 100):
        with pytest.raises(kgroups.NoOffsetError) as raised:
            topic.poll("g", "A", max_records)
        assert raised.value.partitions == [2]
    topic.commit("g", "A", {2: 1})
    assert offsets_of(topic.poll("g", "A")) == [(1, 1), (2, 1)]
