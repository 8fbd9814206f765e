# SPDX-License-Identifier: Apache-2.0
"""Attack through compaction: one gzip batch of 1.9 million distinct keys (about 4 MB stored,
30 MB unpacked) in a compacted topic, then batches that each unpack to a few MiB of keys that
repeat (so the cleaner must rewrite them). The cleaner works on the broker's thread in slices
bounded by unpacked bytes and time, keeps its key map within --log-cleaner-dedupe-buffer-bytes
(checked per record) and leaves a batch larger than --log-cleaner-max-batch-bytes whole. A
probe asking ApiVersions every 0.1 s is answered within a second throughout, the broker stays
within --max-memory, and the records stay readable."""
import gzip
import time

from kafka.protocol.admin import CreateTopicsRequest
from kafka.protocol.fetch import FetchRequest
from kafka.protocol.produce import ProduceRequest

from attack_checks import Probe, assert_within_budget
from flexible_wire import uvarint
from raw_client import RawConnection, batch_around

BUDGET_MIB = 512
TOPIC = "compacted"


def zigzag_varint(value):
    """A record field's varint: zigzag-encoded, then LEB128."""
    return uvarint((value << 1) ^ (value >> 63))


def gzip_batch(records):
    """A gzip magic-2 batch of (key, value) records."""
    encoded = []
    for delta, (key, value) in enumerate(records):
        body = (b"\x00\x00" + zigzag_varint(delta) + zigzag_varint(len(key)) + key +
                zigzag_varint(len(value)) + value + b"\x00")
        encoded.append(zigzag_varint(len(body)) + body)
    return batch_around(gzip.compress(b"".join(encoded), 6), len(records), attributes=1)


def produce(connection, batch):
    answer = connection.request(ProduceRequest[3](
        transactional_id=None, required_acks=1, timeout=10000, topics=[(TOPIC, [(0, batch)])]))
    return answer.topics[0][1][0][1]


def test_huge_and_repetitive_compressed_batches_are_cleaned_in_bounded_slices(start_kgroupsd):
    broker = start_kgroupsd("--max-memory", f"{BUDGET_MIB}MiB", "--log-cleaner-interval-ms",
                            "100")
    connection = RawConnection(broker.bootstrap, timeout_s=60)
    created = connection.request(CreateTopicsRequest[0](
        create_topic_requests=[(TOPIC, 1, 1, [], [
            ("cleanup.policy", "compact"), ("segment.bytes", "1048576"),
            ("max.message.bytes", str(16 << 20)), ("min.cleanable.dirty.ratio", "0.01")])],
        timeout=10000))
    assert created.topic_errors[0][1] == 0, created
    probe = Probe(broker.bootstrap)
    huge = gzip_batch([(b"%07d" % i, b"") for i in range(1_900_000)])
    assert produce(connection, huge) == 0
    # Keys that repeat: each batch supersedes most of the one before, so the cleaner rewrites
    # them (and compresses them again): many small records, then few of 160 KiB each.
    for n in range(0, 1_200_000, 60_000):
        batch = gzip_batch([(b"key-%05d" % (i % 20_000), b"v") for i in range(n, n + 60_000)])
        assert produce(connection, batch) == 0
    value = bytes(range(256)) * 640
    for n in range(0, 400, 40):
        assert produce(connection, gzip_batch([(b"big-%02d" % (i % 40), value)
                                               for i in range(n, n + 40)])) == 0
    time.sleep(6)  # the cleaner's passes, every 100 ms
    slowest = probe.finish()
    assert slowest < 1.0, f"a probe waited {slowest:.2f} s"
    assert_within_budget(broker, BUDGET_MIB)
    log = broker.log()
    assert "log cleaner: finished cleaning" in log
    assert "batch(es) were kept whole" in log  # the 1.9 million keys
    fetched = connection.request(FetchRequest[4](
        replica_id=-1, max_wait_time=0, min_bytes=0, max_bytes=1 << 20, isolation_level=0,
        topics=[(TOPIC, [(0, 0, 1 << 20)])]))
    assert fetched.topics[0][1][0][1] == 0
    connection.close()
