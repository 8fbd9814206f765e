# SPDX-License-Identifier: Apache-2.0
"""Hostile and careless clients cannot make kgroupsd grow without bound, hold memory for
ever, starve other clients, delay its shutdown or forge its log lines: one test per attack
and per connection limit (docs/LIMITS.md). Each starts its own kgroupsd with small limits,
and every wait is bounded."""
import io
import re
import select
import signal
import struct
import threading
import time

from kafka.protocol.admin import ApiVersionRequest
from kafka.protocol.fetch import FetchRequest
from kafka.protocol.group import JoinGroupRequest
from kafka.protocol.metadata import MetadataRequest
from kafka.protocol.produce import ProduceRequest

from raw_client import RawConnection, record_batch

MIB = 1 << 20
PROBE_BOUND_S = 1.0  # an ApiVersions probe is answered within this while an attack runs
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (DEBUG|INFO |WARN |ERROR) ")


def resident_mib(process):
    with open(f"/proc/{process.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS line")


def probe(bootstrap, bound_s=PROBE_BOUND_S):
    """Connects, asks ApiVersions, and checks the answer comes within `bound_s`."""
    started = time.monotonic()
    connection = RawConnection(bootstrap, timeout_s=5)
    try:
        assert connection.request(ApiVersionRequest[0]()).error_code == 0
    finally:
        connection.close()
    elapsed = time.monotonic() - started
    assert elapsed < bound_s, f"probe answered after {elapsed:.2f} s"


def push(sockets_and_data, seconds):
    """Sends as much of each socket's data as the broker takes within `seconds`, without
    blocking (the broker may stop reading); returns the bytes sent per socket."""
    sent = [0] * len(sockets_and_data)
    for sock, _ in sockets_and_data:
        sock.setblocking(False)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pending = [i for i, (_, data) in enumerate(sockets_and_data) if sent[i] < len(data)]
        if not pending:
            break
        _, writable, _ = select.select([], [sockets_and_data[i][0] for i in pending], [], 0.05)
        for i in pending:
            sock, data = sockets_and_data[i]
            if sock not in writable:
                continue
            try:
                sent[i] += sock.send(data[sent[i]:sent[i] + MIB])
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                sent[i] = len(data)  # closed by the broker: nothing more to send
    for sock, _ in sockets_and_data:
        sock.settimeout(10)
    return sent


def sample_peak_rss(process, seconds):
    peak = 0.0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        peak = max(peak, resident_mib(process))
        time.sleep(0.05)
    return peak


def produce(connection, topic, batch):
    response = connection.request(ProduceRequest[3](
        transactional_id=None, required_acks=1, timeout=10000, topics=[(topic, [(0, batch)])]))
    [(name, [(index, error, base_offset, log_append_time)])] = response.topics
    assert error == 0
    return base_offset


def log_lines_with(broker, fragment):
    return [line for line in broker.log().splitlines() if fragment in line]


def wait_for_log_lines(broker, fragment, count, timeout_s=10):
    """Waits until the log has `count` lines containing `fragment`; returns them."""
    deadline = time.monotonic() + timeout_s
    while True:
        lines = log_lines_with(broker, fragment)
        if len(lines) >= count or time.monotonic() > deadline:
            return lines
        time.sleep(0.05)


def test_responses_never_read_are_bounded_and_the_reader_is_closed_after_send_timeout(
        start_kgroupsd):
    # Responses get 32 MiB (an eighth of 256 MiB); one connection stops being read beyond 8 MiB.
    # 100 topics of 20 partitions make a Metadata answer of about 60 KiB.
    topics = [f"--topic=many-{i}:20" for i in range(100)]
    broker = start_kgroupsd("--max-memory", "256MiB", "--send-timeout-ms", "2000",
                            "--log-retention-ms", "-1", "--topic", "stored:1", *topics)
    writer = RawConnection(broker.bootstrap)
    batch = record_batch([(b"k", bytes(900 * 1024))])
    for _ in range(2):
        produce(writer, "stored", batch)
    writer.close()
    before = resident_mib(broker.process)

    # Each Fetch answers with the whole partition (about 1.8 MiB); 4 connections ask 300
    # times each and read nothing, a fifth asks Metadata 3000 times: 2.3 GiB of responses if
    # nothing held them back.
    fetch = FetchRequest[4](replica_id=-1, max_wait_time=0, min_bytes=0, max_bytes=64 * MIB,
                            isolation_level=0, topics=[("stored", [(0, 0, 64 * MIB)])])
    metadata = MetadataRequest[1](topics=None)
    attackers = [RawConnection(broker.bootstrap) for _ in range(5)]
    requests = [a.pipelined(fetch, 300) for a in attackers[:4]]
    requests.append(attackers[4].pipelined(metadata, 3000))
    push(list(zip([a.sock for a in attackers], requests)), seconds=0.5)

    peak = sample_peak_rss(broker.process, seconds=1.0)
    probe(broker.bootstrap)
    budget_mib = 32
    grown = peak - before
    # The budget, plus one response beyond it per connection (~4 MiB with its slack).
    assert grown < budget_mib + 5 * 4 + 16, f"resident memory grew by {grown:.0f} MiB"

    # Reading now would be progress: first let the broker close them, then check they are.
    closed = wait_for_log_lines(broker, "--send-timeout-ms", len(attackers))
    assert len(closed) == len(attackers), "\n".join(closed)
    for attacker in attackers:
        assert attacker.is_closed_by_peer(timeout_s=10)
        attacker.close()
    probe(broker.bootstrap)


def test_partial_large_frames_are_bounded_by_request_memory_and_time_out(start_kgroupsd):
    broker = start_kgroupsd("--max-memory", "256MiB", "--queued-max-request-bytes", "24MiB",
                            "--request-timeout-ms", "3000", "--max-message-bytes", "8MiB",
                            "--topic", "large:1")
    before = resident_mib(broker.process)
    # Eight connections each announce a 20 MiB frame and send as much of it as they can:
    # 160 MiB if each were given the buffer it asks for.
    frame_size = 20 * MIB
    attackers = [RawConnection(broker.bootstrap) for _ in range(8)]
    data = struct.pack(">i", frame_size) + bytes(frame_size - 1 * MIB)
    push([(a.sock, data) for a in attackers], seconds=1.0)

    # A legitimate producer's 6 MiB request waits for request memory, then goes through.
    legitimate = RawConnection(broker.bootstrap, timeout_s=15)
    produced = {}

    def produce_large():
        try:
            produced["offset"] = produce(legitimate, "large", record_batch([(b"big", bytes(6 * MIB))]))
        except Exception as error:  # reported by the assertion below
            produced["error"] = error

    producer = threading.Thread(target=produce_large, daemon=True)
    producer.start()

    peak = sample_peak_rss(broker.process, seconds=1.0)
    probe(broker.bootstrap)
    grown = peak - before
    assert grown < 24 + 24, f"resident memory grew by {grown:.0f} MiB"

    for attacker in attackers:
        assert attacker.is_closed_by_peer(timeout_s=10)
        attacker.close()
    producer.join(timeout=15)
    assert produced.get("offset") == 0, produced
    legitimate.close()
    closed = log_lines_with(broker, "--request-timeout-ms")
    assert len(closed) == len(attackers), "\n".join(closed)
    probe(broker.bootstrap)


def test_idle_connections_are_closed_and_busy_ones_are_not(start_kgroupsd):
    broker = start_kgroupsd("--connections-max-idle-ms", "1000", "--topic", "quiet:1")
    idle = RawConnection(broker.bootstrap)
    assert idle.request(ApiVersionRequest[0]()).error_code == 0
    answered = time.monotonic()
    # A long-polling Fetch is a request in progress: its connection is not idle meanwhile.
    polling = RawConnection(broker.bootstrap)
    polling.send(FetchRequest[4](replica_id=-1, max_wait_time=2000, min_bytes=1, max_bytes=MIB,
                                 isolation_level=0, topics=[("quiet", [(0, 0, MIB)])]))
    assert not idle.is_closed_by_peer(timeout_s=0.5)
    assert idle.is_closed_by_peer(timeout_s=3)
    assert time.monotonic() - answered >= 0.9
    idle.close()
    polling.sock.settimeout(5)
    polling.receive()  # the fetch's answer after its 2 s wait, on a connection still open
    assert polling.request(ApiVersionRequest[0]()).error_code == 0
    polling.close()
    # A connection with a request every 300 ms stays open.
    chatty = RawConnection(broker.bootstrap)
    for _ in range(6):
        assert chatty.request(ApiVersionRequest[0]()).error_code == 0
        time.sleep(0.3)
    assert chatty.request(ApiVersionRequest[0]()).error_code == 0
    chatty.close()
    lines = log_lines_with(broker, "--connections-max-idle-ms")
    assert len(lines) == 1, "\n".join(lines)


def test_connections_beyond_the_total_cap_are_closed_at_once_and_logged_rate_limited(
        start_kgroupsd):
    broker = start_kgroupsd("--max-connections", "3")
    assert "accepting at most 3 connections" in broker.log()
    admitted = [RawConnection(broker.bootstrap) for _ in range(3)]
    for connection in admitted:
        assert connection.request(ApiVersionRequest[0]()).error_code == 0
    started = time.monotonic()
    refused = [RawConnection(broker.bootstrap) for _ in range(20)]
    for connection in refused:
        assert connection.is_closed_by_peer(timeout_s=2)
        connection.close()
    seconds = time.monotonic() - started
    # One line, and one more per second at most, however many are refused.
    lines = wait_for_log_lines(broker, "(--max-connections)", 1)
    assert 1 <= len(lines) <= 2 + int(seconds), "\n".join(lines)
    assert "3 connections are open" in lines[0]
    time.sleep(1.1)
    late = RawConnection(broker.bootstrap)
    assert late.is_closed_by_peer(timeout_s=2)
    late.close()
    lines = wait_for_log_lines(broker, "(--max-connections)", len(lines) + 1)
    # Each line counts itself and the refusals left out since the previous one.
    total_refused = len(lines) + sum(
        int(m.group(1)) for m in (re.search(r"and (\d+) more refused", line) for line in lines) if m)
    assert total_refused == 21, "\n".join(lines)
    for connection in admitted:
        assert connection.request(ApiVersionRequest[0]()).error_code == 0
    # A closed connection makes room.
    admitted.pop().close()
    deadline = time.monotonic() + 5
    while True:
        again = RawConnection(broker.bootstrap)
        try:
            if again.request(ApiVersionRequest[0]()).error_code == 0:
                break
        except (ConnectionError, OSError):
            assert time.monotonic() < deadline, "no room after a connection closed"
            time.sleep(0.05)
        finally:
            again.close()
    for connection in admitted:
        connection.close()


def test_connections_beyond_the_per_address_cap_are_closed_and_other_addresses_served(
        start_kgroupsd):
    broker = start_kgroupsd("--max-connections-per-ip", "2")
    admitted = [RawConnection(broker.bootstrap) for _ in range(2)]
    for connection in admitted:
        assert connection.request(ApiVersionRequest[0]()).error_code == 0
    third = RawConnection(broker.bootstrap)
    assert third.is_closed_by_peer(timeout_s=2)
    third.close()
    other_address = RawConnection(broker.bootstrap, source_host="127.0.0.2")
    assert other_address.request(ApiVersionRequest[0]()).error_code == 0
    lines = log_lines_with(broker, "(--max-connections-per-ip)")
    assert len(lines) == 1 and "from 127.0.0.1" in lines[0], "\n".join(lines)
    for connection in admitted + [other_address]:
        assert connection.request(ApiVersionRequest[0]()).error_code == 0
        connection.close()


def flood(bootstrap, stop, request, count):
    """Pipelines `count` copies of `request` at a time, as fast as the broker takes them, and
    reads the answers on a second thread, until `stop` is set or the broker goes away."""
    connection = RawConnection(bootstrap)
    burst = connection.pipelined(request, count)
    connection.sock.settimeout(None)  # both threads end when the broker closes the socket

    def drain():
        try:
            while connection.sock.recv(1 << 20):
                pass
        except OSError:
            pass

    threading.Thread(target=drain, daemon=True).start()
    try:
        while not stop.is_set():
            connection.sock.sendall(burst)
    except OSError:
        pass


def test_sigterm_under_a_flood_of_pipelined_requests_exits_within_a_second(start_kgroupsd):
    broker = start_kgroupsd("--topic", "stored:4", "--log-retention-ms", "-1")
    # 256 MiB of records, freed at exit: 16 requests at a time, each encoded once.
    writer = RawConnection(broker.bootstrap, timeout_s=30)
    batch = record_batch([(b"k", bytes(1000 * 1024))])
    requests = [ProduceRequest[3](transactional_id=None, required_acks=1, timeout=10000,
                                  topics=[("stored", [(partition, batch)])])
                for partition in range(4)]
    bodies = [request.encode() for request in requests]
    for _ in range(16):
        sent = [writer.send(None, api_key=0, api_version=3, body=bodies[i % 4]) for i in range(16)]
        for correlation_id in sent:
            received, body = writer.receive()
            assert received == correlation_id
            response = ProduceRequest[3].RESPONSE_TYPE.decode(io.BytesIO(body))
            assert response.topics[0][1][0][1] == 0
    writer.close()

    # Small requests, and Fetches of 2 MiB each: a 64 KiB read holds about 900 of them.
    fetch = FetchRequest[4](replica_id=-1, max_wait_time=0, min_bytes=0, max_bytes=2 * MIB,
                            isolation_level=0, topics=[("stored", [(0, 0, 2 * MIB)])])
    floods = [(MetadataRequest[1](topics=None), 500), (ApiVersionRequest[0](), 500),
              (fetch, 1000)] * 2
    stop = threading.Event()
    flooders = [threading.Thread(target=flood, args=(broker.bootstrap, stop, request, count),
                                 daemon=True) for request, count in floods]
    for flooder in flooders:
        flooder.start()
    try:
        time.sleep(1.5)
        assert broker.process.poll() is None
        signalled = time.monotonic()
        broker.process.send_signal(signal.SIGTERM)
        while broker.process.poll() is None and time.monotonic() - signalled < 10:
            time.sleep(0.005)
        elapsed = time.monotonic() - signalled
    finally:
        stop.set()
    for flooder in flooders:
        flooder.join(timeout=5)
    assert broker.process.returncode == 0
    assert elapsed < 1.0, f"kgroupsd took {elapsed:.2f} s to exit after SIGTERM"
    assert "shutting down" in broker.log()


def test_client_text_with_newlines_and_terminal_escapes_cannot_forge_log_lines(start_kgroupsd):
    broker = start_kgroupsd("--verbose")
    evil = b"evil\n2026-01-01T00:00:00.000Z ERROR forged line\x1b[31m\r\x85\xff"
    connection = RawConnection(broker.bootstrap, client_id=evil)
    assert connection.request(ApiVersionRequest[0]()).error_code == 0
    # A group id the coordinator logs as its group is formed.
    # (Its answer holds a member id made from the client id, which kafka-python cannot
    # decode: read the error code alone.)
    connection.send(JoinGroupRequest[0](
        group=evil.decode("latin-1"), session_timeout=10000, member_id="", protocol_type="consumer",
        group_protocols=[("range", b"")]))
    _, body = connection.receive()
    assert struct.unpack(">h", body[:2])[0] == 0
    # A topic name that is not legal, asked for in Metadata.
    response = connection.request(MetadataRequest[1](topics=["bad\nname\x1b[31m"]))
    assert response.topics[0][0] == 17  # INVALID_TOPIC_EXCEPTION
    connection.close()
    time.sleep(0.1)

    raw = broker.log_path.read_bytes()
    assert b"\x1b" not in raw
    assert b"\r" not in raw
    assert b"\xff" not in raw
    for line in raw.decode("utf-8").splitlines():
        assert LOG_LINE.match(line), f"a log line that kgroupsd did not write: {line!r}"
    text = raw.decode("utf-8")
    assert '\\n2026-01-01T00:00:00.000Z ERROR forged line\\x1b[31m\\r' in text
    assert "\\xff" in text
    assert "\\xc2\\x85" in text  # JoinGroup's string came as UTF-8 of U+0085


def test_slow_http_clients_from_one_address_cannot_lock_the_endpoint_out(start_kgroupsd):
    """70 connections from 127.0.0.1 that send half a request head and stall fill the HTTP
    endpoint's caps; each new connection makes room by closing the one that waited longest,
    so a console request is answered within a second, every time."""
    import socket
    import urllib.request
    broker = start_kgroupsd("--http", "127.0.0.1:0", "--topic", "orders:1")
    host, port = broker.http.rsplit(":", 1)
    stalled = []
    try:
        for _ in range(70):
            client = socket.create_connection((host, int(port)), timeout=5)
            client.sendall(b"GET /v1/topics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            stalled.append(client)
        for _ in range(5):
            started = time.monotonic()
            with urllib.request.urlopen(f"http://{broker.http}/v1/topics", timeout=5) as answer:
                assert answer.status == 200
            assert time.monotonic() - started < PROBE_BOUND_S
    finally:
        for client in stalled:
            client.close()
    assert log_lines_with(broker, "closed to make room"), "no stalled connection was closed"
