# SPDX-License-Identifier: Apache-2.0
"""SPEC.md "A worked example", step by step, with every outcome checked."""

import pytest

import kgroups

KEYS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]


def test_worked_example():
    t = kgroups.Topic(6)
    t.join("billing", "A")
    t.join("billing", "B")
    t.join("billing", "C")
    assert t.assignment("billing", "A") == [0, 1]
    assert t.assignment("billing", "B") == [2, 3]
    assert t.assignment("billing", "C") == [4, 5]

    # append 10 records under various keys
    placed = {}
    for i, key in enumerate(KEYS):
        partition, offset = t.append(key, f"order-{i}")
        assert partition == kgroups.partition_for(key, 6)
        placed.setdefault(partition, []).append((offset, key, f"order-{i}"))
    assert sum(len(v) for v in placed.values()) == 10

    # A's records, partition 0 first, then 1
    batch = t.poll("billing", "A")
    expected = [
        {"partition": p, "offset": o, "key": k, "value": v}
        for p in (0, 1)
        for (o, k, v) in placed.get(p, [])
    ]
    assert batch == expected

    # committed(billing, 0/1) = A's positions
    t.commit("billing", "A")
    for p in (0, 1):
        assert t.committed("billing", p) == len(placed.get(p, []))

    # B crashes: A [0, 1, 2], C [3, 4, 5]
    t.leave("billing", "B")
    assert t.assignment("billing", "A") == [0, 1, 2]
    assert t.assignment("billing", "C") == [3, 4, 5]
    assert t.assignment("billing", "B") == []

    # partition 2 from billing's committed offset (0: B never committed); 0 and 1 were
    # committed, so A does not see them again
    again = t.poll("billing", "A")
    assert again == [
        {"partition": 2, "offset": o, "key": k, "value": v} for (o, k, v) in placed.get(2, [])
    ]

    # NotAssignedError: 2 belongs to A now
    with pytest.raises(kgroups.NotAssignedError):
        t.commit("billing", "C", {2: 1})
    assert t.committed("billing", 2) == 0

    # analytics reads everything from offset 0
    t.join("analytics", "X")
    everything = t.poll("analytics", "X")
    assert len(everything) == 10
    assert [(r["partition"], r["offset"]) for r in everything] == sorted(
        (p, o) for p, recs in placed.items() for (o, _, _) in recs
    )


def test_worked_example_records_land_where_the_hash_says():
    # The example only makes sense if records spread over several partitions.
    partitions = {kgroups.partition_for(key, 6) for key in KEYS}
    assert len(partitions) >= 3
    assert 2 in partitions, "partition 2 must get records for the step after B's crash"
