# SPDX-License-Identifier: Apache-2.0
"""kgroupsd's HTTP control endpoint (--http, docs/HTTP-API.md) against real clients: topics and
a confluent-kafka group's members, assignment, committed offsets and lag as the clients made
them, /metrics, and --manual-clock keeping a dead member until /v1/clock/advance passes its
session timeout."""
import json
import select
import signal
import subprocess
import sys
import textwrap
import time
import urllib.error
import urllib.request

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition

TIMEOUT_S = 30


def http_get(broker, path):
    """(status, body) of GET `path` on the broker's control endpoint."""
    try:
        with urllib.request.urlopen(f"http://{broker.http}{path}", timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def http_post(broker, path, body):
    request = urllib.request.Request(f"http://{broker.http}{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def get_json(broker, path, status=200):
    code, body = http_get(broker, path)
    assert code == status, body
    return json.loads(body)


def wait_until(condition, what, timeout_s=TIMEOUT_S):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def produce(bootstrap, topic, per_partition):
    """`per_partition[p]` messages to partition p."""
    producer = Producer({"bootstrap.servers": bootstrap})
    for partition, count in enumerate(per_partition):
        for i in range(count):
            producer.produce(topic, value=b"v%d" % i, partition=partition)
    assert producer.flush(TIMEOUT_S) == 0


def test_ready_line_names_the_http_address(start_kgroupsd):
    broker = start_kgroupsd("--http", "127.0.0.1:0")
    host, port = broker.http.rsplit(":", 1)
    assert host == "127.0.0.1" and int(port) > 0
    assert broker.bootstrap != broker.http
    assert get_json(broker, "/v1")["version"] == "v1"
    plain = start_kgroupsd()
    assert plain.http is None


def test_topics_group_members_assignment_offsets_lag_and_metrics(start_kgroupsd):
    broker = start_kgroupsd("--http", "127.0.0.1:0", "--topic", "orders:2")
    produce(broker.bootstrap, "orders", [5, 4])

    topics = get_json(broker, "/v1/topics")["topics"]
    assert [t["name"] for t in topics] == ["orders"]
    assert [(p["partition"], p["log_start_offset"], p["end_offset"])
            for p in topics[0]["partitions"]] == [(0, 0, 5), (1, 0, 4)]
    assert all(p["bytes"] > 0 for p in topics[0]["partitions"])
    assert get_json(broker, "/v1/topics/orders")["configs"] == {}
    assert get_json(broker, "/v1/topics/missing", 404)["error"]["status"] == 404

    consumer = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "g1",
                         "client.id": "http-api-test", "auto.offset.reset": "earliest",
                         "enable.auto.commit": False})
    try:
        consumer.subscribe(["orders"])
        seen = 0
        deadline = time.monotonic() + TIMEOUT_S
        while seen < 9 and time.monotonic() < deadline:
            message = consumer.poll(0.2)
            if message is not None and message.error() is None:
                seen += 1
        assert seen == 9
        consumer.commit(offsets=[TopicPartition("orders", 0, 5), TopicPartition("orders", 1, 1)],
                        asynchronous=False)

        group = wait_until(lambda: (lambda g: g if g["state"] == "Stable" else None)(
            get_json(broker, "/v1/groups/g1")), "g1 to be Stable")
        assert group["type"] == "classic"
        assert group["protocol_type"] == "consumer"
        assert group["generation"] >= 1
        [member] = group["members"]
        assert member["client_id"] == "http-api-test"
        assert group["leader"] == member["member_id"]
        assert member["assignment"] == [{"topic": "orders", "partitions": [0, 1]}]
        offsets = {(o["topic"], o["partition"]): o for o in group["offsets"]}
        assert offsets[("orders", 0)]["committed"] == 5
        assert offsets[("orders", 0)]["end_offset"] == 5
        assert offsets[("orders", 0)]["lag"] == 0
        assert offsets[("orders", 1)]["committed"] == 1
        assert offsets[("orders", 1)]["lag"] == 3
        assert group["lag"] == 3

        summary = get_json(broker, "/v1/groups")["groups"]
        assert [(g["group_id"], g["state"], g["members"]) for g in summary] == [("g1", "Stable", 1)]

        code, metrics = http_get(broker, "/metrics")
        assert code == 200
        lines = metrics.splitlines()
        assert 'kgroupsd_group_lag{group="g1",topic="orders",partition="1"} 3' in lines
        assert 'kgroupsd_partition_end_offset{topic="orders",partition="0"} 5' in lines
        assert 'kgroupsd_groups{state="Stable"} 1' in lines
        produce_line = next(line for line in lines
                            if line.startswith('kgroupsd_requests_total{api="Produce"} '))
        assert int(produce_line.split()[-1]) >= 1
        received = next(line for line in lines if line.startswith("kgroupsd_bytes_received_total "))
        assert int(received.split()[-1]) > 0
        assert any(line.startswith("kgroupsd_connections ") for line in lines)
    finally:
        consumer.close()


def test_errors_are_counted_in_metrics(start_kgroupsd):
    broker = start_kgroupsd("--http", "127.0.0.1:0")
    consumer = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "g2"})
    try:
        # A commit from outside the group to a partition of an unknown topic is answered
        # per partition; a commit with a made-up generation gets ILLEGAL_GENERATION or
        # UNKNOWN_MEMBER_ID. Either way an error is counted for OffsetCommit.
        with pytest.raises(Exception):
            consumer.commit(offsets=[TopicPartition("t", 0, 1)], asynchronous=False)
    finally:
        consumer.close()
    _, metrics = http_get(broker, "/metrics")
    errors = [line for line in metrics.splitlines()
              if line.startswith("kgroupsd_request_errors_total{")]
    assert errors, metrics


def test_clock_advance_is_409_without_manual_clock(start_kgroupsd):
    broker = start_kgroupsd("--http", "127.0.0.1:0")
    assert get_json(broker, "/v1/clock")["manual"] is False
    status, body = http_post(broker, "/v1/clock/advance", {"ms": 1000})
    assert status == 409 and "--manual-clock" in body["error"]["message"]


MEMBER_SCRIPT = textwrap.dedent("""
    import sys
    from confluent_kafka import Consumer
    consumer = Consumer({"bootstrap.servers": sys.argv[1], "group.id": "sleepy",
                         "session.timeout.ms": 1000, "heartbeat.interval.ms": 100,
                         "auto.offset.reset": "earliest", "enable.auto.commit": False})
    def assigned(member, partitions):
        print("assigned", len(partitions), flush=True)
    consumer.subscribe(["orders"], on_assign=assigned)
    while True:
        consumer.poll(0.1)
""")


def test_manual_clock_keeps_a_dead_member_until_advanced_past_its_session(start_kgroupsd):
    broker = start_kgroupsd("--http", "127.0.0.1:0", "--manual-clock", "--topic", "orders:2",
                            "--group-min-session-timeout-ms", "1000",
                            "--initial-rebalance-delay-ms", "0")
    assert get_json(broker, "/v1/clock") == {"manual": True, "now_ms": 0}
    member = subprocess.Popen([sys.executable, "-c", MEMBER_SCRIPT, broker.bootstrap],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        ready, _, _ = select.select([member.stdout], [], [], 20)
        assert ready, "the member printed no assignment within 20 s"
        line = member.stdout.readline()
        assert line.startswith(b"assigned 2"), line
        wait_until(lambda: get_json(broker, "/v1/groups/sleepy")["state"] == "Stable",
                   "sleepy to be Stable")
    finally:
        member.send_signal(signal.SIGKILL)
        member.wait(timeout=10)

    # Real time passes well beyond the session timeout: the clock does not.
    time.sleep(1.5)
    group = get_json(broker, "/v1/groups/sleepy")
    assert len(group["members"]) == 1 and group["state"] == "Stable"

    status, body = http_post(broker, "/v1/clock/advance", {"ms": 900})
    assert status == 200 and body["now_ms"] == 900
    assert len(get_json(broker, "/v1/groups/sleepy")["members"]) == 1

    status, body = http_post(broker, "/v1/clock/advance", {"ms": 200})
    assert status == 200 and body == {"manual": True, "now_ms": 1100}
    # Expired, the member leaves a group with neither members nor committed offsets, which
    # the coordinator forgets.
    assert get_json(broker, "/v1/groups/sleepy", 404)["error"]["status"] == 404
    assert get_json(broker, "/v1/groups")["groups"] == []

    status, body = http_post(broker, "/v1/clock/advance", {"ms": -5})
    assert status == 400 and "ms" in body["error"]["message"]


def raw_request(broker, method, path, headers, body=b""):
    """(status, parsed JSON body) of one request sent with exactly `headers` (no Host of its
    own), as a web page's request would come."""
    import http.client
    host, port = broker.http.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for name, value in headers.items():
        connection.putheader(name, value)
    connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body)
    response = connection.getresponse()
    status, text = response.status, response.read()
    connection.close()
    return status, json.loads(text) if text else None


FAULT = json.dumps({"api": "Produce", "error": 6, "count": 1}).encode()


def test_a_web_page_cannot_act_through_the_endpoint(start_kgroupsd):
    """DNS rebinding (a foreign Host), a cross-origin POST and a form-like POST are refused and
    arm nothing; the endpoint's own clients (JSON, loopback Host) still act."""
    broker = start_kgroupsd("--http", "127.0.0.1:0")
    port = broker.http.rsplit(":", 1)[1]
    json_type = {"Content-Type": "application/json"}
    status, body = raw_request(broker, "POST", "/v1/faults",
                               {"Host": f"evil.example:{port}", **json_type}, FAULT)
    assert status == 403 and "--http-allow-host" in body["error"]["message"], body
    status, body = raw_request(broker, "GET", "/v1/groups", {"Host": "rebound.example"})
    assert status == 403, body
    status, body = raw_request(broker, "POST", "/v1/faults",
                               {"Host": f"127.0.0.1:{port}", "Origin": "https://evil.example",
                                **json_type}, FAULT)
    assert status == 403 and "evil.example" in body["error"]["message"], body
    status, body = raw_request(broker, "POST", "/v1/faults",
                               {"Host": f"127.0.0.1:{port}", "Content-Type": "text/plain"}, FAULT)
    assert status == 415 and "application/json" in body["error"]["message"], body
    assert get_json(broker, "/v1/faults")["faults"] == []

    status, body = raw_request(broker, "POST", "/v1/faults",
                               {"Host": f"localhost:{port}", "Origin": f"http://localhost:{port}",
                                **json_type}, FAULT)
    assert status == 201, body
    assert len(get_json(broker, "/v1/faults")["faults"]) == 1


def test_http_allow_host_lets_a_further_name_reach_the_endpoint(start_kgroupsd):
    broker = start_kgroupsd("--http", "127.0.0.1:0", "--http-allow-host", "devbox.lan")
    assert raw_request(broker, "GET", "/v1/faults", {"Host": "devbox.lan:80"})[0] == 200
    assert raw_request(broker, "GET", "/v1/faults", {"Host": "other.lan"})[0] == 403


def test_metrics_of_250000_committed_offsets_are_bounded_and_others_are_answered(start_kgroupsd):
    """25 groups with 10,000 committed offsets each, then GET /metrics twice without reading
    the answers: each answer stops at --http-max-metrics-bytes with a comment, the broker's
    memory stays bounded and a Kafka probe is answered within a second."""
    import socket
    from kafka.protocol.commit import OffsetCommitRequest
    from attack_checks import assert_responsive
    from raw_client import RawConnection
    # 640 MiB: the groups' share (a sixteenth) holds 250,000 offsets, each with its leader
    # epoch and commit timestamp.
    broker = start_kgroupsd("--http", "127.0.0.1:0", "--max-memory", "640MiB",
                            "--topic", "wide:10000", "--http-max-metrics-bytes", "4MiB")
    connection = RawConnection(broker.bootstrap, timeout_s=30)
    for group in range(25):
        commit = connection.request(OffsetCommitRequest[2](
            consumer_group=f"g{group}", consumer_group_generation_id=-1, consumer_id="",
            retention_time=-1, topics=[("wide", [(p, 0, "") for p in range(10000)])]))
        assert all(error == 0 for _p, error in commit.topics[0][1])
    connection.close()
    before = broker.rss_mib()
    host, port = broker.http.rsplit(":", 1)
    unread = []
    for _ in range(2):
        client = socket.create_connection((host, int(port)), timeout=10)
        client.sendall(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        unread.append(client)
    assert_responsive(broker)
    grown = broker.rss_mib() - before
    assert grown < 4 * 4, f"RSS grew {grown:.0f} MiB for two unread 4 MiB answers"
    for client in unread:
        client.close()
    code, text = http_get(broker, "/metrics")
    assert code == 200
    assert len(text) < 4 * 1024 * 1024 + 8192
    assert "# kgroupsd: the answer reached --http-max-metrics-bytes" in text
