# SPDX-License-Identifier: Apache-2.0
"""Helpers for tests of a kgroupsd cluster (--brokers N): the control endpoint's broker faults
(stop, start, isolate, replication delay), each partition's leader and ISR as /v1/topics shows
them, the events kept (/v1/events/log), and every record of a topic read back."""
import json
import time
import urllib.error
import urllib.request

from confluent_kafka import Consumer, KafkaError, TopicPartition


def http(broker, method, path, body=None):
    """Calls the broker's control endpoint; returns (status, parsed JSON body)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://{broker.http}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def broker_action(broker, node, action, body=None):
    status, answer = http(broker, "POST", f"/v1/brokers/{node}/{action}", body)
    assert status == 200, answer
    return answer


def partitions(broker, topic):
    status, answer = http(broker, "GET", f"/v1/topics/{topic}")
    assert status == 200, answer
    return answer["partitions"]


def leader_of(broker, topic, partition=0):
    return partitions(broker, topic)[partition]["leader"]


def wait_until(condition, timeout_s=10, what="the condition"):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def events(broker, event_type):
    status, answer = http(broker, "GET", "/v1/events/log")
    assert status == 200, answer
    return [event for event in answer if event["type"] == event_type]


def read_partitions(bootstrap, topic, partition_count, group_id):
    """Every record of `topic` below each partition's high watermark, read with confluent-kafka
    from offset 0: {partition: [(offset, value bytes)]}, in offset order."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group_id,
                         "enable.auto.commit": False, "enable.partition.eof": True})
    consumer.assign([TopicPartition(topic, p, 0) for p in range(partition_count)])
    found = {p: [] for p in range(partition_count)}
    at_end = set()
    deadline = time.monotonic() + 30
    while len(at_end) < partition_count and time.monotonic() < deadline:
        message = consumer.poll(0.5)
        if message is None:
            continue
        if message.error():
            if message.error().code() == KafkaError._PARTITION_EOF:
                at_end.add(message.partition())
            continue
        found[message.partition()].append((message.offset(), message.value()))
    consumer.close()
    assert len(at_end) == partition_count, "the reader did not reach every partition's end"
    return found
