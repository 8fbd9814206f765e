# SPDX-License-Identifier: Apache-2.0
"""Attack through the playground: simulated consumers in group after group on a 10,000-partition
topic, each group reading it to its end and then crashed (no LeaveGroup), until the groups'
share of --max-memory is full. What the playground keeps per group and partition (the offsets
delivered, for replay detection) is charged to that share beside the groups' committed
offsets and the replay tracker's marks, and goes with its last consumer of the group; once the share is full a new group's
consumer gets 503 saying what to do. The broker stays within --max-memory and answers a probe
within a second."""
import json
import time
import urllib.error
import urllib.request

from kafka.protocol.admin import CreateTopicsRequest
from kafka.protocol.produce import ProduceRequest

from attack_checks import assert_responsive, assert_within_budget
from raw_client import RawConnection, record_batch

PARTITIONS = 10000
CONSUMERS_PER_GROUP = 4
BUDGET_MIB = 512  # the groups' share is 32 MiB of it
MAX_GROUPS = 12
TOPIC = "w" * 249  # the longest legal name: each committed offset keeps a copy


def call(broker, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://{broker.http}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def wait_until(condition, timeout_s):
    """Whether `condition()` held within `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def test_crashed_playground_groups_on_a_wide_topic_stay_within_the_groups_share(start_kgroupsd):
    broker = start_kgroupsd("--max-memory", f"{BUDGET_MIB}MiB", "--http", "127.0.0.1:0",
                            "--initial-rebalance-delay-ms", "0")
    connection = RawConnection(broker.bootstrap, timeout_s=60)
    created = connection.request(CreateTopicsRequest[0](
        create_topic_requests=[(TOPIC, PARTITIONS, 1, [], [])], timeout=1000))
    assert created.topic_errors[0][1] == 0
    tiny = record_batch([(b"k", b"v")])
    produced = connection.request(ProduceRequest[3](
        transactional_id=None, required_acks=1, timeout=1000,
        topics=[(TOPIC, [(p, tiny) for p in range(PARTITIONS)])]))
    assert all(partition[1] == 0 for partition in produced.topics[0][1])
    before = broker.rss_mib()
    refusal = None
    complete = 0  # groups that read and committed all of it
    for group in range(MAX_GROUPS):
        ids = []
        for _ in range(CONSUMERS_PER_GROUP):
            status, consumer = call(broker, "POST", "/v1/playground/consumers",
                                    {"group": f"crashed-{group}", "topic": TOPIC,
                                     "session_timeout_ms": 6000})
            if status == 503:
                refusal = consumer
                break
            assert status == 201, consumer
            ids.append(consumer["id"])
        if refusal is not None:
            break

        def committed_all():
            _, described = call(broker, "GET", f"/v1/groups/crashed-{group}")
            offsets = described.get("offsets", [])
            return len(offsets) == PARTITIONS and all(o["committed"] == 1 for o in offsets)

        # Once the groups' share is full, commits get COORDINATOR_LOAD_IN_PROGRESS.
        if wait_until(committed_all, timeout_s=5):
            complete += 1
        for consumer_id in ids:
            status, _ = call(broker, "DELETE", f"/v1/playground/consumers/{consumer_id}?crash=true")
            assert status == 200
        assert_responsive(broker)
    assert complete >= 2, complete
    assert refusal is not None, "no consumer was refused"
    assert "groups' share of --max-memory" in refusal["error"]["message"], refusal
    _, listed = call(broker, "GET", "/v1/playground")
    assert len(listed["consumers"]) <= 32
    # The groups' share, the responses' share (the group views this test asks for) and an
    # allowance.
    grown = broker.peak_rss_mib() - before
    assert grown < 32 + 64 + 32, f"RSS grew {grown:.0f} MiB"
    assert_within_budget(broker, BUDGET_MIB)
    connection.close()
