# SPDX-License-Identifier: Apache-2.0
"""SPEC.md "Options: Assignors": roundrobin's exact assignments, the sticky rules
(balance, then minimal movement, checked against a brute force over random join and
leave sequences), and what eager and cooperative rebalances cost in replayed records."""

import itertools
import random

import pytest

import kgroups
from support import append_to

STICKY = ["sticky", "cooperative-sticky"]


def assignments(topic, group, consumers):
    return {c: topic.assignment(group, c) for c in consumers}


@pytest.mark.parametrize(
    "num_partitions,expected",
    [
        (7, {"A": [0, 3, 6], "B": [1, 4], "C": [2, 5]}),
        (6, {"A": [0, 3], "B": [1, 4], "C": [2, 5]}),
        (2, {"A": [0], "B": [1], "C": []}),
        (1, {"A": [0], "B": [], "C": []}),
        (10, {"A": [0, 3, 6, 9], "B": [1, 4, 7], "C": [2, 5, 8]}),
    ],
)
def test_roundrobin_deals_partition_p_to_member_p_mod_m(num_partitions, expected):
    topic = kgroups.Topic(num_partitions, assignor="roundrobin")
    for consumer in "CAB":  # join order does not matter
        topic.join("g", consumer)
    assert assignments(topic, "g", "ABC") == expected


def test_roundrobin_sorts_members_by_utf8_bytes_and_reassigns_on_leave():
    topic = kgroups.Topic(5, assignor="roundrobin")
    for consumer in ["\U00010000", "a", "\uffff", "Z"]:
        topic.join("g", consumer)
    assert assignments(topic, "g", ["Z", "a", "\uffff", "\U00010000"]) == {
        "Z": [0, 4], "a": [1], "\uffff": [2], "\U00010000": [3]}
    topic.leave("g", "a")
    assert assignments(topic, "g", ["Z", "\uffff", "\U00010000"]) == {
        "Z": [0, 3], "\uffff": [1, 4], "\U00010000": [2]}


def test_roundrobin_over_random_members_is_p_mod_m_in_id_order():
    rng = random.Random(7)
    pool = ["A", "B", "C", "D", "E", "a", "é", ""]
    for _ in range(40):
        num_partitions = rng.randint(1, 12)
        members = rng.sample(pool, rng.randint(1, len(pool)))
        topic = kgroups.Topic(num_partitions, assignor="roundrobin")
        for consumer in members:
            topic.join("g", consumer)
        ordered = sorted(members, key=lambda m: m.encode("utf-8"))
        expected = {m: [p for p in range(num_partitions) if p % len(ordered) == i]
                    for i, m in enumerate(ordered)}
        assert assignments(topic, "g", members) == expected


@pytest.mark.parametrize("assignor", STICKY)
def test_sticky_spec_example_three_members_joining_in_order(assignor):
    topic = kgroups.Topic(6, assignor=assignor)
    topic.join("g", "A")
    assert assignments(topic, "g", "A") == {"A": [0, 1, 2, 3, 4, 5]}
    topic.join("g", "B")
    assert assignments(topic, "g", "AB") == {"A": [0, 1, 2], "B": [3, 4, 5]}
    topic.join("g", "C")
    assert assignments(topic, "g", "ABC") == {"A": [0, 1], "B": [3, 4], "C": [2, 5]}


@pytest.mark.parametrize("assignor", STICKY)
def test_sticky_leave_hands_the_leavers_partitions_to_the_others(assignor):
    topic = kgroups.Topic(6, assignor=assignor)
    for consumer in "ABC":
        topic.join("g", consumer)
    topic.leave("g", "B")  # B had [3, 4]; A keeps [0, 1], C keeps [2, 5]
    assert assignments(topic, "g", "ABC") == {"A": [0, 1, 3], "B": [], "C": [2, 4, 5]}


@pytest.mark.parametrize("assignor", STICKY)
def test_sticky_larger_shares_go_to_the_members_that_owned_most(assignor):
    topic = kgroups.Topic(5, assignor=assignor)
    topic.join("g", "B")  # B [0..4]
    topic.join("g", "A")  # 5 over 2: B owned most, so B gets 3 and keeps [0, 1, 2]
    assert assignments(topic, "g", "AB") == {"A": [3, 4], "B": [0, 1, 2]}


def owners(assignment):
    return {p: member for member, partitions in assignment.items() for p in partitions}


def brute_force_fewest_moves(previous, members, num_partitions):
    """The fewest partitions that change owner (among those owned by staying members)
    over every balanced assignment of num_partitions partitions to members."""
    before = owners(previous)
    best = None
    for choice in itertools.product(members, repeat=num_partitions):
        counts = [choice.count(member) for member in members]
        if max(counts) - min(counts) > 1:
            continue
        moves = sum(1 for p, owner in enumerate(choice) if p in before and before[p] != owner)
        best = moves if best is None else min(best, moves)
    return best


@pytest.mark.parametrize("assignor", STICKY)
@pytest.mark.parametrize("seed", range(3))
def test_sticky_is_balanced_and_moves_as_few_partitions_as_a_brute_force(assignor, seed):
    rng = random.Random(seed)
    pool = "ABCD"
    checked = 0
    for num_partitions in (1, 3, 5):
        topic = kgroups.Topic(num_partitions, assignor=assignor)
        members = []
        for _ in range(25):
            previous = {m: topic.assignment("g", m) for m in members}
            consumer = rng.choice(pool)
            if consumer in members and len(members) > 1:
                topic.leave("g", consumer)
                members.remove(consumer)
            else:
                topic.join("g", consumer)
                if consumer not in members:
                    members.append(consumer)
            now = {m: topic.assignment("g", m) for m in sorted(members)}
            assert sorted(p for ps in now.values() for p in ps) == list(range(num_partitions))
            counts = [len(ps) for ps in now.values()]
            assert max(counts) - min(counts) <= 1, now
            staying = {m: ps for m, ps in previous.items() if m in members}
            before = owners(staying)
            moves = sum(1 for p, owner in owners(now).items() if p in before and before[p] != owner)
            assert moves == brute_force_fewest_moves(staying, sorted(members), num_partitions), (
                previous, now)
            checked += 1
    assert checked == 75


def polled_positions(topic, group, consumer):
    return [(r["partition"], r["offset"]) for r in topic.poll(group, consumer, 1000)]


def replay_after_c_leaves(assignor):
    """Three members read everything without committing, then C leaves: the records
    A and B then read again, per SPEC.md's eager/cooperative rule."""
    topic = kgroups.Topic(6, assignor=assignor)
    for consumer in "ABC":
        topic.join("g", consumer)
    for p in range(6):
        append_to(topic, p, 3)
    for consumer in "ABC":
        assert len(polled_positions(topic, "g", consumer)) == 6
    before = {c: topic.assignment("g", c) for c in "AB"}
    topic.leave("g", "C")
    replayed = {c: polled_positions(topic, "g", c) for c in "AB"}
    return topic, before, replayed


@pytest.mark.parametrize("assignor", ["range", "roundrobin", "sticky"])
def test_eager_rebalance_restarts_every_partition_from_the_committed_offset(assignor):
    topic, _, replayed = replay_after_c_leaves(assignor)
    for consumer in "AB":
        expected = [(p, o) for p in topic.assignment("g", consumer) for o in range(3)]
        assert replayed[consumer] == expected, consumer
    assert sum(len(r) for r in replayed.values()) == 18


def test_cooperative_rebalance_keeps_positions_on_the_partitions_a_member_keeps():
    topic, before, replayed = replay_after_c_leaves("cooperative-sticky")
    assert before == {"A": [0, 1], "B": [3, 4]}
    assert {c: topic.assignment("g", c) for c in "AB"} == {"A": [0, 1, 2], "B": [3, 4, 5]}
    # Only C's partitions 2 and 5 moved; they restart from the committed offset 0.
    assert replayed == {"A": [(2, 0), (2, 1), (2, 2)], "B": [(5, 0), (5, 1), (5, 2)]}


def test_cooperative_moved_partition_restarts_from_the_committed_offset():
    topic = kgroups.Topic(2, assignor="cooperative-sticky")
    topic.join("g", "A")
    append_to(topic, 0, 4)
    append_to(topic, 1, 4)
    assert len(polled_positions(topic, "g", "A")) == 8
    topic.commit("g", "A", {1: 2})
    topic.join("g", "B")  # A keeps [0] (position 4), B takes 1 from committed 2
    assert topic.assignment("g", "B") == [1]
    assert polled_positions(topic, "g", "A") == []
    assert polled_positions(topic, "g", "B") == [(1, 2), (1, 3)]


def test_cooperative_positions_survive_a_join_and_eager_ones_do_not():
    for assignor, replays in (("sticky", True), ("cooperative-sticky", False)):
        topic = kgroups.Topic(4, assignor=assignor)
        topic.join("g", "A")
        for p in range(4):
            append_to(topic, p, 2)
        assert len(polled_positions(topic, "g", "A")) == 8
        topic.join("g", "B")  # A keeps [0, 1] under both
        assert topic.assignment("g", "A") == [0, 1]
        again = polled_positions(topic, "g", "A")
        assert again == ([(0, 0), (0, 1), (1, 0), (1, 1)] if replays else []), assignor
