# SPDX-License-Identifier: Apache-2.0
"""The event stream (GET /v1/events, docs/HTTP-API.md "Events") records what a confluent-kafka
group did: two members joining, the rebalance that gives each its share, a commit, and after
one member leaves, its departure and the rebalance that gives the survivor every partition.
Also GET /v1/events/log, the same events as one JSON array."""
import http.client
import json
import socket
import threading
import time

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition

from group_checks import wait_for_assignment as wait_until_settled

TIMEOUT_S = 30
PARTITIONS = 6
TOPIC = "ev-orders"
GROUP = "ev-group"


def http_address(broker):
    """(host, port) of the broker's HTTP endpoint."""
    host, _, port = broker.http.rpartition(":")
    return host, int(port)


class EventReader:
    """Reads GET /v1/events?... in a thread; `events` grows as they arrive (parsed `data`)."""

    def __init__(self, address, query):
        self.events = []
        self.comments = []
        self._lock = threading.Condition()
        self._stop = threading.Event()
        self._connection = http.client.HTTPConnection(*address, timeout=TIMEOUT_S)
        self._connection.request("GET", "/v1/events?" + query)
        # The response takes the socket over (Connection: close); stop() shuts it down to end
        # the reader's blocking readline (keep-alives come every 15 s, within the timeout).
        self._socket = self._connection.sock
        response = self._connection.getresponse()
        assert response.status == 200, response.read()
        assert response.getheader("Content-Type").startswith("text/event-stream")
        self._response = response
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self):
        fields = {}
        while not self._stop.is_set():
            try:
                line = self._response.fp.readline()
            except (OSError, ValueError):
                return
            if not line:
                return
            line = line.decode().rstrip("\n")
            if line.startswith(":"):
                self.comments.append(line)
            elif line == "":
                if "data" in fields:
                    event = json.loads(fields["data"])
                    assert event["type"] == fields["event"] and event["id"] == int(fields["id"])
                    with self._lock:
                        self.events.append(event)
                        self._lock.notify_all()
                fields = {}
            else:
                name, _, value = line.partition(": ")
                fields[name] = value

    def wait_for(self, matches, what, deadline_s=TIMEOUT_S):
        """The first event (in stream order) for which matches(event) holds; fails the test if
        none arrives in time."""
        deadline = time.monotonic() + deadline_s
        with self._lock:
            while True:
                for event in self.events:
                    if matches(event):
                        return event
                left = deadline - time.monotonic()
                if left <= 0:
                    pytest.fail(f"no {what} event within {deadline_s} s; got {self.events}")
                self._lock.wait(left)

    def stop(self):
        self._stop.set()
        try:
            self._socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._thread.join(timeout=5)
        self._response.close()


def consumer(bootstrap):
    return Consumer({"bootstrap.servers": bootstrap, "group.id": GROUP,
                     "auto.offset.reset": "earliest", "enable.auto.commit": False,
                     "session.timeout.ms": 6000, "heartbeat.interval.ms": 300})


def wait_for_assignment(members):
    def poll_once(member):
        member.poll(0.1)

    return wait_until_settled(members, poll_once,
                              lambda member: {tp.partition for tp in member.assignment()},
                              set(range(PARTITIONS)), TIMEOUT_S)


def partitions_of(assignment, member_id):
    """The partitions of TOPIC that `assignment` (an event's) gives member_id."""
    return {p for entry in assignment.get(member_id) or [] if entry["topic"] == TOPIC
            for p in entry["partitions"]}


def test_the_stream_records_a_two_member_group_and_a_departure(start_kgroupsd):
    broker = start_kgroupsd("--http", "127.0.0.1:0")
    bootstrap = broker.bootstrap
    producer = Producer({"bootstrap.servers": bootstrap})
    producer.list_topics(TOPIC, timeout=TIMEOUT_S)  # Metadata auto-creates it
    reader = EventReader(http_address(broker), f"since=0&group={GROUP}")
    members = [consumer(bootstrap) for _ in range(2)]
    try:
        for member in members:
            member.subscribe([TOPIC])
        assignments = wait_for_assignment(members)

        created = reader.wait_for(lambda e: e["type"] == "topic_created", "topic_created")
        assert created["topic"] == TOPIC and created["partitions"] == PARTITIONS

        joined = [reader.wait_for(lambda e: e["type"] == "member_joined", "member_joined")]
        joined.append(reader.wait_for(
            lambda e: e["type"] == "member_joined" and e["member_id"] != joined[0]["member_id"],
            "second member_joined"))
        member_ids = {event["member_id"] for event in joined}
        assert all(e["group_id"] == GROUP and e["group_type"] == "classic" for e in joined)

        both = reader.wait_for(
            lambda e: e["type"] == "rebalance_completed" and set(e["assignment"]) == member_ids,
            "rebalance_completed with both members")
        shares = [partitions_of(both["assignment"], member_id) for member_id in member_ids]
        assert all(shares) and shares[0].isdisjoint(shares[1]), both
        assert shares[0] | shares[1] == set(range(PARTITIONS)), both
        assert sorted(map(sorted, shares)) == sorted(map(sorted, assignments)), (both, assignments)
        assert both["protocol"] in ("range", "roundrobin") and both["leader"] in member_ids

        # A commit by the member that owns partition 0.
        owner = next(m for m, a in zip(members, assignments) if 0 in a)
        owner.commit(offsets=[TopicPartition(TOPIC, 0, 0)], asynchronous=False)
        committed = reader.wait_for(lambda e: e["type"] == "offsets_committed",
                                    "offsets_committed")
        assert committed["member_id"] in member_ids
        assert committed["offsets"] == [{"topic": TOPIC, "partition": 0, "offset": 0}]

        # The second member leaves; the first gets everything.
        members[1].close()
        survivor_assignment = wait_for_assignment(members[:1])
        assert survivor_assignment == [set(range(PARTITIONS))]
        left = reader.wait_for(lambda e: e["type"] == "member_left", "member_left")
        assert left["member_id"] in member_ids and "left the group" in left["reason"]
        (survivor,) = member_ids - {left["member_id"]}
        alone = reader.wait_for(
            lambda e: e["type"] == "rebalance_completed" and e["id"] > left["id"] and
            e["assignment"] and set(e["assignment"]) == {survivor},
            "rebalance_completed for the survivor")
        assert partitions_of(alone["assignment"], survivor) == set(range(PARTITIONS)), alone
        assert alone["generation"] > both["generation"]
        started = reader.wait_for(
            lambda e: e["type"] == "rebalance_started" and e["id"] > left["id"],
            "rebalance_started after the leave")
        assert started["id"] < alone["id"] and left["member_id"] in started["reason"]

        # Ids only increase along the stream (topic events pass the group filter too).
        ids = [event["id"] for event in reader.events]
        assert ids == sorted(ids) and len(ids) == len(set(ids)), ids
    finally:
        reader.stop()
        for member in members:
            try:
                member.close()
            except RuntimeError:
                pass  # closed already

    # The same history as one JSON array.
    connection = http.client.HTTPConnection(*http_address(broker), timeout=TIMEOUT_S)
    connection.request("GET", f"/v1/events/log?group={GROUP}")
    response = connection.getresponse()
    assert response.status == 200
    log = json.loads(response.read())
    connection.close()
    streamed = {event["id"]: event for event in reader.events}
    assert [e for e in log if e["id"] in streamed] == list(streamed.values())
    assert [e["type"] for e in log].count("member_joined") == 2
