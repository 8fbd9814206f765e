# SPDX-License-Identifier: Apache-2.0
"""Bad input never crashes or hangs kgroupsd: oversize, truncated and garbage frames, unknown
API keys and versions, malformed bodies and bad CRCs are answered or close only their own
connection, with a log line, while other connections go on."""
import random
import struct

from kafka.protocol.admin import ApiVersionRequest
from kafka.protocol.offset import OffsetRequest
from kafka.protocol.metadata import MetadataRequest
from kafka.protocol.produce import ProduceRequest

from raw_client import RawConnection, record_batch

TOPIC_PARTITION = ("bad-input", 0)


def assert_still_serving(bootstrap):
    connection = RawConnection(bootstrap)
    try:
        response = connection.request(ApiVersionRequest[0]())
        assert response.error_code == 0
        assert (18, 0, 4) in [tuple(entry) for entry in response.api_versions]
    finally:
        connection.close()


def latest_offset(connection, topic, partition):
    response = connection.request(OffsetRequest[1](replica_id=-1, topics=[
        (topic, [(partition, -1)])]))
    [(name, [(index, error, timestamp, offset)])] = response.topics
    assert error == 0
    return offset


def test_api_versions_past_v4_gets_unsupported_version_in_v0_layout(kgroupsd):
    connection = RawConnection(kgroupsd.bootstrap)
    # ApiVersions v5 does not exist yet: a future client sends it flexible (header v2, compact
    # strings), and the broker must answer in the v0 layout it can always read.
    sent = connection.send(None, api_key=18, api_version=5, body=b"\x00\x05rdkf\x062.0.2\x00")
    correlation_id, body = connection.receive()
    assert correlation_id == sent
    # v0 layout: error_code, then [api_key, min, max] naming ApiVersions' own range.
    assert body == struct.pack(">hi hhh".replace(" ", ""), 35, 1, 18, 0, 4)
    # The connection stays usable (librdkafka retries v0 on it).
    assert connection.request(ApiVersionRequest[0]()).error_code == 0
    connection.close()


def test_oversize_frame_closes_only_that_connection(kgroupsd):
    other = RawConnection(kgroupsd.bootstrap)
    bad = RawConnection(kgroupsd.bootstrap)
    bad.sock.sendall(struct.pack(">i", 0x7FFFFFF0))
    assert bad.is_closed_by_peer()
    assert "outside 0.." in kgroupsd.log()
    assert other.request(ApiVersionRequest[1]()).error_code == 0
    other.close()
    bad.sock.close()
    negative = RawConnection(kgroupsd.bootstrap)
    negative.sock.sendall(struct.pack(">i", -5))
    assert negative.is_closed_by_peer()
    negative.close()
    assert_still_serving(kgroupsd.bootstrap)


def test_truncated_and_garbage_frames(kgroupsd):
    truncated = RawConnection(kgroupsd.bootstrap)
    truncated.sock.sendall(struct.pack(">i", 100) + b"\x00\x12\x00\x00")
    truncated.close()
    garbage = RawConnection(kgroupsd.bootstrap)
    garbage.send_frame(b"\x00")  # too short for a request header
    assert garbage.is_closed_by_peer()
    garbage.close()
    assert_still_serving(kgroupsd.bootstrap)
    log = kgroupsd.log()
    assert "malformed request header" in log


def test_unknown_api_key_and_unsupported_version_close_the_connection(kgroupsd):
    unknown = RawConnection(kgroupsd.bootstrap)
    unknown.send(None, api_key=1000, api_version=0, body=b"")
    assert unknown.is_closed_by_peer()
    unknown.close()
    old_fetch = RawConnection(kgroupsd.bootstrap)
    old_fetch.send(None, api_key=1, api_version=3, body=b"\x00" * 40)
    assert old_fetch.is_closed_by_peer()
    old_fetch.close()
    log = kgroupsd.log()
    assert "API key 1000" in log
    assert "outside the supported v4-17" in log
    new_fetch = RawConnection(kgroupsd.bootstrap)
    new_fetch.send(None, api_key=1, api_version=18, body=b"\x00" * 40)
    assert new_fetch.is_closed_by_peer()
    new_fetch.close()
    assert_still_serving(kgroupsd.bootstrap)


def test_bad_crc_gets_corrupt_message_and_stores_nothing(kgroupsd):
    connection = RawConnection(kgroupsd.bootstrap)
    topic, partition = TOPIC_PARTITION
    batch = bytearray(record_batch([(b"k", b"good value")]))
    good = bytes(batch)
    batch[-3] ^= 0xFF  # flip a byte of the value: the CRC no longer matches
    response = connection.request(ProduceRequest[3](
        transactional_id=None, required_acks=-1, timeout=1000,
        topics=[(topic, [(partition, bytes(batch))])]))
    [(name, [(index, error, base_offset, log_append_time)])] = response.topics
    assert error == 2  # CORRUPT_MESSAGE
    assert latest_offset(connection, topic, partition) == 0
    # The same batch with its CRC intact is stored.
    response = connection.request(ProduceRequest[3](
        transactional_id=None, required_acks=-1, timeout=1000, topics=[(topic, [(partition, good)])]))
    [(name, [(index, error, base_offset, log_append_time)])] = response.topics
    assert (error, base_offset) == (0, 0)
    assert latest_offset(connection, topic, partition) == 1
    connection.close()


def test_produce_to_a_missing_partition_and_bad_acks(start_kgroupsd):
    broker = start_kgroupsd("--topic", "two:2")
    connection = RawConnection(broker.bootstrap)
    batch = record_batch([(b"k", b"v")])
    response = connection.request(ProduceRequest[3](
        transactional_id=None, required_acks=1, timeout=1000, topics=[("two", [(5, batch)])]))
    assert response.topics[0][1][0][1] == 3  # UNKNOWN_TOPIC_OR_PARTITION
    response = connection.request(ProduceRequest[3](
        transactional_id=None, required_acks=2, timeout=1000, topics=[("two", [(0, batch)])]))
    assert response.topics[0][1][0][1] == 21  # INVALID_REQUIRED_ACKS
    assert latest_offset(connection, "two", 0) == 0
    # acks=0 gets no response; a failed one closes the connection so the client notices.
    connection.send(ProduceRequest[3](transactional_id=None, required_acks=0, timeout=1000,
                                      topics=[("two", [(9, batch)])]))
    assert connection.is_closed_by_peer()
    connection.close()


def test_pipelined_requests_are_answered_in_order(kgroupsd):
    connection = RawConnection(kgroupsd.bootstrap)
    requests = [ApiVersionRequest[0](), MetadataRequest[0](topics=["pipelined"]),
                ApiVersionRequest[2](), MetadataRequest[4](topics=None, allow_auto_topic_creation=False)]
    sent = [connection.send(requests[i % len(requests)]) for i in range(200)]
    received = [connection.receive()[0] for _ in sent]
    assert received == sent
    connection.close()


def test_random_bodies_for_every_api_never_crash_the_broker(kgroupsd):
    rng = random.Random(20261130)
    # The data-path APIs at the edges of their ranges and where the layout changes (flexible
    # versions, topic ids), then the group and admin APIs, flexible versions included (header
    # v2: the random bytes start with tagged fields).
    apis = [(0, 3), (0, 8), (0, 9), (0, 11), (1, 4), (1, 7), (1, 12), (1, 13), (1, 15), (1, 17),
            (2, 1), (2, 5), (2, 6), (2, 10), (3, 0), (3, 4), (3, 9), (3, 12), (18, 0), (18, 2),
            (19, 0), (19, 4),
            (8, 9), (9, 9), (10, 4), (11, 9), (12, 4), (13, 5), (14, 5), (15, 5), (16, 5),
            (18, 4), (19, 7), (23, 4), (60, 1), (68, 1), (69, 0)]
    for round_number in range(20 * len(apis)):
        key, version = apis[round_number % len(apis)]
        body = bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 64)))
        connection = RawConnection(kgroupsd.bootstrap)
        connection.send(None, api_key=key, api_version=version, body=body)
        connection.sock.settimeout(5)
        try:
            connection.sock.recv(65536)  # an answer or a close; either is fine, a hang is not
        except ConnectionResetError:
            pass
        connection.close()
    assert kgroupsd.process.poll() is None
    assert_still_serving(kgroupsd.bootstrap)


def resident_mib(process):
    with open(f"/proc/{process.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS line")


def test_size_prefixes_alone_do_not_make_the_broker_allocate(kgroupsd):
    before = resident_mib(kgroupsd.process)
    claims = []
    for _ in range(20):  # each claims a 90 MB frame (under the limit) and sends 1 KB of it
        connection = RawConnection(kgroupsd.bootstrap)
        connection.sock.sendall(struct.pack(">i", 90 << 20) + b"\x00" * 1024)
        claims.append(connection)
    assert_still_serving(kgroupsd.bootstrap)  # the broker has read the prefixes by now
    grown = resident_mib(kgroupsd.process) - before
    assert grown < 64, f"resident memory grew by {grown:.0f} MiB for 20 unfilled size prefixes"
    for connection in claims:
        connection.close()


def test_a_large_frame_arriving_in_pieces_is_stored(start_kgroupsd):
    broker = start_kgroupsd("--max-message-bytes", str(8 << 20), "--topic", "large:1")
    connection = RawConnection(broker.bootstrap)
    value = bytes(range(256)) * (5 << 12)  # 5 MiB
    response = connection.request(ProduceRequest[3](
        transactional_id=None, required_acks=1, timeout=1000,
        topics=[("large", [(0, record_batch([(b"big", value)]))])]))
    assert response.topics[0][1][0][1:3] == (0, 0)
    assert latest_offset(connection, "large", 0) == 1
    connection.close()
