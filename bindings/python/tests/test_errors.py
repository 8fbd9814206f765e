# SPDX-License-Identifier: Apache-2.0
"""SPEC.md "Errors" and "Validation order and edge cases", through the Python API."""

import pickle

import pytest

import kgroups
from support import append_to, snapshot

GROUPS = ["g", "other"]
CONSUMERS = ["A", "B", "C"]


@pytest.fixture
def busy(topic):
    """A topic with records, members, positions and commits in two groups."""
    for c in CONSUMERS:
        topic.join("g", c)
    topic.join("other", "A")
    for p in range(6):
        append_to(topic, p, p + 1)
    topic.poll("g", "A", 2)
    topic.commit("g", "A")
    topic.poll("g", "B")
    return topic


def test_not_assigned_error_is_a_plain_exception_subclass():
    assert issubclass(kgroups.NotAssignedError, Exception)
    assert not issubclass(kgroups.NotAssignedError, (ValueError, IndexError, TypeError))
    assert kgroups.NotAssignedError.__module__ == "kgroups"
    assert kgroups.NotAssignedError.__doc__


def test_not_assigned_error_can_be_raised_and_caught_by_users():
    with pytest.raises(kgroups.NotAssignedError, match="mine"):
        raise kgroups.NotAssignedError("mine")


FAILING_CALLS = [
    ("commit unassigned", lambda t: t.commit("g", "A", {5: 0}), kgroups.NotAssignedError),
    ("commit bad offset", lambda t: t.commit("g", "A", {0: 99}), ValueError),
    ("commit negative offset", lambda t: t.commit("g", "A", {0: -1}), ValueError),
    ("end_offset range", lambda t: t.end_offset(6), IndexError),
    ("committed range", lambda t: t.committed("g", -1), IndexError),
    ("poll negative", lambda t: t.poll("g", "A", -1), ValueError),
    ("append int key", lambda t: t.append(1, "v"), TypeError),
    ("append dict value", lambda t: t.append("k", {"a": 1}), TypeError),
    ("join bytes group", lambda t: t.join(b"g", "D"), TypeError),
    ("leave int consumer", lambda t: t.leave("g", 1), TypeError),
    ("commit list offsets", lambda t: t.commit("g", "A", [(0, 1)]), TypeError),
    ("commit float offset", lambda t: t.commit("g", "A", {0: 1.0}), TypeError),
    ("commit str partition", lambda t: t.commit("g", "A", {"0": 1}), TypeError),
    ("poll float max", lambda t: t.poll("g", "A", 1.5), TypeError),
    ("committed str partition", lambda t: t.committed("g", "0"), TypeError),
]


@pytest.mark.parametrize("name,call,error", FAILING_CALLS, ids=[c[0] for c in FAILING_CALLS])
def test_every_error_has_its_type_and_leaves_the_topic_as_it_was(busy, name, call, error):
    before = snapshot(busy, GROUPS, CONSUMERS)
    with pytest.raises(error) as raised:
        call(busy)
    assert str(raised.value), "errors say what was wrong"
    assert snapshot(busy, GROUPS, CONSUMERS) == before
    # Positions did not move either: A [0, 1] polled (0, 0) and (1, 0) before.
    assert [(r["partition"], r["offset"]) for r in busy.poll("g", "A")] == [(1, 1)]


def test_error_messages_say_what_was_wrong(busy):
    with pytest.raises(kgroups.NotAssignedError, match=r'partition 5 .*"A".*"g"'):
        busy.commit("g", "A", {5: 0})
    with pytest.raises(ValueError, match="offset 99 for partition 0"):
        busy.commit("g", "A", {0: 99})
    with pytest.raises(IndexError, match="partition 6"):
        busy.end_offset(6)
    with pytest.raises(ValueError, match="max_records"):
        busy.poll("g", "A", -3)
    with pytest.raises(TypeError, match="serialize"):
        busy.append(1.5, "v")
    with pytest.raises(TypeError, match="group must be a str, not bytes"):
        busy.poll(b"g", "A")
    with pytest.raises(TypeError, match="max_records must be an int, not float"):
        busy.poll("g", "A", 2.0)


def test_types_are_checked_first(topic):
    with pytest.raises(TypeError):
        topic.poll(1, "A", -1)  # a type error beats the negative max_records
    with pytest.raises(TypeError):
        topic.committed(None, 99)  # and beats the out-of-range partition
    with pytest.raises(TypeError):
        topic.commit("g", "A", {99: 1.5})  # and beats "not assigned"
    with pytest.raises(TypeError):
        topic.commit("g", 7, {99: 1})
    with pytest.raises(TypeError):
        kgroups.partition_for(3, 0)


def test_partition_range_before_anything_else(topic):
    with pytest.raises(IndexError):
        topic.committed("unknown", 99)
    with pytest.raises(ValueError):
        topic.poll("unknown", "nobody", -1)


def test_large_ints_never_raise_overflow_error(topic):
    topic.join("g", "A")
    calls = [
        (lambda: topic.end_offset(2**64), IndexError),
        (lambda: topic.committed("g", -(2**64)), IndexError),
        (lambda: topic.commit("g", "A", {2**64: 0}), kgroups.NotAssignedError),
        (lambda: topic.commit("g", "A", {0: 2**64}), ValueError),
        (lambda: topic.poll("g", "A", -(2**64)), ValueError),
        (lambda: kgroups.Topic(2**64), ValueError),
        (lambda: kgroups.Topic(-(2**64)), ValueError),
        (lambda: kgroups.partition_for("k", 2**64), ValueError),
    ]
    for call, error in calls:
        with pytest.raises(error) as raised:
            call()
        assert not isinstance(raised.value, OverflowError)


def test_wrong_arity_and_keywords_are_type_errors(topic):
    with pytest.raises(TypeError, match="missing"):
        topic.poll("g")
    with pytest.raises(TypeError, match="unexpected keyword"):
        topic.poll("g", "A", limit=5)
    with pytest.raises(TypeError, match="multiple values"):
        topic.join("g", group="g")
    with pytest.raises(TypeError, match="at most"):
        topic.append("k", "v", "extra")
    with pytest.raises(TypeError):
        kgroups.Topic()


def test_lone_surrogate_str_cannot_be_encoded(topic):
    with pytest.raises(UnicodeEncodeError):
        topic.append("\ud800", "v")
    with pytest.raises(UnicodeEncodeError):
        topic.join("g", "\udc80")
    assert [topic.end_offset(p) for p in range(6)] == [0] * 6


def test_uninitialized_topic_is_a_type_error():
    bare = kgroups.Topic.__new__(kgroups.Topic)
    with pytest.raises(TypeError, match="__init__"):
        bare.append("k", "v")


def test_not_assigned_error_pickles_by_its_public_name():
    error = pickle.loads(pickle.dumps(kgroups.NotAssignedError("commit: partition 2")))
    assert type(error) is kgroups.NotAssignedError and str(error) == "commit: partition 2"
