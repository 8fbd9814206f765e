# SPDX-License-Identifier: Apache-2.0
"""Raw requests of the KIP-848 consumer-group protocol for tests that need exact control of
the bytes: CreateTopics v7 (which answers the topic id that ConsumerGroupHeartbeat's
assignments name) and ConsumerGroupHeartbeat v0."""
from flexible_wire import Reader, Writer, exchange


def create_topic_v7(connection, name, partitions, configs=(), validate_only=False):
    def write_topic(w, _):
        w.string(name).int32(partitions).int16(1).array([], None)  # no explicit assignments
        w.array(list(configs), lambda w2, c: w2.string(c[0]).string(c[1]).tags())
        w.tags()

    body = Writer(True).array([name], write_topic).int32(5000).boolean(validate_only).tags()
    reader = Reader(exchange(connection, 19, 7, body.bytes(), flexible=True), True)
    reader.int32()

    def read_config(r):
        entry = {"name": r.string(), "value": r.string(), "read_only": r.boolean(),
                 "source": r.int8(), "sensitive": r.boolean()}
        r.tags()
        return entry

    def read_topic(r):
        topic = {"name": r.string(), "id": r.uuid(), "error": r.int16(), "message": r.string(),
                 "partitions": r.int32(), "replication_factor": r.int16(),
                 "configs": r.array(read_config)}
        r.tags()
        return topic

    [topic] = reader.array(read_topic)
    reader.finish()
    return topic


def consumer_heartbeat(connection, group, member_id, epoch, topics=None, owned=None,
                       rebalance_timeout_ms=-1, assignor=None):
    """ConsumerGroupHeartbeat v0; owned: {topic_id: [partitions]} or None (unchanged)."""
    def write_owned(w, item):
        w.uuid(item[0]).array(sorted(item[1]), Writer.int32).tags()

    body = (Writer(True).string(group).string(member_id).int32(epoch).string(None).string(None)
            .int32(rebalance_timeout_ms).array(topics, Writer.string).string(assignor)
            .array(None if owned is None else sorted(owned.items()), write_owned).tags())
    reader = Reader(exchange(connection, 68, 0, body.bytes(), flexible=True), True)
    reader.int32()
    result = {"error": reader.int16(), "message": reader.string(), "member_id": reader.string(),
              "epoch": reader.int32(), "interval": reader.int32(), "assignment": None}
    if reader.int8() >= 0:  # nullable struct: -1 null, 1 present
        def read_topic(r):
            topic_id, partitions = r.uuid(), r.array(Reader.int32)
            r.tags()
            return topic_id, partitions

        result["assignment"] = dict(reader.array(read_topic))
        reader.tags()
    reader.finish()
    return result
