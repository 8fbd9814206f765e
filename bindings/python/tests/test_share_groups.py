# SPDX-License-Identifier: Apache-2.0
"""SPEC.md "Share groups" (SG1..SG15) through the Python API: one test per rule, named
after it, as tests/spec/share_groups_test.cc does in C++; and the binding's own
conventions: str/bytes, the acknowledgement types as str, NotAcquiredError, the options."""

import pickle

import pytest

import kgroups
from support import append_to


def share_topic(num_partitions=1, records=0, **options):
    """A topic whose share groups start at offset 0, with `records` records on each
    partition."""
    options.setdefault("share_auto_offset_reset", "earliest")
    topic = kgroups.Topic(num_partitions, **options)
    for p in range(num_partitions):
        append_to(topic, p, records, prefix=f"p{p}-")
    return topic


def positions(records):
    return [(r["partition"], r["offset"]) for r in records]


def everything(topic, groups=("q",), members=("A", "B", "C")):
    """All a share group shows without changing it."""
    n = topic.num_partitions
    return (
        [topic.end_offset(p) for p in range(n)],
        [topic.share_assignment(g, m) for g in groups for m in members],
        [topic.share_partition_state(g, p) for g in groups for p in range(n)],
        topic.clock(),
    )


def test_sg1_share_and_consumer_group_names_are_one_namespace():
    topic = kgroups.Topic(2)
    topic.join("billing", "A")
    with pytest.raises(ValueError, match="billing"):
        topic.share_join("billing", "A")
    assert topic.share_assignment("billing", "A") == []
    topic.share_join("queue", "A")
    with pytest.raises(ValueError, match="queue"):
        topic.join("queue", "B")
    assert topic.assignment("queue", "B") == []


def test_sg2_the_simple_share_assignor_shares_partitions_as_spec_md_example():
    topic = kgroups.Topic(6)
    topic.share_join("q", "A")
    assert topic.share_assignment("q", "A") == [0, 1, 2, 3, 4, 5]
    topic.share_join("q", "B")
    assert topic.share_assignment("q", "A") == [0, 1, 2, 3, 4, 5]
    assert topic.share_assignment("q", "B") == [0]
    topic.share_join("q", "B")  # twice: nothing changes
    assert topic.share_assignment("q", "B") == [0]
    topic.share_leave("q", "A")
    assert topic.share_assignment("q", "B") == [0, 1, 2, 3, 4, 5]
    assert topic.share_assignment("q", "A") == []
    assert topic.share_assignment("nope", "B") == []
    topic.share_leave("q", "nobody")  # does nothing


def test_sg3_latest_by_default_records_appended_before_are_never_delivered():
    topic = kgroups.Topic(1)
    append_to(topic, 0, 3)
    assert topic.share_start_offset("q", 0) == 3  # what the reset would give now
    topic.share_join("q", "A")
    assert topic.share_poll("q", "A") == []
    assert topic.share_start_offset("q", 0) == 3
    topic.append("late", "v")
    assert positions(topic.share_poll("q", "A")) == [(0, 3)]


def test_sg3_earliest_starts_at_offset_zero():
    topic = share_topic(1, 3)
    assert topic.share_start_offset("q", 0) == 0
    topic.share_join("q", "A")
    assert positions(topic.share_poll("q", "A")) == [(0, 0), (0, 1), (0, 2)]
    with pytest.raises(IndexError):
        topic.share_start_offset("q", 1)


def test_sg4_poll_acquires_records_with_delivery_count_one_and_locks_them():
    topic = share_topic(2, 3, record_lock_duration_ms=500)
    topic.share_join("q", "A")
    records = topic.share_poll("q", "A", 4)
    assert positions(records) == [(0, 0), (0, 1), (0, 2), (1, 0)]
    assert all(list(r) == ["partition", "offset", "key", "value", "delivery_count"]
               for r in records)
    assert all(r["delivery_count"] == 1 for r in records)
    assert records[0]["key"] == "p0-0" and isinstance(records[0]["value"], str)
    assert topic.share_partition_state("q", 0) == {
        "start_offset": 0, "end_offset": 3, "available": 0, "acquired": 3, "acknowledged": 0,
        "archived": 0, "deliveries": 3, "redeliveries": 0}
    assert topic.share_poll("q", "A", 0) == []
    assert positions(topic.share_poll("q", "A")) == [(1, 1), (1, 2)]
    assert topic.share_poll("q", "A") == []  # everything is held
    assert topic.committed("q", 0) == 0  # a share group commits nothing


def test_sg4_bytes_come_back_as_bytes():
    topic = share_topic(1)
    topic.share_join("q", "A")
    topic.append(b"\x00k", b"\xff")
    [record] = topic.share_poll("q", "A")
    assert record["key"] == b"\x00k" and record["value"] == b"\xff"


def test_sg4_poll_errors_max_records_first_then_membership():
    topic = share_topic(1, 2)
    with pytest.raises(ValueError, match="max_records"):
        topic.share_poll("q", "A", -1)
    with pytest.raises(ValueError, match="not"):
        topic.share_poll("q", "A")
    topic.share_join("q", "A")
    with pytest.raises(ValueError, match="max_records"):
        topic.share_poll("q", "A", max_records=-(2**70))
    with pytest.raises(TypeError):
        topic.share_poll("q", "A", 1.0)
    with pytest.raises(TypeError):
        topic.share_poll(b"q", "A")
    assert len(topic.share_poll("q", "A", max_records=2**40)) == 2


def test_sg5_two_members_on_one_partition_never_get_the_same_record():
    topic = share_topic(1, 10)
    topic.share_join("q", "A")
    topic.share_join("q", "B")
    assert topic.share_assignment("q", "A") == topic.share_assignment("q", "B") == [0]
    a = topic.share_poll("q", "A", 4)
    b = topic.share_poll("q", "B")
    assert positions(a) == [(0, o) for o in range(4)]
    assert positions(b) == [(0, o) for o in range(4, 10)]
    assert topic.share_poll("q", "A") == [] and topic.share_poll("q", "B") == []


def test_sg6_release_redelivers_with_a_higher_delivery_count_to_any_member():
    topic = share_topic(1, 3)
    topic.share_join("q", "A")
    topic.share_join("q", "B")
    topic.share_poll("q", "A")
    topic.acknowledge("q", "A", [(0, 1)], "release")
    [again] = topic.share_poll("q", "B")
    assert (again["offset"], again["delivery_count"]) == (1, 2)
    assert topic.share_partition_state("q", 0)["redeliveries"] == 1


def test_sg6_accept_and_reject_are_never_delivered_again():
    topic = share_topic(1, 3, record_lock_duration_ms=10)
    topic.share_join("q", "A")
    topic.share_poll("q", "A")
    topic.acknowledge("q", "A", [(0, 0)], "accept")
    topic.acknowledge("q", "A", [[0, 1]], "reject")
    topic.advance_clock(10)  # offset 2's lock runs out; 0 and 1 are done
    assert positions(topic.share_poll("q", "A")) == [(0, 2)]
    topic.acknowledge("q", "A", "reject")
    topic.advance_clock(1000)
    assert topic.share_poll("q", "A") == []
    state = topic.share_partition_state("q", 0)
    assert (state["start_offset"], state["acknowledged"], state["archived"]) == (3, 0, 0)


def test_sg6_the_type_is_a_str_of_accept_release_or_reject():
    topic = share_topic(1, 2)
    topic.share_join("q", "A")
    topic.share_poll("q", "A")
    before = everything(topic)
    for bad in ("gap", "ACCEPT", "", "acknowledge"):
        with pytest.raises(ValueError, match="accept"):
            topic.acknowledge("q", "A", [(0, 0)], bad)
        with pytest.raises(ValueError):
            topic.acknowledge("q", "A", bad)
    for bad in (1, None, b"accept"):
        with pytest.raises(TypeError):
            topic.acknowledge("q", "A", [(0, 0)], bad)
    with pytest.raises(TypeError):
        topic.acknowledge("q", "A")
    with pytest.raises(TypeError):
        topic.acknowledge("q", "A", [(0, 0)])  # records without a type
    for bad in ("x", 5, [(0,)], [(0, "1")], [(0, 1, 2)], {0: 1}, [None]):
        with pytest.raises(TypeError):
            topic.acknowledge("q", "A", bad, "accept")
    assert everything(topic) == before
    topic.acknowledge(group="q", member_id="A", records=((0, 0),), type="accept")
    topic.acknowledge("q", "A", iter([(0, 1)]), type="accept")
    assert topic.share_start_offset("q", 0) == 2


def test_sg7_not_acquired_error_names_the_record_and_changes_nothing():
    topic = share_topic(1, 4)
    topic.share_join("q", "A")
    topic.share_join("q", "B")
    topic.share_poll("q", "A", 2)
    topic.share_poll("q", "B", 1)
    before = everything(topic)
    cases = [
        ([(0, 0), (0, 2)], 0, 2),  # 2 is B's
        ([(0, 3)], 0, 3),  # never acquired
        ([(0, 1), (5, 0)], 5, 0),  # a partition outside the topic
        ([(0, 0), (0, 2**70)], 0, 2**70),  # an offset beyond int64
        ([(-(2**40), 0)], -(2**40), 0),
    ]
    for records, partition, offset in cases:
        with pytest.raises(kgroups.NotAcquiredError) as raised:
            topic.acknowledge("q", "A", records, "accept")
        assert (raised.value.partition, raised.value.offset) == (partition, offset)
        assert f"partition {partition} offset {offset}" in str(raised.value)
        assert everything(topic) == before
    with pytest.raises(kgroups.NotAcquiredError):
        topic.acknowledge("q", "nobody", [(0, 0)], "accept")
    topic.acknowledge("q", "A", [], "reject")  # an empty list does nothing
    assert everything(topic) == before
    topic.acknowledge("q", "A", [(0, 0), (0, 0)], "accept")  # named twice: once
    with pytest.raises(kgroups.NotAcquiredError):  # already acknowledged
        topic.acknowledge("q", "A", [(0, 0)], "accept")


def test_sg7_not_acquired_error_is_its_own_exception_class():
    assert issubclass(kgroups.NotAcquiredError, Exception)
    assert not issubclass(kgroups.NotAcquiredError, (ValueError, IndexError, TypeError,
                                                     kgroups.NotAssignedError))
    assert kgroups.NotAcquiredError.__module__ == "kgroups"
    assert "acknowledged" in kgroups.NotAcquiredError.__doc__
    with pytest.raises(kgroups.NotAcquiredError, match="mine"):
        raise kgroups.NotAcquiredError("mine")
    error = pickle.loads(pickle.dumps(kgroups.NotAcquiredError("m")))
    assert type(error) is kgroups.NotAcquiredError


def test_sg8_implicit_acknowledgement_covers_every_record_the_member_holds():
    topic = share_topic(2, 2)
    topic.share_join("q", "A")
    topic.share_join("q", "B")
    held_by_a = topic.share_poll("q", "A")
    topic.acknowledge("q", "A", "accept")
    assert topic.share_start_offset("q", 0) + topic.share_start_offset("q", 1) == len(held_by_a)
    topic.acknowledge("q", "A", "accept")  # holding nothing: not an error
    topic.acknowledge("q", "nobody", "release")
    topic.acknowledge("unknown", "A", None, "reject")


def test_sg9_locks_expire_on_the_topics_clock_and_the_record_is_redelivered():
    topic = share_topic(1, 2, record_lock_duration_ms=1000)
    assert topic.clock() == 0
    topic.share_join("q", "A")
    topic.share_join("q", "B")
    topic.share_poll("q", "A")
    topic.advance_clock(999)
    assert topic.share_poll("q", "B") == []
    topic.advance_clock(1)
    assert topic.clock() == 1000
    with pytest.raises(kgroups.NotAcquiredError):  # the old holder lost it
        topic.acknowledge("q", "A", [(0, 0)], "accept")
    again = topic.share_poll("q", "B")
    assert [(r["offset"], r["delivery_count"]) for r in again] == [(0, 2), (1, 2)]


def test_sg9_advance_clock_refuses_negative_and_unkeepable_times():
    topic = share_topic(1, record_lock_duration_ms=1000)
    with pytest.raises(ValueError):
        topic.advance_clock(-1)
    with pytest.raises(ValueError):
        topic.advance_clock(2**63 - 1000)  # a lock deadline would not fit in 64 bits
    with pytest.raises(ValueError):
        topic.advance_clock(2**80)
    with pytest.raises(TypeError):
        topic.advance_clock(1.5)
    assert topic.clock() == 0
    topic.advance_clock(ms=2**63 - 1001)
    assert topic.clock() == 2**63 - 1001


def test_sg10_share_leave_releases_only_what_the_member_held():
    topic = share_topic(1, 4)
    topic.share_join("q", "A")
    topic.share_join("q", "B")
    topic.share_poll("q", "A", 3)
    topic.acknowledge("q", "A", [(0, 0)], "accept")
    topic.share_leave("q", "A")  # a crash: 1 and 2 were held, 0 is done
    records = topic.share_poll("q", "B")
    # 1 and 2 again, with delivery count 2; 3 for the first time; 0 never again.
    assert [(r["offset"], r["delivery_count"]) for r in records] == [(1, 2), (2, 2), (3, 1)]


def test_sg11_the_delivery_count_limit_archives_a_poison_record():
    topic = share_topic(1, 1, delivery_count_limit=2)
    topic.share_join("q", "A")
    for count in (1, 2):
        [record] = topic.share_poll("q", "A")
        assert record["delivery_count"] == count
        topic.acknowledge("q", "A", "release")
    assert topic.share_poll("q", "A") == []
    assert topic.share_partition_state("q", 0)["start_offset"] == 1


def test_sg12_the_start_offset_moves_past_leading_done_records_only():
    topic = share_topic(1, 4)
    topic.share_join("q", "A")
    topic.share_poll("q", "A")
    topic.acknowledge("q", "A", [(0, 1), (0, 2)], "accept")
    state = topic.share_partition_state("q", 0)
    assert (state["start_offset"], state["acquired"], state["acknowledged"]) == (0, 2, 2)
    topic.acknowledge("q", "A", [(0, 0)], "reject")
    assert topic.share_start_offset("q", 0) == 3
    topic.acknowledge("q", "A", [(0, 3)], "accept")
    assert topic.share_partition_state("q", 0) == {
        "start_offset": 4, "end_offset": 4, "available": 0, "acquired": 0, "acknowledged": 0,
        "archived": 0, "deliveries": 4, "redeliveries": 0}


def test_sg13_at_most_partition_max_record_locks_records_in_flight():
    topic = share_topic(1, 150, partition_max_record_locks=100)
    topic.share_join("q", "A")
    assert len(topic.share_poll("q", "A", 1000)) == 100
    assert topic.share_poll("q", "A", 1000) == []
    topic.acknowledge("q", "A", [(0, o) for o in range(10)], "accept")
    assert len(topic.share_poll("q", "A", 1000)) == 10


def test_sg14_the_share_options_as_keywords_with_their_defaults():
    topic = kgroups.Topic(1)
    assert repr(topic) == "kgroups.Topic(num_partitions=1)"
    topic = kgroups.Topic(1, share_auto_offset_reset="earliest", record_lock_duration_ms=5,
                          delivery_count_limit=10, partition_max_record_locks=10000)
    assert repr(topic) == (
        "kgroups.Topic(num_partitions=1, share_auto_offset_reset='earliest', "
        "record_lock_duration_ms=5, delivery_count_limit=10, partition_max_record_locks=10000)")
    for options, name in [
        ({"share_auto_offset_reset": "none"}, "share_auto_offset_reset"),
        ({"record_lock_duration_ms": 0}, "record_lock_duration_ms"),
        ({"record_lock_duration_ms": 2**64}, "record_lock_duration_ms"),
        ({"delivery_count_limit": 1}, "delivery_count_limit"),
        ({"delivery_count_limit": 11}, "delivery_count_limit"),
        ({"delivery_count_limit": 2**40}, "delivery_count_limit"),
        ({"partition_max_record_locks": 99}, "partition_max_record_locks"),
        ({"partition_max_record_locks": -(2**70)}, "partition_max_record_locks"),
    ]:
        with pytest.raises(ValueError, match=name) as raised:
            kgroups.Topic(1, **options)
        value = next(iter(options.values()))
        if isinstance(value, int):
            assert str(value) in str(raised.value)
    for options in [{"share_auto_offset_reset": 1}, {"record_lock_duration_ms": "5"},
                    {"delivery_count_limit": 2.0}, {"partition_max_record_locks": True}]:
        with pytest.raises(TypeError, match=next(iter(options))):
            kgroups.Topic(1, **options)
    with pytest.raises(ValueError, match="partitioner"):  # SPEC's order: the older ones first
        kgroups.Topic(1, partitioner="x", delivery_count_limit=1)


def test_sg15_a_failing_call_changes_nothing():
    topic = share_topic(2, 3)
    topic.share_join("q", "A")
    topic.share_poll("q", "A", 2)
    before = everything(topic)
    for call in (lambda: topic.share_poll("q", "A", -1),
                 lambda: topic.share_poll("q", "B"),
                 lambda: topic.acknowledge("q", "A", [(0, 0), (1, 0)], "accept"),
                 lambda: topic.acknowledge("q", "A", [(0, 0)], "gap"),
                 lambda: topic.advance_clock(-5),
                 lambda: topic.share_partition_state("q", 2),
                 lambda: topic.share_partition_state("q", 2**70)):
        with pytest.raises((ValueError, IndexError, kgroups.NotAcquiredError)):
            call()
        assert everything(topic) == before


def test_return_types_are_plain_python_types():
    topic = share_topic(1, 1)
    topic.share_join("q", "A")
    assert topic.share_join("q", "B") is None
    assert type(topic.share_assignment("q", "A")) is list
    assert type(topic.share_poll("q", "A")) is list
    assert topic.acknowledge("q", "A", "accept") is None
    assert topic.advance_clock(0) is None
    assert type(topic.clock()) is int
    assert type(topic.share_start_offset("q", 0)) is int
    state = topic.share_partition_state("q", 0)
    assert type(state) is dict and all(type(v) is int for v in state.values())
