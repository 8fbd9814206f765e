# SPDX-License-Identifier: Apache-2.0
"""Randomized differential test: kgroups against reference_model.py, a pure-Python
implementation written from SPEC.md. Thousands of random operations, valid and
invalid, must give equal results (values and types) and the same exception types,
and leave equal observable state: with the lab's defaults and with random
combinations of SPEC.md's options."""

import random

import pytest

import kgroups
import reference_model

GROUPS = ["billing", "analytics", "", "grüße"]
CONSUMERS = ["A", "B", "C", "D", "", "é", "\U00010000", "Z"]
KEYS = ["alice", "bob", "carol", "", "ключ", "🎉", b"raw", b"\x00\xff", b""]
BAD_TEXT = [b"billing", 1, None, 2.5]
BAD_KEY_VALUE = [1, 2.5, None, bytearray(b"x"), {"a": 1}, ["x"]]
BAD_INT = [1.5, "1", None, b"1"]
HUGE_INTS = [2**31, -(2**31) - 1, 2**63, -(2**63) - 1, 2**64, 2**100]

PARTITIONERS = ["fnv1a", "murmur2"]
ASSIGNORS = ["range", "roundrobin", "sticky", "cooperative-sticky"]
AUTO_OFFSET_RESETS = ["earliest", "latest", "none"]
BAD_CHOICES = ["", "bogus", "Range", "murmur", "latest ", 1, None, b"fnv1a"]

EXCEPTION_PAIRS = {
    reference_model.NotAssignedError: kgroups.NotAssignedError,
    reference_model.NoOffsetError: kgroups.NoOffsetError,
}


class Ops:
    """Draws random operations as (name, args, kwargs)."""

    def __init__(self, rng, model):
        self.rng = rng
        self.model = model  # read only, to aim offsets and partitions at the edge cases
        self.n = model.num_partitions

    def text(self, pool):
        return self.rng.choice(BAD_TEXT) if self.rng.random() < 0.03 else self.rng.choice(pool)

    def key_value(self, pool):
        return self.rng.choice(BAD_KEY_VALUE) if self.rng.random() < 0.03 else self.rng.choice(pool)

    def partition(self):
        r = self.rng.random()
        if r < 0.03:
            return self.rng.choice(BAD_INT)
        if r < 0.06:
            return self.rng.choice(HUGE_INTS)
        if r < 0.12:
            return self.rng.choice([-1, self.n, self.n + 3])
        return self.rng.randrange(self.n)

    def offset(self, partition):
        r = self.rng.random()
        if r < 0.03:
            return self.rng.choice(BAD_INT)
        if r < 0.06:
            return self.rng.choice(HUGE_INTS + [-1])
        if type(partition) is int and 0 <= partition < self.n:
            end = self.model.end_offset(partition)
            return self.rng.choice([end, end, end + 1, self.rng.randint(0, end)])
        return self.rng.randint(0, 12)

    def commit_partition(self, group, consumer):
        valid = isinstance(group, str) and isinstance(consumer, str)
        owned = self.model.assignment(group, consumer) if valid else []
        if owned and self.rng.random() < 0.8:
            return self.rng.choice(owned)
        return self.partition()

    def draw(self):
        rng = self.rng
        op = rng.choices(
            ["append", "end_offset", "join", "leave", "assignment", "poll", "commit",
             "commit_offsets", "committed", "partition_for", "lag", "rebalances"],
            weights=[30, 5, 8, 5, 5, 20, 8, 10, 6, 3, 2, 2],
        )[0]
        group, consumer = self.text(GROUPS), self.text(CONSUMERS)
        if op == "append":
            value = self.key_value(["v", b"v", "", "value é", b"\x01\x02"] + [f"v{rng.random()}"])
            return op, (self.key_value(KEYS), value), {}
        if op == "end_offset":
            return op, (self.partition(),), {}
        if op in ("join", "leave", "assignment"):
            return op, (group, consumer), {}
        if op == "poll":
            r = rng.random()
            if r < 0.3:
                return op, (group, consumer), {}
            limit = rng.choice([0, 1, 2, 3, 5, 10, 100, -1, 2**40, -(2**70)] + BAD_INT[:2])
            return op, (group, consumer), {"max_records": limit}
        if op == "commit":
            return op, (group, consumer), rng.choice([{}, {"offsets": None}])
        if op == "commit_offsets":
            if rng.random() < 0.03:
                offsets = rng.choice([[(0, 1)], "x", 5])
            else:
                offsets = {}
                for _ in range(rng.randint(0, 3)):
                    partition = self.commit_partition(group, consumer)
                    offsets[partition] = self.offset(partition)
            return "commit", (group, consumer, offsets), {}
        if op == "committed":
            return op, (group, self.partition()), {}
        if op in ("lag", "rebalances"):
            return op, (group,), {}
        n = rng.choice([1, 2, 6, 7, 0, -3, 1.5])
        r = rng.random()
        if r < 0.4:
            return op, (self.key_value(KEYS), n), {}
        partitioner = rng.choice(BAD_CHOICES) if r > 0.95 else rng.choice(PARTITIONERS)
        if r < 0.7:
            return op, (self.key_value(KEYS), n, partitioner), {}
        return op, (self.key_value(KEYS), n), {"partitioner": partitioner}


def call(target, module, op, args, kwargs):
    function = getattr(module, op) if op == "partition_for" else getattr(target, op)
    try:
        return "ok", function(*args, **kwargs)
    except Exception as error:  # noqa: BLE001 - the type is what we compare
        return "error", type(error), getattr(error, "partitions", None)


def assert_same_result(expected, actual, context):
    kind, value = expected[:2]
    assert actual[0] == kind, f"{context}: model {expected}, kgroups {actual}"
    if kind == "error":
        assert actual[1] is EXCEPTION_PAIRS.get(value, value), f"{context}: {expected} vs {actual}"
        assert actual[2] == expected[2], f"{context}: NoOffsetError.partitions differ"
        return
    assert actual[1] == value, context
    assert type(actual[1]) is type(value), context
    if isinstance(value, list):
        for mine, theirs in zip(value, actual[1]):
            assert type(theirs) is type(mine), context
            if isinstance(mine, dict):
                assert list(theirs) == list(mine), context
                assert [type(x) for x in theirs.values()] == [type(x) for x in mine.values()]


def observable_state(topic, num_partitions):
    return (
        [topic.end_offset(p) for p in range(num_partitions)],
        [topic.assignment(g, c) for g in GROUPS for c in CONSUMERS],
        [topic.committed(g, p) for g in GROUPS for p in range(num_partitions)],
        [topic.lag(g) for g in GROUPS],
        [topic.rebalances(g) for g in GROUPS],
    )


def run_against_the_model(rng, num_partitions, options, steps, context):
    """Runs `steps` random operations on both; returns how many raised."""
    model = reference_model.Topic(num_partitions, **options)
    native = kgroups.Topic(num_partitions, **options)
    ops = Ops(rng, model)
    errors = 0
    for step in range(steps):
        op, args, kwargs = ops.draw()
        where = f"{context} step {step}: {op}{args!r} {kwargs!r}"
        expected = call(model, reference_model, op, args, kwargs)
        actual = call(native, kgroups, op, args, kwargs)
        assert_same_result(expected, actual, where)
        errors += expected[0] == "error"
        if step % 50 == 0:
            assert observable_state(native, num_partitions) == observable_state(
                model, num_partitions
            ), where
    assert observable_state(native, num_partitions) == observable_state(model, num_partitions)
    return errors


@pytest.mark.parametrize("seed", range(16))
def test_random_operations_with_random_options_match_the_reference_model(seed):
    rng = random.Random(1000 + seed)
    # Every assignor and policy appears across the seeds; the rest is random.
    options = {
        "partitioner": rng.choice(PARTITIONERS),
        "assignor": ASSIGNORS[seed % len(ASSIGNORS)],
        "auto_offset_reset": AUTO_OFFSET_RESETS[seed // len(ASSIGNORS) % 3],
    }
    num_partitions = rng.choice([1, 2, 3, 5, 6, 7])
    errors = run_against_the_model(rng, num_partitions, options, 1200, f"seed {seed} {options}")
    assert errors > 20, "the random operations must exercise the error paths too"


def construct(module, num_partitions, options):
    try:
        topic = module.Topic(num_partitions, **options)
    except Exception as error:  # noqa: BLE001 - the type is what we compare
        return "error", type(error)
    return "ok", topic.num_partitions


def test_construction_with_random_options_matches_the_reference_model():
    rng = random.Random(14)
    names = {"partitioner": PARTITIONERS, "assignor": ASSIGNORS,
             "auto_offset_reset": AUTO_OFFSET_RESETS}
    outcomes = set()
    for _ in range(400):
        options = {}
        for name, choices in names.items():
            r = rng.random()
            if r < 0.6:
                options[name] = rng.choice(choices)
            elif r < 0.8:
                options[name] = rng.choice(BAD_CHOICES)
        num_partitions = rng.choice([1, 3, 0, -1, 1.5, "2", None])
        expected = construct(reference_model, num_partitions, options)
        actual = construct(kgroups, num_partitions, options)
        assert actual == expected, f"Topic({num_partitions!r}, **{options!r})"
        outcomes.add(expected[1] if expected[0] == "error" else "ok")
    assert outcomes == {"ok", ValueError, TypeError}


@pytest.mark.parametrize("seed", range(8))
def test_random_operations_match_the_reference_model(seed):
    rng = random.Random(seed)
    num_partitions = rng.choice([1, 2, 3, 6, 7])
    errors = run_against_the_model(rng, num_partitions, {}, 2500, f"seed {seed}")
    assert errors > 50, "the random operations must exercise the error paths too"


def test_model_and_module_agree_on_the_spec_reference_hashes():
    for key, expected in {"": 2166136261, "a": 3826002220, "foobar": 3214735720}.items():
        assert reference_model.fnv1a_32(key.encode()) == expected
        assert kgroups.partition_for(key, 2**31 - 1) == expected % (2**31 - 1)
