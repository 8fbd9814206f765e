# SPDX-License-Identifier: Apache-2.0
"""SPEC.md "Bindings" (Python): names, keyword arguments, return types, type rules."""

import ast
import collections
import doctest
import inspect
import json
import pathlib

import pytest

import kgroups


class Index:
    """An int-like object (numpy integers look like this): usable via __index__."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


def test_module_exports_exactly_the_spec_names():
    assert sorted(kgroups.__all__) == ["Broker", "BrokerError", "NoOffsetError",
                                      "NotAcquiredError", "NotAssignedError", "Security",
                                      "Topic", "partition_for"]
    assert kgroups.BrokerError.__module__ == "kgroups"
    assert kgroups.NoOffsetError.__module__ == "kgroups"
    assert kgroups.Security.__module__ == "kgroups"
    assert kgroups.NotAcquiredError.__module__ == "kgroups"
    assert kgroups.Topic.__module__ == "kgroups"
    assert kgroups.partition_for.__module__ == "kgroups"


def test_return_types(topic):
    topic.join("g", "A")
    placed = topic.append("k", "v")
    assert type(placed) is tuple and len(placed) == 2
    assert all(type(x) is int for x in placed)
    assert type(topic.end_offset(0)) is int
    assert type(topic.assignment("g", "A")) is list
    assert all(type(p) is int for p in topic.assignment("g", "A"))
    assert type(topic.assignment("g", "nobody")) is list
    records = topic.poll("g", "A")
    assert type(records) is list and type(records[0]) is dict
    assert type(records[0]["partition"]) is int and type(records[0]["offset"]) is int
    assert topic.join("g", "B") is None
    assert topic.leave("g", "B") is None
    assert topic.commit("g", "A") is None
    assert topic.commit("g", "A", {}) is None
    assert type(topic.committed("g", 0)) is int
    assert type(kgroups.partition_for("k", 3)) is int
    assert type(kgroups.partition_for("k", 3, "murmur2")) is int
    assert type(topic.lag("g")) is dict and type(topic.rebalances("g")) is list


def test_keyword_arguments_use_spec_names():
    t = kgroups.Topic(num_partitions=2)
    assert t.append(key="k", value=b"v") == (kgroups.partition_for(key="k", num_partitions=2), 0)
    t.join(group="g", consumer_id="A")
    assert t.assignment(group="g", consumer_id="A") == [0, 1]
    assert len(t.poll(group="g", consumer_id="A", max_records=10)) == 1
    t.commit(group="g", consumer_id="A", offsets={0: 0})
    t.commit(group="g", consumer_id="A")
    assert t.end_offset(partition=kgroups.partition_for("k", 2)) == 1
    assert t.committed(group="g", partition=0) == t.end_offset(0)
    t.leave(group="g", consumer_id="A")


@pytest.mark.parametrize(
    "key,value",
    [
        ("text", "text"),
        (b"bytes", b"bytes"),
        ("text-key", b"\x00\xff binary"),
        (b"\x80\x81", "value é 日本 🎉"),
        ("", b""),
        ("a\x00b", "nul\x00inside"),
    ],
)
def test_keys_and_values_come_back_with_their_own_type(topic, key, value):
    topic.join("g", "A")
    topic.append(key, value)
    (record,) = topic.poll("g", "A")
    assert record["key"] == key and type(record["key"]) is type(key)
    assert record["value"] == value and type(record["value"]) is type(value)


def test_a_str_and_its_bytes_are_the_same_key_but_keep_their_type(topic):
    topic.join("g", "A")
    topic.append("ключ", "1")
    topic.append("ключ".encode(), b"2")
    records = topic.poll("g", "A")
    assert [r["offset"] for r in records] == [0, 1]
    assert [type(r["key"]) for r in records] == [str, bytes]


def test_large_values_round_trip(topic):
    topic.join("g", "A")
    big = bytes(range(256)) * 1024  # 256 KiB
    topic.append("big", big)
    topic.append("big-text", "é" * 100_000)
    values = [r["value"] for r in topic.poll("g", "A")]
    assert sorted(values, key=len) == sorted([big, "é" * 100_000], key=len)


def test_str_and_bytes_subclasses_are_accepted_and_come_back_plain(topic):
    class MyStr(str):
        pass

    class MyBytes(bytes):
        pass

    topic.join("g", "A")
    topic.append(MyStr("k"), MyBytes(b"v"))
    (record,) = topic.poll("g", "A")
    assert type(record["key"]) is str and type(record["value"]) is bytes


@pytest.mark.parametrize(
    "bad", [1, 1.5, None, True, bytearray(b"x"), memoryview(b"x"), {"a": 1}, ["a"], ("a",)]
)
def test_other_key_or_value_types_are_type_errors_that_say_serialize(topic, bad):
    with pytest.raises(TypeError, match=r"serialize.*json\.dumps"):
        topic.append(bad, "v")
    with pytest.raises(TypeError, match=r"serialize.*json\.dumps"):
        topic.append("k", bad)
    with pytest.raises(TypeError, match="serialize"):
        kgroups.partition_for(bad, 3)
    assert [topic.end_offset(p) for p in range(6)] == [0] * 6


def test_serializing_first_works(topic):
    topic.join("g", "A")
    topic.append("k", json.dumps({"total": 12}))
    (record,) = topic.poll("g", "A")
    assert json.loads(record["value"]) == {"total": 12}


@pytest.mark.parametrize("bad", [b"g", 1, None, ["g"]])
def test_group_and_consumer_id_must_be_str(topic, bad):
    for call in (topic.join, topic.leave, topic.assignment, topic.poll, topic.commit):
        with pytest.raises(TypeError, match="must be a str"):
            call(bad, "A")
        with pytest.raises(TypeError, match="must be a str"):
            call("g", bad)
    with pytest.raises(TypeError, match="must be a str"):
        topic.committed(bad, 0)


@pytest.mark.parametrize("bad", [1.0, "1", None, b"1", [1]])
def test_integers_must_be_ints(topic, bad):
    with pytest.raises(TypeError, match="must be an int"):
        topic.end_offset(bad)
    with pytest.raises(TypeError, match="must be an int"):
        topic.committed("g", bad)
    with pytest.raises(TypeError, match="must be an int"):
        topic.poll("g", "A", bad)
    with pytest.raises(TypeError, match="must be an int"):
        kgroups.Topic(bad)
    with pytest.raises(TypeError, match="must be an int"):
        kgroups.partition_for("k", bad)


def test_none_max_records_is_a_type_error(topic):
    with pytest.raises(TypeError, match="max_records must be an int"):
        topic.poll("g", "A", None)


def test_int_like_objects_and_bools_are_ints(topic):
    assert kgroups.Topic(Index(3)).num_partitions == 3
    topic.join("g", "A")
    topic.append("k", "v")
    p = kgroups.partition_for("k", 6)
    assert topic.end_offset(Index(p)) == 1
    assert len(topic.poll("g", "A", Index(5))) == 1
    topic.commit("g", "A", {Index(p): Index(1)})
    assert topic.committed("g", Index(p)) == 1
    assert topic.end_offset(True) == topic.end_offset(1)  # bool is an int in Python
    assert kgroups.partition_for("k", Index(6)) == p


@pytest.mark.parametrize("bad", [[(0, 1)], ((0, 1),), "0=1", 5, {0, 1}])
def test_offsets_must_be_a_mapping(topic, bad):
    topic.join("g", "A")
    with pytest.raises(TypeError, match="offsets must be a mapping"):
        topic.commit("g", "A", bad)


def test_offsets_keys_and_values_must_be_ints(topic):
    topic.join("g", "A")
    with pytest.raises(TypeError, match="partition"):
        topic.commit("g", "A", {"0": 0})
    with pytest.raises(TypeError, match="offset"):
        topic.commit("g", "A", {0: "0"})
    with pytest.raises(TypeError, match="offset"):
        topic.commit("g", "A", collections.OrderedDict([(0, None)]))


def test_help_shows_signatures_and_docstrings():
    text = inspect.getdoc(kgroups.Topic)
    assert "num_partitions" in text
    expected = {
        "append": "(key, value)",
        "end_offset": "(partition)",
        "join": "(group, consumer_id)",
        "leave": "(group, consumer_id)",
        "assignment": "(group, consumer_id)",
        "poll": "(group, consumer_id, max_records=100)",
        "commit": "(group, consumer_id, offsets=None)",
        "committed": "(group, partition)",
        "lag": "(group)",
        "rebalances": "(group)",
        "share_join": "(group, member_id)",
        "share_leave": "(group, member_id)",
        "share_assignment": "(group, member_id)",
        "share_poll": "(group, member_id, max_records=100)",
        "acknowledge": "(group, member_id, records=None, type=None)",
        "advance_clock": "(ms)",
        "clock": "()",
        "share_start_offset": "(group, partition)",
        "share_partition_state": "(group, partition)",
    }
    t = kgroups.Topic(1)
    for name, signature in expected.items():
        assert str(inspect.signature(getattr(t, name))) == signature
        assert len(inspect.getdoc(getattr(kgroups.Topic, name))) > 40
    assert str(inspect.signature(kgroups.partition_for)) == (
        "(key, num_partitions, partitioner='fnv1a')"
    )
    assert "FNV-1a" in kgroups.partition_for.__doc__


def _stub_path():
    return pathlib.Path(kgroups.__file__).with_name("__init__.pyi")


def test_type_stub_and_py_typed_ship_with_the_package():
    assert _stub_path().is_file()
    assert pathlib.Path(kgroups.__file__).with_name("py.typed").is_file()


def test_type_stub_matches_the_runtime_api():
    tree = ast.parse(_stub_path().read_text())
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert "partition_for" in functions
    assert [a.arg for a in functions["partition_for"].args.args] == [
        "key", "num_partitions", "partitioner"]
    assert "NotAssignedError" in classes
    assert "NoOffsetError" in classes
    init = next(node for node in classes["Topic"].body
                if isinstance(node, ast.FunctionDef) and node.name == "__init__")
    assert [a.arg for a in init.args.args] == ["self", "num_partitions"]
    assert [a.arg for a in init.args.kwonlyargs] == [
        "partitioner", "assignor", "auto_offset_reset", "share_auto_offset_reset",
        "record_lock_duration_ms", "delivery_count_limit", "partition_max_record_locks"]
    assert [ast.literal_eval(d) for d in init.args.kw_defaults] == [
        "fnv1a", "range", "earliest", "latest", 30000, 5, 2000]
    assert "NotAcquiredError" in classes

    def is_overload(node):
        return any(isinstance(d, ast.Name) and d.id == "overload" for d in node.decorator_list)

    defs = [node for node in classes["Topic"].body if isinstance(node, ast.FunctionDef)]
    stub_methods = {node.name: [a.arg for a in node.args.args][1:]
                    for node in defs if not is_overload(node)}
    overloads = [(node.name, [a.arg for a in node.args.args][1:])
                 for node in defs if is_overload(node)]
    runtime = {
        name for name in vars(kgroups.Topic) if not name.startswith("_") or name == "__init__"
    }
    assert set(stub_methods) | {name for name, _ in overloads} == runtime
    t = kgroups.Topic(1)
    for name, params in stub_methods.items():
        if name in ("__init__", "num_partitions"):
            continue
        assert list(inspect.signature(getattr(t, name)).parameters) == params, name
    # acknowledge(group, member_id, records, type) and acknowledge(group, member_id, type):
    # each overload's parameters, positionally, are the runtime's with records left out.
    assert [name for name, _ in overloads] == ["acknowledge", "acknowledge"]
    runtime_params = list(inspect.signature(t.acknowledge).parameters)
    assert overloads[0][1] == runtime_params
    assert overloads[1][1] == [p for p in runtime_params if p != "records"]


def test_package_docstring_example_holds():
    results = doctest.testmod(kgroups)
    assert results.attempted >= 3 and results.failed == 0
