# SPDX-License-Identifier: Apache-2.0
"""records_replayed (docs/HTTP-API.md "Events"): a confluent-kafka consumer reads 100 records
of a 2-partition topic but commits only the first 30 of each partition, then goes away — it
closes without committing more, or its process is killed. The next member of the group starts
at the committed offsets and is given records 30..49 of each partition again: kgroupsd
publishes that as records_replayed events, from the committed offset, with the exact count."""
import http.client
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

from confluent_kafka import Consumer, Producer, TopicPartition

TIMEOUT_S = 30
TOPIC = "replays"
PER_PARTITION = 50
COMMITTED = 30
SECOND_CLIENT_ID = "replay-second"


def produce_records(bootstrap):
    """50 records to each of TOPIC's 2 partitions, in several batches."""
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0})
    for i in range(2 * PER_PARTITION):
        producer.produce(TOPIC, value=f"record-{i}".encode(), partition=i % 2)
        if i % 10 == 9:
            producer.flush(TIMEOUT_S)
    assert producer.flush(TIMEOUT_S) == 0


def consumer_config(bootstrap, group, client_id):
    return {"bootstrap.servers": bootstrap, "group.id": group, "client.id": client_id,
            "auto.offset.reset": "earliest", "enable.auto.commit": False,
            "session.timeout.ms": 6000, "heartbeat.interval.ms": 500,
            "max.poll.interval.ms": 10000}


def read_records(consumer, count):
    """Polls until `count` records have come (bounded by TIMEOUT_S); returns {partition:
    [offsets]}."""
    offsets = {0: [], 1: []}
    deadline = time.monotonic() + TIMEOUT_S
    while sum(map(len, offsets.values())) < count:
        assert time.monotonic() < deadline, f"read only {offsets} of {count} records in time"
        message = consumer.poll(0.2)
        if message is None:
            continue
        assert message.error() is None, message.error()
        offsets[message.partition()].append(message.offset())
    return offsets


def first_reader_commits_30(consumer):
    """The first member: reads every record, commits offset 30 of each partition."""
    consumer.subscribe([TOPIC])
    offsets = read_records(consumer, 2 * PER_PARTITION)
    assert offsets == {p: list(range(PER_PARTITION)) for p in (0, 1)}
    consumer.commit(offsets=[TopicPartition(TOPIC, p, COMMITTED) for p in (0, 1)],
                    asynchronous=False)


def events_log(broker, group):
    host, _, port = broker.http.rpartition(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=TIMEOUT_S)
    try:
        connection.request("GET", f"/v1/events/log?group={group}")
        response = connection.getresponse()
        assert response.status == 200
        return json.loads(response.read())
    finally:
        connection.close()


def check_replays(broker, group, second):
    """The second member reads 30..49 of each partition again; the event log says so."""
    second.subscribe([TOPIC])
    offsets = read_records(second, 2 * (PER_PARTITION - COMMITTED))
    assert offsets == {p: list(range(COMMITTED, PER_PARTITION)) for p in (0, 1)}
    events = events_log(broker, group)
    (member_id,) = [e["member_id"] for e in events
                    if e["type"] == "member_joined" and e["client_id"] == SECOND_CLIENT_ID]
    replays = [e for e in events if e["type"] == "records_replayed"]
    # The last rebalance before the replays is the one that gave the second member both
    # partitions; its generation is theirs.
    first_replay_id = min((e["id"] for e in replays), default=None)
    assert first_replay_id is not None, f"no records_replayed event in {events}"
    rebalance = [e for e in events
                 if e["type"] == "rebalance_completed" and e["id"] < first_replay_id][-1]
    assert set(rebalance["assignment"]) == {member_id}, rebalance
    for partition in (0, 1):
        mine = [e for e in replays if e["partition"] == partition]
        assert mine, f"no replay of partition {partition}: {replays}"
        # One event per delivery: contiguous ranges from the committed offset to the end of
        # what the first member was given.
        assert mine[0]["from"] == COMMITTED, mine
        assert mine[-1]["to"] == PER_PARTITION, mine
        assert all(a["to"] == b["from"] for a, b in zip(mine, mine[1:])), mine
        assert sum(e["count"] for e in mine) == PER_PARTITION - COMMITTED, mine
        for event in mine:
            assert event["count"] == event["to"] - event["from"] > 0, event
            assert event["group_id"] == group and event["group_type"] == "classic", event
            assert event["topic"] == TOPIC, event
            assert event["member_id"] == member_id, event
            assert event["generation"] == rebalance["generation"], event


def test_a_member_closing_without_commit_leaves_its_records_to_be_replayed(start_kgroupsd):
    broker = start_kgroupsd("--http", "127.0.0.1:0", "--topic", f"{TOPIC}:2")
    group = "replay-close"
    produce_records(broker.bootstrap)
    first = Consumer(consumer_config(broker.bootstrap, group, "replay-first"))
    try:
        first_reader_commits_30(first)
        # Nothing was delivered twice so far.
        assert not [e for e in events_log(broker, group) if e["type"] == "records_replayed"]
    finally:
        first.close()
    second = Consumer(consumer_config(broker.bootstrap, group, SECOND_CLIENT_ID))
    try:
        check_replays(broker, group, second)
    finally:
        second.close()


FIRST_MEMBER_PROCESS = textwrap.dedent("""
    import sys, time
    from confluent_kafka import Consumer
    sys.path.insert(0, sys.argv[3])
    import test_replays_confluent_kafka as replays
    consumer = Consumer(replays.consumer_config(sys.argv[1], sys.argv[2], "replay-first"))
    replays.first_reader_commits_30(consumer)
    print("committed", flush=True)
    time.sleep(600)
""")


def test_a_killed_members_records_are_replayed_to_the_next_member(start_kgroupsd):
    broker = start_kgroupsd("--http", "127.0.0.1:0", "--topic", f"{TOPIC}:2")
    group = "replay-kill"
    produce_records(broker.bootstrap)
    here = os.path.dirname(os.path.abspath(__file__))
    first = subprocess.Popen(
        [sys.executable, "-c", FIRST_MEMBER_PROCESS, broker.bootstrap, group, here],
        stdout=subprocess.PIPE, text=True)
    try:
        line = first.stdout.readline()  # bounded: read_records fails after TIMEOUT_S
        assert line == "committed\n", f"the first member did not commit: {line!r}"
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=TIMEOUT_S)
        first.stdout.close()
    # The coordinator expires the killed member after its 6 s session timeout, then the
    # second member gets both partitions.
    second = Consumer(consumer_config(broker.bootstrap, group, SECOND_CLIENT_ID))
    try:
        check_replays(broker, group, second)
        expired = [e for e in events_log(broker, group) if e["type"] == "member_expired"]
        assert len(expired) == 1, expired
    finally:
        second.close()

