# SPDX-License-Identifier: Apache-2.0
"""Randomized differential test of share groups: kgroups against reference_share_model.py,
a pure-Python statement of SPEC.md's share-group rules (SG1..SG15). Thousands of random
operations, valid and invalid (several members on shared partitions, acknowledgements of
records held, not held and named twice, clock moves across lock deadlines, leaves), must
give equal results and the same exception types (NotAcquiredError with the same .partition
and .offset), and leave equal observable state, under random share options."""

import random

import pytest

import kgroups
import reference_share_model
from support import keys_for_partition

GROUPS = ["queue", "jobs", "billing"]  # "billing" is also a consumer group's name sometimes
MEMBERS = ["A", "B", "C", "D", "member-1", "é"]
BAD_TEXT = [b"queue", 1, None]
TYPES = ["accept", "release", "reject"]
BAD_TYPES = ["gap", "Accept", "", 1, None, b"accept"]
HUGE_INTS = [2**31, -(2**31) - 1, 2**63, -(2**63) - 1, 2**80]

EXCEPTION_PAIRS = {reference_share_model.NotAcquiredError: kgroups.NotAcquiredError}


class Ops:
    """Draws random operations as (name, args, kwargs); reads the model to aim at records
    that are held."""

    def __init__(self, rng, model):
        self.rng = rng
        self.model = model
        self.n = model.num_partitions

    def text(self, pool):
        return self.rng.choice(BAD_TEXT) if self.rng.random() < 0.02 else self.rng.choice(pool)

    def partition(self):
        r = self.rng.random()
        if r < 0.03:
            return self.rng.choice(HUGE_INTS + [-1, self.n, 1.5, "0"])
        return self.rng.randrange(self.n)

    def ack_type(self):
        return self.rng.choice(BAD_TYPES) if self.rng.random() < 0.03 else self.rng.choice(TYPES)

    def records(self, group, member):
        rng = self.rng
        if rng.random() < 0.02:
            return rng.choice(["x", 5, [(0,)], [(0, "1")], {0: 1}])
        held = self.model.held(group, member) if isinstance(group, str) else []
        others = [pair for m in MEMBERS if m != member
                  for pair in (self.model.held(group, m) if isinstance(group, str) else [])]
        picked = rng.sample(held, rng.randint(0, len(held))) if held else []
        if others and rng.random() < 0.2:
            picked.insert(rng.randrange(len(picked) + 1), rng.choice(others))
        if rng.random() < 0.1:
            picked.append((self.partition(), rng.choice([0, 1, 5, 2**70, -1])))
        if picked and rng.random() < 0.1:
            picked.append(picked[0])  # named twice
        if rng.random() < 0.2:
            picked = [list(pair) for pair in picked]
        return picked

    def draw(self):
        rng = self.rng
        op = rng.choices(
            ["append", "share_join", "share_leave", "share_assignment", "share_poll",
             "acknowledge", "acknowledge_all", "advance_clock", "share_partition_state",
             "share_start_offset", "join"],
            weights=[20, 6, 3, 3, 20, 20, 5, 8, 4, 3, 1],
        )[0]
        group, member = self.text(GROUPS), self.text(MEMBERS)
        if op == "append":
            return op, (rng.randrange(self.n), rng.choice(["v", b"\x00v", ""])), {}
        if op in ("share_join", "share_leave", "share_assignment"):
            return op, (group, member), {}
        if op == "share_poll":
            if rng.random() < 0.3:
                return op, (group, member), {}
            limit = rng.choice([0, 1, 2, 3, 5, 10, 100, -1, 2**40, 1.5])
            return op, (group, member), {"max_records": limit}
        if op == "acknowledge":
            args = (group, member, self.records(group, member), self.ack_type())
            return op, args, {}
        if op == "acknowledge_all":
            if rng.random() < 0.5:
                return "acknowledge", (group, member, self.ack_type()), {}
            return "acknowledge", (group, member), {"type": self.ack_type()}
        if op == "advance_clock":
            lock = self.model.lock_ms
            ms = rng.choice([0, 1, lock - 1, lock, lock + 1, lock // 2, 3 * lock, -1, 2**64, 2.5])
            return op, (ms,), {}
        if op in ("share_partition_state", "share_start_offset"):
            return op, (group, self.partition()), {}
        return op, ("billing", "consumer"), {}


def call(target, op, args, kwargs):
    if op == "append":
        partition, value = args
        key = keys_for_partition(partition, target.num_partitions, 1, prefix="share-key")[0]
        if isinstance(target, kgroups.Topic):
            return "ok", target.append(key, value)[0]
        target.append_to(partition, key, value)
        return "ok", partition
    try:
        return "ok", getattr(target, op)(*args, **kwargs)
    except Exception as error:  # noqa: BLE001 - the type is what we compare
        return "error", type(error), getattr(error, "partition", None), getattr(
            error, "offset", None)


def observable_state(topic, num_partitions):
    return (
        [topic.end_offset(p) for p in range(num_partitions)],
        [topic.share_assignment(g, m) for g in GROUPS for m in MEMBERS],
        [topic.share_partition_state(g, p) for g in GROUPS for p in range(num_partitions)],
        topic.clock(),
    )


def run_against_the_model(rng, num_partitions, options, steps, context):
    model = reference_share_model.ShareTopic(num_partitions, **options)
    native = kgroups.Topic(num_partitions, **options)
    ops = Ops(rng, model)
    outcomes = {"error": 0, "not_acquired": 0, "redelivered": 0}
    for step in range(steps):
        op, args, kwargs = ops.draw()
        where = f"{context} step {step}: {op}{args!r} {kwargs!r}"
        expected = call(model, op, args, kwargs)
        actual = call(native, op, args, kwargs)
        if expected[0] == "error":
            assert actual[0] == "error", f"{where}: model {expected}, kgroups {actual}"
            assert actual[1] is EXCEPTION_PAIRS.get(expected[1], expected[1]), where
            assert actual[2:] == expected[2:], f"{where}: NotAcquiredError's record differs"
            outcomes["error"] += 1
            outcomes["not_acquired"] += expected[1] is reference_share_model.NotAcquiredError
        else:
            assert actual == expected, f"{where}: model {expected}, kgroups {actual}"
            assert type(actual[1]) is type(expected[1]), where
            if op == "share_poll":
                outcomes["redelivered"] += sum(r["delivery_count"] > 1 for r in actual[1])
                for mine, theirs in zip(expected[1], actual[1]):
                    assert list(theirs) == list(mine), where
                    assert [type(x) for x in theirs.values()] == [type(x) for x in mine.values()]
        if step % 25 == 0:
            assert observable_state(native, num_partitions) == observable_state(
                model, num_partitions), where
    assert observable_state(native, num_partitions) == observable_state(model, num_partitions)
    return outcomes


@pytest.mark.parametrize("seed", range(12))
def test_random_share_operations_match_the_reference(seed):
    rng = random.Random(7000 + seed)
    options = {
        "share_auto_offset_reset": ["latest", "earliest"][seed % 2],
        "record_lock_duration_ms": rng.choice([1, 100, 30000]),
        "delivery_count_limit": rng.choice([2, 3, 5, 10]),
        "partition_max_record_locks": 100,
    }
    num_partitions = rng.choice([1, 2, 3, 5])
    outcomes = run_against_the_model(rng, num_partitions, options, 1500,
                                     f"seed {seed} {options} n={num_partitions}")
    assert outcomes["error"] > 20, "the random operations must exercise the error paths too"
    assert outcomes["not_acquired"] > 5, "and acknowledgements of records not held"
    assert outcomes["redelivered"] > 5, "and redeliveries"


def test_many_records_in_flight_reach_partition_max_record_locks():
    rng = random.Random(99)
    options = {"share_auto_offset_reset": "earliest", "partition_max_record_locks": 100,
               "record_lock_duration_ms": 1000, "delivery_count_limit": 2}
    model = reference_share_model.ShareTopic(1, **options)
    native = kgroups.Topic(1, **options)
    for topic in (model, native):
        for i in range(250):
            call(topic, "append", (0, f"v{i}"), {})
        topic.share_join("q", "A")
        topic.share_join("q", "B")
    for step in range(300):
        member = rng.choice(["A", "B"])
        op, args = rng.choice([
            ("share_poll", ("q", member, rng.choice([10, 60, 150]))),
            ("acknowledge", ("q", member, rng.choice(TYPES))),
            ("advance_clock", (rng.choice([0, 500, 1000]),)),
        ])
        assert call(native, op, args, {}) == call(model, op, args, {}), f"step {step}: {op}{args}"
        assert observable_state(native, 1) == observable_state(model, 1), f"step {step}"
    assert model.share_partition_state("q", 0)["start_offset"] > 100


def test_the_reference_hashes_member_ids_as_java_does():
    # Known values of Java's String.hashCode, overflow included.
    assert reference_share_model.java_hash("A") == 65
    assert reference_share_model.java_hash("Aa") == reference_share_model.java_hash("BB") == 2112
    assert reference_share_model.java_hash("hello") == 99162322
    assert reference_share_model.java_hash("polygenelubricants") == -2**31
    assert reference_share_model.java_hash("é") == 233
    assert reference_share_model.java_hash("\U00010000") == 0xD800 * 31 + 0xDC00


def construct(options):
    try:
        kgroups.Topic(1, **options)
    except Exception as error:  # noqa: BLE001 - the type and the option named are compared
        return type(error), next((name for name in OPTION_CHOICES if name in str(error)), None)
    return "ok", None


OPTION_CHOICES = {
    "share_auto_offset_reset": ["latest", "earliest", "none", "", "Latest", 1, None, b"latest"],
    "record_lock_duration_ms": [1, 30000, 2**63 - 1, 0, -1, 2**63, 1.5, "5", True],
    "delivery_count_limit": [2, 5, 10, 1, 11, -(2**40), 2**80, 3.0, None, False],
    "partition_max_record_locks": [100, 2000, 10000, 99, 10001, 2**31, "100", True],
}


def test_construction_with_random_share_options_matches_the_reference():
    rng = random.Random(21)
    outcomes = set()
    for _ in range(500):
        options = {name: rng.choice(values) for name, values in OPTION_CHOICES.items()
                   if rng.random() < 0.6}
        try:
            reference_share_model.check_options(**options)
            expected = ("ok", None)
        except (TypeError, ValueError) as error:
            expected = (type(error), str(error) if type(error) is ValueError else None)
        actual = construct(options)
        if expected[0] is TypeError:
            assert actual[0] is TypeError, f"Topic(1, **{options!r}): {actual}"
        else:
            assert actual == expected, f"Topic(1, **{options!r})"
        outcomes.add(expected[0])
    assert outcomes == {"ok", ValueError, TypeError}
