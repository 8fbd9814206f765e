# SPDX-License-Identifier: Apache-2.0
"""SPEC.md "Rebalance (range assignor, eager)" and the join/leave/assignment rows."""

import pytest

import kgroups
from support import append_to


def join_all(topic, group, consumers):
    for consumer in consumers:
        topic.join(group, consumer)


@pytest.mark.parametrize(
    "num_partitions,expected",
    [
        (6, {"A": [0, 1], "B": [2, 3], "C": [4, 5]}),
        (7, {"A": [0, 1, 2], "B": [3, 4], "C": [5, 6]}),
        (8, {"A": [0, 1, 2], "B": [3, 4, 5], "C": [6, 7]}),
        (2, {"A": [0], "B": [1], "C": []}),
        (1, {"A": [0], "B": [], "C": []}),
    ],
)
def test_range_assignor_gives_consecutive_partitions_extra_to_first(num_partitions, expected):
    topic = kgroups.Topic(num_partitions)
    join_all(topic, "g", ["C", "A", "B"])  # join order does not matter
    assert {c: topic.assignment("g", c) for c in "ABC"} == expected


def test_members_are_sorted_by_utf8_bytes():
    topic = kgroups.Topic(3)
    # Code point / UTF-8 order: "Z" < "a" < "\uffff" < "\U00010000" (UTF-16 order would
    # put the astral character first).
    join_all(topic, "g", ["\U00010000", "a", "\uffff"])
    assert topic.assignment("g", "a") == [0]
    assert topic.assignment("g", "\uffff") == [1]
    assert topic.assignment("g", "\U00010000") == [2]
    topic.join("g", "Z")
    assert topic.assignment("g", "Z") == [0]


def test_empty_string_is_a_valid_consumer_and_group():
    topic = kgroups.Topic(2)
    topic.join("", "")
    topic.join("", "b")
    assert topic.assignment("", "") == [0]
    assert topic.assignment("", "b") == [1]


def test_assignment_of_idle_non_member_and_unknown_group_is_empty(topic):
    join_all(topic, "g", ["A", "B", "C", "D", "E", "F", "G"])
    assert topic.assignment("g", "G") == []
    assert topic.assignment("g", "nobody") == []
    assert topic.assignment("unknown", "A") == []


def test_join_of_a_member_does_nothing(topic):
    join_all(topic, "g", ["A", "B"])
    append_to(topic, 0, 3)
    assert len(topic.poll("g", "A")) == 3
    topic.join("g", "A")  # no rebalance: positions are kept
    assert topic.poll("g", "A") == []
    assert topic.assignment("g", "A") == [0, 1, 2]


def test_leave_of_a_non_member_does_nothing(topic):
    topic.join("g", "A")
    append_to(topic, 0, 2)
    assert len(topic.poll("g", "A")) == 2
    topic.leave("g", "ghost")
    topic.leave("other", "A")
    assert topic.poll("g", "A") == []
    assert topic.assignment("g", "A") == list(range(6))


def test_leave_reassigns_partitions(topic):
    join_all(topic, "g", ["A", "B", "C"])
    topic.leave("g", "B")
    assert topic.assignment("g", "A") == [0, 1, 2]
    assert topic.assignment("g", "C") == [3, 4, 5]
    assert topic.assignment("g", "B") == []


def test_rebalance_resets_every_position_to_committed(topic):
    topic.join("g", "A")
    records = append_to(topic, 0, 4)
    assert [r["key"] for r in topic.poll("g", "A", max_records=2)] == [k for k, _ in records[:2]]
    topic.commit("g", "A")  # committed(0) == 2
    assert len(topic.poll("g", "A")) == 2  # read 2..3 without committing
    topic.join("g", "B")  # A keeps partition 0 but restarts from its committed offset
    assert topic.assignment("g", "A") == [0, 1, 2]
    again = topic.poll("g", "A")
    assert [(r["partition"], r["offset"]) for r in again] == [(0, 2), (0, 3)]


def test_rebalance_without_commit_redelivers_from_zero(topic):
    topic.join("g", "A")
    append_to(topic, 5, 3)
    assert len(topic.poll("g", "A")) == 3
    topic.join("g", "B")
    topic.leave("g", "B")
    assert [r["offset"] for r in topic.poll("g", "A")] == [0, 1, 2]


def test_new_owner_starts_from_group_committed_offset(topic):
    join_all(topic, "g", ["A", "B"])
    append_to(topic, 4, 5)
    assert len(topic.poll("g", "B")) == 5
    topic.commit("g", "B", {4: 3})
    topic.leave("g", "B")
    assert [(r["partition"], r["offset"]) for r in topic.poll("g", "A")] == [(4, 3), (4, 4)]


def test_last_member_leaving_keeps_committed_offsets(topic):
    topic.join("g", "A")
    append_to(topic, 1, 3)
    topic.poll("g", "A")
    topic.commit("g", "A")
    topic.leave("g", "A")
    assert topic.committed("g", 1) == 3
    topic.join("g", "Z")
    assert topic.poll("g", "Z") == []
    append_to(topic, 1, 1, prefix="late")
    assert [r["offset"] for r in topic.poll("g", "Z")] == [3]


def test_groups_are_independent(topic):
    topic.join("billing", "A")
    append_to(topic, 2, 2)
    topic.poll("billing", "A")
    topic.commit("billing", "A")
    topic.join("analytics", "X")
    assert [r["offset"] for r in topic.poll("analytics", "X")] == [0, 1]
    assert topic.committed("analytics", 2) == 0
    assert topic.committed("billing", 2) == 2
    topic.join("analytics", "Y")
    assert topic.assignment("billing", "A") == list(range(6))
