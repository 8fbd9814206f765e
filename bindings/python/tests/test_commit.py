# SPDX-License-Identifier: Apache-2.0
"""SPEC.md "Commit" and the commit/committed rows of "Operations"."""

import collections
import types

import pytest

import kgroups
from support import append_to


@pytest.fixture
def billing(topic):
    """Members A [0, 1, 2] and B [3, 4, 5]; 3 records on 0, 2 on 1, 4 on 3."""
    topic.join("billing", "A")
    topic.join("billing", "B")
    append_to(topic, 0, 3)
    append_to(topic, 1, 2)
    append_to(topic, 3, 4)
    return topic


def committed_all(topic, group="billing"):
    return [topic.committed(group, p) for p in range(topic.num_partitions)]


def test_commit_stores_current_positions_of_assigned_partitions(billing):
    billing.poll("billing", "A", max_records=4)  # 0: 3 records, 1: 1 record
    billing.commit("billing", "A")
    assert committed_all(billing) == [3, 1, 0, 0, 0, 0]


def test_commit_of_idle_or_non_member_commits_nothing_without_error(billing):
    for c in "CDEFG":
        billing.join("billing", c)  # G is idle
    billing.commit("billing", "G")
    billing.commit("billing", "nobody")
    billing.commit("nowhere", "A")
    assert committed_all(billing) == [0] * 6
    assert committed_all(billing, "nowhere") == [0] * 6


def test_commit_with_offsets_stores_them(billing):
    billing.commit("billing", "A", {0: 2, 1: 1})
    assert committed_all(billing) == [2, 1, 0, 0, 0, 0]


def test_commit_does_not_move_positions(billing):
    billing.commit("billing", "A", {0: 3})
    assert [r["offset"] for r in billing.poll("billing", "A") if r["partition"] == 0] == [0, 1, 2]
    billing.commit("billing", "A")  # positions: 0 -> 3, 1 -> 2
    assert billing.poll("billing", "A") == []


def test_offset_equal_to_end_offset_is_allowed_and_lower_rewinds(billing):
    billing.commit("billing", "B", {3: 4})
    assert billing.committed("billing", 3) == 4
    billing.commit("billing", "B", {3: 1})
    assert billing.committed("billing", 3) == 1
    billing.commit("billing", "B", {3: 0})
    assert billing.committed("billing", 3) == 0


def test_unassigned_partition_raises_and_commits_nothing(billing):
    with pytest.raises(kgroups.NotAssignedError, match="partition 3"):
        billing.commit("billing", "A", {0: 1, 3: 1})
    assert committed_all(billing) == [0] * 6


@pytest.mark.parametrize("partition", [-1, 6, 100, 2**31, 2**63, -(2**70)])
def test_partition_outside_topic_is_not_assigned(billing, partition):
    with pytest.raises(kgroups.NotAssignedError):
        billing.commit("billing", "A", {0: 1, partition: 0})
    assert committed_all(billing) == [0] * 6


def test_non_member_with_offsets_is_not_assigned(billing):
    with pytest.raises(kgroups.NotAssignedError):
        billing.commit("billing", "ghost", {0: 0})
    with pytest.raises(kgroups.NotAssignedError):
        billing.commit("unknown-group", "A", {0: 0})


@pytest.mark.parametrize("offset", [-1, 5, 6, 2**40, 2**63, 2**100, -(2**100)])
def test_offset_outside_zero_to_end_offset_is_value_error(billing, offset):
    with pytest.raises(ValueError, match="offset"):
        billing.commit("billing", "B", {3: 2, 4: 0, 5: 0} | {3: offset})
    assert committed_all(billing) == [0] * 6


def test_value_error_names_the_offset_given(billing):
    with pytest.raises(ValueError, match=str(2**100)):
        billing.commit("billing", "B", {3: 2**100})


def test_not_assigned_is_checked_before_offset_range(billing):
    with pytest.raises(kgroups.NotAssignedError):
        billing.commit("billing", "A", {0: 99, 3: 0})
    with pytest.raises(kgroups.NotAssignedError):
        billing.commit("billing", "A", {0: 2**100, 2**40: 0})


def test_empty_offsets_commit_nothing_and_differ_from_none(billing):
    billing.poll("billing", "A")
    billing.commit("billing", "A", {})
    assert committed_all(billing) == [0] * 6
    billing.commit("billing", "ghost", {})  # no error even for a non-member
    billing.commit("billing", "A", None)
    assert committed_all(billing) == [3, 2, 0, 0, 0, 0]


def test_offsets_may_be_any_mapping(billing):
    class Offsets(collections.abc.Mapping):
        def __init__(self, data):
            self._data = data

        def __getitem__(self, key):
            return self._data[key]

        def __iter__(self):
            return iter(self._data)

        def __len__(self):
            return len(self._data)

    billing.commit("billing", "A", types.MappingProxyType({0: 1}))
    billing.commit("billing", "A", collections.OrderedDict([(1, 2)]))
    billing.commit("billing", "B", Offsets({3: 3}))
    billing.commit("billing", "B", offsets=collections.defaultdict(int, {4: 0}))
    assert committed_all(billing) == [1, 2, 0, 3, 0, 0]


def test_committed_is_zero_without_commit_and_for_unknown_group(billing):
    assert billing.committed("billing", 5) == 0
    assert billing.committed("never-existed", 0) == 0


@pytest.mark.parametrize("partition", [-1, 6, 99, 2**31, -(2**64)])
def test_committed_outside_topic_is_index_error_even_for_unknown_group(billing, partition):
    with pytest.raises(IndexError, match="partition"):
        billing.committed("unknown", partition)


def test_stale_consumer_cannot_commit_over_new_owner(billing):
    billing.poll("billing", "B")
    billing.join("billing", "C")  # A [0, 1], B [2, 3], C [4, 5]
    billing.poll("billing", "B")
    billing.commit("billing", "B")
    with pytest.raises(kgroups.NotAssignedError):
        billing.commit("billing", "A", {2: 0})
    assert billing.committed("billing", 3) == 4
