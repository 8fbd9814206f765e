# SPDX-License-Identifier: Apache-2.0
"""Raw requests of share groups (KIP-932), for tests that need exact control of the bytes:
ShareGroupHeartbeat v1, ShareFetch v1, ShareAcknowledge v1 and ShareGroupDescribe v1. The
record batches a ShareFetch answers are kept as bytes; the acquired ranges are parsed."""
from flexible_wire import Reader, Writer, exchange


def share_heartbeat(connection, group, member_id, epoch, topics=None):
    """ShareGroupHeartbeat v1; topics: subscribed names, or None (unchanged)."""
    body = (Writer(True).string(group).string(member_id).int32(epoch).string(None)
            .array(topics, Writer.string).tags())
    reader = Reader(exchange(connection, 76, 1, body.bytes(), flexible=True), True)
    reader.int32()
    result = {"error": reader.int16(), "message": reader.string(), "member_id": reader.string(),
              "epoch": reader.int32(), "interval": reader.int32(), "assignment": None}
    if reader.int8() >= 0:
        def read_topic(r):
            topic_id, partitions = r.uuid(), r.array(Reader.int32)
            r.tags()
            return topic_id, partitions

        result["assignment"] = dict(reader.array(read_topic))
        reader.tags()
    reader.finish()
    return result


def _write_ack_topics(w, topics):
    """topics: {topic_id: {partition: [(first, last, [types])]}}."""
    def write_partition(w2, item):
        partition, batches = item
        w2.int32(partition).array(
            batches, lambda w3, b: w3.int64(b[0]).int64(b[1]).array(b[2], Writer.int8).tags())
        w2.tags()

    def write_topic(w2, item):
        topic_id, partitions = item
        w2.uuid(topic_id).array(sorted(partitions.items()), write_partition).tags()

    w.array(sorted(topics.items()), write_topic)


def _read_partitions(reader, fetch):
    def read_partition(r):
        p = {"partition": r.int32(), "error": r.int16(), "message": r.string()}
        if fetch:
            p["ack_error"], p["ack_message"] = r.int16(), r.string()
        p["leader"] = (r.int32(), r.int32())
        r.tags()
        if fetch:
            p["records"] = r.blob()
            p["acquired"] = r.array(lambda r2: (r2.int64(), r2.int64(), r2.int16(), r2.tags())[:3])
        r.tags()
        return p

    def read_topic(r):
        topic_id, partitions = r.uuid(), r.array(read_partition)
        r.tags()
        return topic_id, partitions

    return dict(reader.array(read_topic))


def share_fetch(connection, group, member_id, epoch, topics, acks=None, forgotten=None,
                max_wait_ms=0, max_records=500, max_bytes=1 << 20):
    """ShareFetch v1. topics: {topic_id: [partitions]} added to the session; acks:
    {topic_id: {partition: [(first, last, [types])]}} (their partitions join `topics`)."""
    acks = acks or {}
    merged = {t: {p: [] for p in ps} for t, ps in topics.items()}
    for topic_id, partitions in acks.items():
        for partition, batches in partitions.items():
            merged.setdefault(topic_id, {})[partition] = batches
    w = (Writer(True).string(group).string(member_id).int32(epoch).int32(max_wait_ms).int32(1)
         .int32(max_bytes).int32(max_records).int32(max_records))
    _write_ack_topics(w, merged)
    w.array(sorted((forgotten or {}).items()),
            lambda w2, item: w2.uuid(item[0]).array(item[1], Writer.int32).tags())
    w.tags()
    reader = Reader(exchange(connection, 78, 1, w.bytes(), flexible=True), True)
    result = {"throttle": reader.int32(), "error": reader.int16(), "message": reader.string(),
              "lock_ms": reader.int32()}
    result["topics"] = _read_partitions(reader, fetch=True)
    reader.array(lambda r: (r.int32(), r.string(), r.int32(), r.string(), r.tags()))
    reader.finish()
    return result


def share_acknowledge(connection, group, member_id, epoch, acks):
    """ShareAcknowledge v1; acks as share_fetch's."""
    w = Writer(True).string(group).string(member_id).int32(epoch)
    _write_ack_topics(w, acks)
    w.tags()
    reader = Reader(exchange(connection, 79, 1, w.bytes(), flexible=True), True)
    result = {"throttle": reader.int32(), "error": reader.int16(), "message": reader.string()}
    result["topics"] = _read_partitions(reader, fetch=False)
    reader.array(lambda r: (r.int32(), r.string(), r.int32(), r.string(), r.tags()))
    reader.finish()
    return result


def acquired_offsets(fetched, topic_id, partition=0):
    """{offset: delivery_count} of the ranges a share_fetch result acquired."""
    out = {}
    for p in fetched["topics"].get(topic_id, []):
        if p["partition"] == partition:
            for first, last, count in p["acquired"]:
                for offset in range(first, last + 1):
                    out[offset] = count
    return out
