# SPDX-License-Identifier: Apache-2.0
"""The data-path APIs at their newest versions, on the wire: Produce v9/v11, Fetch v12/v13/v17
(fetch sessions, incremental fetches, topic ids), ListOffsets v7-v10 and Metadata v12. The
requests are encoded and the responses decoded byte by byte here (kafka-python 2.0.2 has no
structs for these flexible versions), so a field out of place fails the test."""
import uuid

from kafka.record import MemoryRecords

from flexible_wire import (TAGS, carray, cstr, flexible_request, i8, i32, i64, produce_one_batch,
                           uvarint)
from raw_client import RawConnection, record_batch


# --- Produce ------------------------------------------------------------------------------

def produce(connection, version, topic, partition, records, acks=1):
    answer = produce_one_batch(connection, topic, partition, records, version, acks)
    assert answer["throttle_ms"] == 0
    assert (answer["topic"], answer["index"]) == (topic, partition)
    return answer


def test_produce_v9_and_v11_store_batches(start_kgroupsd):
    broker = start_kgroupsd("--topic", "p:1")
    connection = RawConnection(broker.bootstrap)
    first = produce(connection, 9, "p", 0, record_batch([(b"k0", b"v0"), (b"k1", b"v1")]))
    assert (first["error"], first["base_offset"], first["log_start_offset"]) == (0, 0, 0)
    assert (first["log_append_time"], first["record_errors"], first["error_message"]) == \
        (-1, [], None)
    second = produce(connection, 11, "p", 0, record_batch([(b"k2", b"v2")]))
    assert (second["error"], second["base_offset"]) == (0, 2)
    connection.close()


def test_produce_v11_refusal_carries_an_error_message(start_kgroupsd):
    broker = start_kgroupsd("--topic", "p:1")
    connection = RawConnection(broker.bootstrap)
    batch = bytearray(record_batch([(b"k", b"v")]))
    batch[-1] ^= 0xFF  # the CRC no longer matches
    answer = produce(connection, 11, "p", 0, bytes(batch))
    assert answer["error"] == 2  # CORRUPT_MESSAGE
    assert answer["error_message"], answer
    connection.close()


# --- Metadata -----------------------------------------------------------------------------

def metadata_v12(connection, topics):
    """topics: None for all, else a list of (topic_id bytes, name or None)."""
    items = None if topics is None else [tid + cstr(name) + TAGS for tid, name in topics]
    body = (uvarint(0) if items is None else carray(items)) + i8(0) + i8(0) + TAGS
    r = flexible_request(connection, 3, 12, body)
    throttle = r.i32()

    def broker():
        out = (r.i32(), r.cstr(), r.i32(), r.cstr())
        r.tags()
        return out

    brokers = r.carray(broker)
    cluster_id = r.cstr()
    controller = r.i32()

    def partition():
        out = dict(error=r.i16(), index=r.i32(), leader=r.i32(), leader_epoch=r.i32(),
                   replicas=r.carray(r.i32), isr=r.carray(r.i32), offline=r.carray(r.i32))
        r.tags()
        return out

    def topic():
        out = dict(error=r.i16(), name=r.cstr(), topic_id=r.uuid(), internal=r.i8(),
                   partitions=r.carray(partition), authorized_operations=r.i32())
        r.tags()
        return out

    topics = r.carray(topic)
    r.finish()
    assert throttle == 0 and controller == brokers[0][0] and cluster_id
    return topics


def topic_id(connection, name):
    [topic] = metadata_v12(connection, [(bytes(16), name)])
    assert topic["error"] == 0 and topic["name"] == name
    assert topic["topic_id"] != bytes(16)
    return topic["topic_id"]


def test_metadata_v12_by_name_and_by_id(start_kgroupsd):
    broker = start_kgroupsd("--topic", "m:3")
    connection = RawConnection(broker.bootstrap)
    tid = topic_id(connection, "m")
    [by_id] = metadata_v12(connection, [(tid, None)])
    assert (by_id["error"], by_id["name"], by_id["topic_id"]) == (0, "m", tid)
    assert [p["index"] for p in by_id["partitions"]] == [0, 1, 2]
    assert all(p["leader_epoch"] == 0 and p["offline"] == [] for p in by_id["partitions"])
    unknown = uuid.uuid4().bytes
    [missing] = metadata_v12(connection, [(unknown, None)])
    assert (missing["error"], missing["name"], missing["topic_id"]) == (100, None, unknown)
    assert [t["name"] for t in metadata_v12(connection, None)] == ["m"]
    connection.close()


# --- Fetch --------------------------------------------------------------------------------

def fetch(connection, version, topics, session_id=0, session_epoch=-1, forgotten=(),
          max_wait_ms=0, min_bytes=0):
    """topics: [(name or topic id, [(partition, fetch_offset)])]; forgotten likewise with
    partition lists. Returns (error, session_id, {(topic, partition): partition dict})."""
    by_id = version >= 13

    def topic_field(topic):
        return topic if by_id else cstr(topic)

    body = b""
    if version < 15:
        body += i32(-1)  # replica_id
    body += i32(max_wait_ms) + i32(min_bytes) + i32(1 << 20) + i8(0) + i32(session_id) + \
        i32(session_epoch)
    body += carray([topic_field(topic) + carray([
        i32(partition) + i32(-1) + i64(offset) + i32(-1) + i64(-1) + i32(1 << 20) + TAGS
        for partition, offset in partitions]) + TAGS for topic, partitions in topics])
    body += carray([topic_field(topic) + carray([i32(p) for p in partitions]) + TAGS
                    for topic, partitions in forgotten])
    body += cstr("") + TAGS
    r = flexible_request(connection, 1, version, body)
    throttle, error, answered_session = r.i32(), r.i16(), r.i32()

    def partition():
        out = dict(index=r.i32(), error=r.i16(), high_watermark=r.i64(), last_stable=r.i64(),
                   log_start=r.i64(),
                   aborted=r.carray(lambda: (r.i64(), r.i64(), r.tags())),
                   preferred_read_replica=r.i32(), records=r.cbytes())
        r.tags()
        return out

    answered = {}

    def topic():
        name = r.uuid() if by_id else r.cstr()
        for p in r.carray(partition):
            assert (name, p["index"]) not in answered
            answered[(name, p["index"])] = p
        r.tags()

    r.carray(topic)
    r.finish()
    assert throttle == 0
    return error, answered_session, answered


def values(records):
    if not records:
        return []
    batches = MemoryRecords(records)
    out = []
    while batches.has_next():
        out += [record.value for record in batches.next_batch()]
    return out


def produce_values(connection, topic, partition, *vals):
    answer = produce(connection, 9, topic, partition, record_batch([(None, v) for v in vals]))
    assert answer["error"] == 0
    return answer["base_offset"]


def test_fetch_v12_session_full_then_incremental(start_kgroupsd):
    broker = start_kgroupsd("--topic", "f:2")
    connection = RawConnection(broker.bootstrap)
    produce_values(connection, "f", 0, b"a0", b"a1")

    # A full fetch with epoch 0 creates a session and lists every partition.
    error, session, answered = fetch(connection, 12, [("f", [(0, 0), (1, 0)])], session_epoch=0)
    assert error == 0 and session != 0
    assert set(answered) == {("f", 0), ("f", 1)}
    assert values(answered[("f", 0)]["records"]) == [b"a0", b"a1"]
    assert answered[("f", 0)]["high_watermark"] == 2
    # read_uncommitted (the isolation level sent): no aborted list, null as Kafka answers.
    assert answered[("f", 0)]["aborted"] is None and answered[("f", 0)]["records"]
    assert answered[("f", 1)]["high_watermark"] == 0

    # Epoch 1 moves partition 0 to offset 2: nothing changed anywhere, so nothing is listed.
    error, same, answered = fetch(connection, 12, [("f", [(0, 2)])], session, 1)
    assert (error, same, answered) == (0, session, {})

    # New records in partition 1 only: epoch 2 names no partitions and lists only that one.
    produce_values(connection, "f", 1, b"b0")
    error, same, answered = fetch(connection, 12, [], session, 2)
    assert (error, same) == (0, session)
    assert list(answered) == [("f", 1)]
    assert values(answered[("f", 1)]["records"]) == [b"b0"]
    assert answered[("f", 1)]["high_watermark"] == 1

    # Forgetting partition 1: new records there are no longer fetched.
    error, same, answered = fetch(connection, 12, [("f", [(0, 2)])], session, 3,
                                  forgotten=[("f", [1])])
    produce_values(connection, "f", 1, b"b1")
    error, same, answered = fetch(connection, 12, [], session, 4)
    assert (error, same, answered) == (0, session, {})

    # A stale epoch and an unknown session are top-level errors with session id 0.
    assert fetch(connection, 12, [], session, 4) == (71, 0, {})
    assert fetch(connection, 12, [], session + 1 if session < 2**31 - 1 else 1, 1) == (70, 0, {})
    # The session survived the wrong epoch.
    assert fetch(connection, 12, [], session, 5)[:2] == (0, session)
    connection.close()


def test_fetch_v12_sessionless_full_fetch(start_kgroupsd):
    broker = start_kgroupsd("--topic", "f:1")
    connection = RawConnection(broker.bootstrap)
    produce_values(connection, "f", 0, b"x")
    error, session, answered = fetch(connection, 12, [("f", [(0, 0)])])
    assert (error, session) == (0, 0)
    assert values(answered[("f", 0)]["records"]) == [b"x"]
    connection.close()


def test_fetch_v13_by_topic_id_with_a_session(start_kgroupsd):
    broker = start_kgroupsd("--topic", "g:1")
    connection = RawConnection(broker.bootstrap)
    tid = topic_id(connection, "g")
    produce_values(connection, "g", 0, b"c0")
    unknown = uuid.uuid4().bytes
    error, session, answered = fetch(connection, 13, [(tid, [(0, 0)]), (unknown, [(0, 0)])],
                                     session_epoch=0)
    assert error == 0 and session != 0
    assert values(answered[(tid, 0)]["records"]) == [b"c0"]
    assert answered[(unknown, 0)]["error"] == 100  # UNKNOWN_TOPIC_ID

    # Incremental: the unknown id keeps its error (always listed); g[0] listed once it grows.
    produce_values(connection, "g", 0, b"c1")
    error, same, answered = fetch(connection, 13, [(tid, [(0, 1)])], session, 1,
                                  forgotten=[(unknown, [0])])
    assert (error, same) == (0, session)
    assert list(answered) == [(tid, 0)]
    assert values(answered[(tid, 0)]["records"]) == [b"c1"]
    # A topic-id session used at v12 (names): FETCH_SESSION_TOPIC_ID_ERROR.
    assert fetch(connection, 12, [], session, 2) == (106, 0, {})
    connection.close()


def test_fetch_v17_long_polls_in_an_incremental_session(start_kgroupsd):
    broker = start_kgroupsd("--topic", "h:1")
    connection = RawConnection(broker.bootstrap)
    tid = topic_id(connection, "h")
    error, session, answered = fetch(connection, 17, [(tid, [(0, 0)])], session_epoch=0)
    assert error == 0 and session != 0 and answered[(tid, 0)]["high_watermark"] == 0
    # Nothing new: the incremental fetch waits max_wait_ms and lists nothing.
    error, same, answered = fetch(connection, 17, [], session, 1, max_wait_ms=200, min_bytes=1)
    assert (error, same, answered) == (0, session, {})
    connection.close()


def test_fetch_sessions_are_bounded(start_kgroupsd):
    broker = start_kgroupsd("--topic", "s:1", "--max-fetch-sessions", "1")
    connection = RawConnection(broker.bootstrap)
    first = fetch(connection, 12, [("s", [(0, 0)])], session_epoch=0)[1]
    assert first != 0
    # The only slot is taken by a session used moments ago: no new session.
    assert fetch(connection, 12, [("s", [(0, 0)])], session_epoch=0)[:2] == (0, 0)
    assert fetch(connection, 12, [], first, 1)[:2] == (0, first)
    connection.close()


# --- ListOffsets --------------------------------------------------------------------------

def list_offsets(connection, version, topic, timestamps):
    """Returns [(error, timestamp, offset, leader_epoch)], one per timestamp asked (partition
    i for timestamps[i])."""
    body = i32(-1) + i8(1) + carray([cstr(topic) + carray([
        i32(i) + i32(-1) + i64(ts) + TAGS for i, ts in enumerate(timestamps)]) + TAGS])
    if version >= 10:
        body += i32(1000)
    body += TAGS
    r = flexible_request(connection, 2, version, body)
    throttle = r.i32()

    def partition():
        out = (r.i32(), r.i16(), r.i64(), r.i64(), r.i32())
        r.tags()
        return out

    def topic_response():
        name = r.cstr()
        partitions = r.carray(partition)
        r.tags()
        return name, partitions

    [(name, partitions)] = r.carray(topic_response)
    r.finish()
    assert throttle == 0 and name == topic
    assert [p[0] for p in partitions] == list(range(len(timestamps)))
    return [p[1:] for p in partitions]


def test_list_offsets_v7_to_v10_special_timestamps(start_kgroupsd):
    broker = start_kgroupsd("--topic", "o:6")
    connection = RawConnection(broker.bootstrap)
    # record_batch() stamps records 1000, 1001, ...: one batch per partition.
    for partition in range(6):
        produce(connection, 9, "o", partition,
                record_batch([(None, b"r0"), (None, b"r1"), (None, b"r2")]))
    asks = [-1, -2, -3, -4, -5, 1001]
    for version in (7, 8, 9, 10):
        answers = list_offsets(connection, version, "o", asks)
        assert answers == [
            (0, -1, 3, 0),      # latest: the high watermark
            (0, -1, 0, 0),      # earliest: the log start
            (0, 1002, 2, 0),    # max timestamp: the record stamped 1002
            (0, -1, 0, 0),      # earliest local: the log start (nothing tiered)
            (0, -1, -1, -1),    # latest tiered: none
            (0, 1001, 1, 0),    # by timestamp
        ], version
    connection.close()


def test_list_offsets_v7_max_timestamp_of_an_empty_partition(start_kgroupsd):
    broker = start_kgroupsd("--topic", "e:1")
    connection = RawConnection(broker.bootstrap)
    assert list_offsets(connection, 7, "e", [-3]) == [(0, -1, -1, -1)]
    connection.close()


# --- Fetch v7 (not flexible), through kafka-python's own structs ---------------------------

def test_fetch_v7_incremental_session_with_kafka_python_structs(start_kgroupsd):
    from kafka.protocol.fetch import FetchRequest

    broker = start_kgroupsd("--topic", "k:2")
    connection = RawConnection(broker.bootstrap)
    produce_values(connection, "k", 0, b"z0")

    def fetch_v7(session_id, epoch, partitions, forgotten=()):
        response = connection.request(FetchRequest[7](
            replica_id=-1, max_wait_time=0, min_bytes=0, max_bytes=1 << 20, isolation_level=0,
            session_id=session_id, session_epoch=epoch,
            topics=[("k", [(p, offset, -1, 1 << 20) for p, offset in partitions])]
            if partitions else [],
            forgotten_topics_data=list(forgotten)))
        listed = {(topic, p[0]): p for topic, ps in response.topics for p in ps}
        return response.error_code, response.session_id, listed

    error, session, listed = fetch_v7(0, 0, [(0, 0), (1, 0)])
    assert error == 0 and session != 0 and set(listed) == {("k", 0), ("k", 1)}
    # partition fields: (partition, error, high watermark, last stable, log start, aborted, records)
    assert values(listed[("k", 0)][6]) == [b"z0"]
    assert fetch_v7(session, 1, [(0, 1)]) == (0, session, {})
    produce_values(connection, "k", 0, b"z1")
    error, same, listed = fetch_v7(session, 2, [])
    assert (error, same, list(listed)) == (0, session, [("k", 0)])
    assert listed[("k", 0)][2] == 2 and values(listed[("k", 0)][6]) == [b"z1"]
    assert fetch_v7(session, 7, [])[:2] == (71, 0)
    connection.close()
