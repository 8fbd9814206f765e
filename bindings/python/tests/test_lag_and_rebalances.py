# SPDX-License-Identifier: Apache-2.0
"""SPEC.md "Options: lag(group) and rebalances(group)"."""

import pytest

import kgroups
from support import append_to


def test_lag_is_end_offset_minus_committed_for_every_partition():
    topic = kgroups.Topic(4)
    for p, count in enumerate([3, 0, 5, 1]):
        append_to(topic, p, count)
    topic.join("g", "A")
    assert topic.lag("g") == {0: 3, 1: 0, 2: 5, 3: 1}
    topic.commit("g", "A", {0: 1, 2: 5})
    lag = topic.lag("g")
    assert lag == {0: 2, 1: 0, 2: 0, 3: 1}
    assert list(lag) == [0, 1, 2, 3]
    assert all(type(p) is int and type(v) is int for p, v in lag.items())
    assert type(lag) is dict


def test_lag_follows_commits_not_positions():
    topic = kgroups.Topic(1)
    append_to(topic, 0, 4)
    topic.join("g", "A")
    topic.poll("g", "A", 3)
    assert topic.lag("g") == {0: 4}
    topic.commit("g", "A")
    assert topic.lag("g") == {0: 1}


def test_lag_of_a_group_that_never_existed_is_the_end_offsets():
    topic = kgroups.Topic(3)
    append_to(topic, 1, 2)
    assert topic.lag("never") == {0: 0, 1: 2, 2: 0}


def test_lag_and_rebalances_take_a_str_group():
    topic = kgroups.Topic(2)
    for bad in (b"g", 1, None):
        with pytest.raises(TypeError, match="group must be a str"):
            topic.lag(bad)
        with pytest.raises(TypeError, match="group must be a str"):
            topic.rebalances(bad)
    assert topic.lag(group="g") == {0: 0, 1: 0}
    assert topic.rebalances(group="g") == []


def test_rebalances_of_a_group_that_never_existed_is_empty():
    assert kgroups.Topic(2).rebalances("never") == []


def member(member_id, assignment, revoked, assigned):
    return {"id": member_id, "assignment": assignment, "revoked": revoked, "assigned": assigned}


def test_eager_history_revokes_everything_and_assigns_everything():
    topic = kgroups.Topic(6)
    topic.join("g", "A")
    topic.join("g", "B")
    topic.join("g", "B")  # already a member: no rebalance
    topic.leave("g", "nobody")  # not a member: no rebalance
    topic.leave("g", "A")
    assert topic.rebalances("g") == [
        {"generation": 1, "cause": "join", "consumer": "A",
         "members": [member("A", [0, 1, 2, 3, 4, 5], [], [0, 1, 2, 3, 4, 5])]},
        {"generation": 2, "cause": "join", "consumer": "B",
         "members": [member("A", [0, 1, 2], [0, 1, 2, 3, 4, 5], [0, 1, 2]),
                     member("B", [3, 4, 5], [], [3, 4, 5])]},
        {"generation": 3, "cause": "leave", "consumer": "A",
         "members": [member("B", [0, 1, 2, 3, 4, 5], [3, 4, 5], [0, 1, 2, 3, 4, 5])]},
    ]


def test_cooperative_history_revokes_and_assigns_only_what_moves():
    topic = kgroups.Topic(6, assignor="cooperative-sticky")
    for consumer in "ABC":
        topic.join("g", consumer)
    topic.leave("g", "B")
    history = topic.rebalances("g")
    assert [(r["generation"], r["cause"], r["consumer"]) for r in history] == [
        (1, "join", "A"), (2, "join", "B"), (3, "join", "C"), (4, "leave", "B")]
    assert history[1]["members"] == [member("A", [0, 1, 2], [3, 4, 5], []),
                                     member("B", [3, 4, 5], [], [3, 4, 5])]
    assert history[2]["members"] == [member("A", [0, 1], [2], []),
                                     member("B", [3, 4], [5], []),
                                     member("C", [2, 5], [], [2, 5])]
    assert history[3]["members"] == [member("A", [0, 1, 3], [], [3]),
                                     member("C", [2, 4, 5], [], [4])]


def test_sticky_history_is_eager():
    topic = kgroups.Topic(4, assignor="sticky")
    topic.join("g", "A")
    topic.join("g", "B")
    assert topic.rebalances("g")[1]["members"] == [member("A", [0, 1], [0, 1, 2, 3], [0, 1]),
                                                  member("B", [2, 3], [], [2, 3])]


def test_history_entries_have_exactly_the_spec_keys_and_types():
    topic = kgroups.Topic(3, assignor="roundrobin")
    topic.join("g", "é")
    topic.join("g", "A")
    for entry in topic.rebalances("g"):
        assert list(entry) == ["generation", "cause", "consumer", "members"]
        assert type(entry["generation"]) is int and type(entry["consumer"]) is str
        for m in entry["members"]:
            assert list(m) == ["id", "assignment", "revoked", "assigned"]
            assert type(m["id"]) is str
            for key in ("assignment", "revoked", "assigned"):
                assert type(m[key]) is list and all(type(p) is int for p in m[key])
    assert [m["id"] for m in topic.rebalances("g")[1]["members"]] == ["A", "é"]
    assert topic.rebalances("g")[1]["members"][0]["assignment"] == [0, 2]


def test_the_last_member_leaving_is_a_rebalance_with_no_members():
    topic = kgroups.Topic(2)
    topic.join("g", "A")
    topic.leave("g", "A")
    assert topic.rebalances("g")[-1] == {"generation": 2, "cause": "leave", "consumer": "A",
                                         "members": []}
    topic.join("g", "A")
    assert topic.rebalances("g")[-1]["generation"] == 3


def test_groups_have_their_own_history():
    topic = kgroups.Topic(2)
    topic.join("g", "A")
    topic.join("h", "B")
    assert [r["consumer"] for r in topic.rebalances("g")] == ["A"]
    assert [r["consumer"] for r in topic.rebalances("h")] == ["B"]


def test_the_most_recent_thousand_rebalances_are_kept_and_generations_keep_counting():
    topic = kgroups.Topic(2)
    topic.join("g", "A")
    for _ in range(600):
        topic.join("g", "B")
        topic.leave("g", "B")
    history = topic.rebalances("g")
    assert len(history) == 1000
    assert history[0]["generation"] == 1201 - 999
    assert history[-1] == {"generation": 1201, "cause": "leave", "consumer": "B",
                           "members": [member("A", [0, 1], [0], [0, 1])]}


def test_the_returned_history_is_a_copy():
    topic = kgroups.Topic(2)
    topic.join("g", "A")
    topic.rebalances("g")[0]["members"].clear()
    assert topic.rebalances("g")[0]["members"] == [member("A", [0, 1], [], [0, 1])]
