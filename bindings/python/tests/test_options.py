# SPDX-License-Identifier: Apache-2.0
"""SPEC.md "Options": construction, validation, defaults, repr and help()."""

import inspect
import pydoc
import random

import pytest

import kgroups

OPTIONS = {
    "partitioner": ["fnv1a", "murmur2"],
    "assignor": ["range", "roundrobin", "sticky", "cooperative-sticky"],
    "auto_offset_reset": ["earliest", "latest", "none"],
}
DEFAULTS = {name: choices[0] for name, choices in OPTIONS.items()}
EVERY_COMBINATION = [
    {"partitioner": p, "assignor": a, "auto_offset_reset": r}
    for p in OPTIONS["partitioner"]
    for a in OPTIONS["assignor"]
    for r in OPTIONS["auto_offset_reset"]
]


@pytest.mark.parametrize("options", EVERY_COMBINATION, ids=lambda o: "-".join(o.values()))
def test_every_combination_of_choices_builds_a_topic(options):
    topic = kgroups.Topic(3, **options)
    assert topic.num_partitions == 3
    topic.join("g", "A")
    assert topic.assignment("g", "A") == [0, 1, 2]


@pytest.mark.parametrize("name", OPTIONS)
@pytest.mark.parametrize("bad", [1, None, b"fnv1a", 2.5, ["range"]])
def test_an_option_that_is_not_a_str_is_a_type_error(name, bad):
    with pytest.raises(TypeError, match=f"{name} must be a str, not {type(bad).__name__}"):
        kgroups.Topic(6, **{name: bad})


@pytest.mark.parametrize("name", OPTIONS)
@pytest.mark.parametrize("bad", ["", "bogus", "Range", "FNV1A", "murmur2 ", "cooperative_sticky",
                                 "EARLIEST", "smallest"])
def test_an_unknown_choice_is_a_value_error_naming_the_option_and_its_choices(name, bad):
    with pytest.raises(ValueError) as raised:
        kgroups.Topic(6, **{name: bad})
    message = str(raised.value)
    assert name in message
    for choice in OPTIONS[name]:
        assert choice in message, f"{message!r} lists the choices of {name}"


def test_options_are_keyword_only():
    with pytest.raises(TypeError):
        kgroups.Topic(6, "murmur2")
    with pytest.raises(TypeError):
        kgroups.Topic(6, "fnv1a", "range", "earliest")
    with pytest.raises(TypeError):
        kgroups.Topic(6, partitoner="murmur2")  # misspelt keyword


def test_options_are_checked_after_num_partitions_in_the_tables_order():
    with pytest.raises(ValueError, match="num_partitions"):
        kgroups.Topic(0, partitioner="bogus", assignor="bogus")
    with pytest.raises(ValueError, match="partitioner"):
        kgroups.Topic(6, partitioner="bogus", assignor="bogus", auto_offset_reset="bogus")
    with pytest.raises(ValueError, match="assignor"):
        kgroups.Topic(6, assignor="bogus", auto_offset_reset="bogus")
    with pytest.raises(ValueError, match="auto_offset_reset"):
        kgroups.Topic(6, auto_offset_reset="bogus")


def test_types_are_checked_before_values():
    # SPEC.md's validation order: types first, then values.
    with pytest.raises(TypeError, match="num_partitions must be an int"):
        kgroups.Topic("6", partitioner=1)
    with pytest.raises(TypeError, match="assignor must be a str"):
        kgroups.Topic(0, partitioner="bogus", assignor=1)
    with pytest.raises(TypeError, match="auto_offset_reset must be a str"):
        kgroups.Topic(6, assignor="bogus", auto_offset_reset=None)


def test_str_subclasses_are_accepted_as_options():
    class Name(str):
        pass

    topic = kgroups.Topic(7, assignor=Name("roundrobin"))
    for consumer in "ABC":
        topic.join("g", consumer)
    assert topic.assignment("g", "A") == [0, 3, 6]


def _run_lab_session(topic, rng):
    """A random session of the lab's operations; returns everything it observed."""
    seen = []
    for _ in range(400):
        op = rng.choice(["append", "append", "join", "leave", "poll", "commit", "commit_offsets"])
        group = rng.choice(["g", "h"])
        consumer = rng.choice("ABCD")
        if op == "append":
            seen.append(topic.append(f"key-{rng.randrange(50)}", "v"))
        elif op == "join":
            topic.join(group, consumer)
        elif op == "leave":
            topic.leave(group, consumer)
        elif op == "poll":
            seen.append(topic.poll(group, consumer, rng.choice([1, 3, 100])))
        elif op == "commit":
            topic.commit(group, consumer)
        else:
            owned = topic.assignment(group, consumer)
            if owned:
                p = rng.choice(owned)
                topic.commit(group, consumer, {p: rng.randint(0, topic.end_offset(p))})
        seen.append([topic.assignment(group, c) for c in "ABCD"])
        seen.append([topic.committed(group, p) for p in range(topic.num_partitions)])
    return seen


@pytest.mark.parametrize("seed", range(3))
def test_explicit_defaults_behave_exactly_like_the_lab(seed):
    lab = _run_lab_session(kgroups.Topic(5), random.Random(seed))
    explicit = _run_lab_session(kgroups.Topic(5, **DEFAULTS), random.Random(seed))
    assert explicit == lab


def test_default_topic_keeps_fnv1a_and_range():
    topic = kgroups.Topic(7)
    for consumer in "CAB":
        topic.join("g", consumer)
    assert [topic.assignment("g", c) for c in "ABC"] == [[0, 1, 2], [3, 4], [5, 6]]
    assert topic.append("foobar", "v")[0] == 3214735720 % 7


def test_repr_shows_only_options_that_differ_from_the_defaults():
    assert repr(kgroups.Topic(6)) == "kgroups.Topic(num_partitions=6)"
    assert repr(kgroups.Topic(6, **DEFAULTS)) == "kgroups.Topic(num_partitions=6)"
    assert repr(kgroups.Topic(6, assignor="sticky")) == (
        "kgroups.Topic(num_partitions=6, assignor='sticky')"
    )
    everything = kgroups.Topic(
        2, partitioner="murmur2", assignor="cooperative-sticky", auto_offset_reset="none"
    )
    assert repr(everything) == (
        "kgroups.Topic(num_partitions=2, partitioner='murmur2', "
        "assignor='cooperative-sticky', auto_offset_reset='none')"
    )


def test_help_covers_the_options_lag_rebalances_and_no_offset_error():
    text = pydoc.render_doc(kgroups.Topic, renderer=pydoc.plaintext)
    for name, choices in OPTIONS.items():
        assert name in text
        for choice in choices:
            assert f'"{choice}"' in text, choice
    for word in ("keyword-only", "lag(", "rebalances(", "NoOffsetError", "revoked", "assigned",
                 "cooperative"):
        assert word in text, word
    assert "partitions" in inspect.getdoc(kgroups.NoOffsetError)
    assert "murmur2" in kgroups.partition_for.__doc__
    assert "FNV-1a" in kgroups.partition_for.__doc__
