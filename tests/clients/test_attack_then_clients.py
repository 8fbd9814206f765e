# SPDX-License-Identifier: Apache-2.0
"""The four real clients still work on a broker that has just been attacked: one kgroupsd with
a small memory budget takes a round of the attacks of the other test_attack_* files
(amplification, a produce flood past its budget, bogus and malicious record batches,
connections that never finish a frame or never read, a client id of 32,767 bytes), then kcat,
confluent-kafka, kafka-python and kafkajs each produce and consume through it."""
import json
import os
import subprocess
import time
from pathlib import Path

from confluent_kafka import Consumer, Producer
from kafka import KafkaConsumer, KafkaProducer
from kafka.protocol.admin import DescribeGroupsRequest
from kafka.protocol.fetch import FetchRequest
from kafka.protocol.metadata import MetadataRequest
from kafka.protocol.offset import OffsetRequest
from kafka.protocol.produce import ProduceRequest

from attack_checks import assert_responsive, assert_within_budget, send_with_client_id
from raw_client import RawConnection, record_batch
from test_attack_groups import join_request

BUDGET_MIB = 192
KAFKAJS = Path(__file__).resolve().parent / "kafkajs"
TIMEOUT_S = 30


def attack(broker):
    connection = RawConnection(broker.bootstrap, timeout_s=30)
    connection.request(MetadataRequest[4](topics=["big"] * 250, allow_auto_topic_creation=False))
    connection.request(DescribeGroupsRequest[0](groups=["nobody"] * 10000))
    send_with_client_id(connection, join_request("attacked"), b"c" * 32767)
    connection.receive()
    batch = record_batch([(b"k", bytes(1000 * 1000))])
    for _ in range(60):  # 240 MB into a 192 MiB budget
        connection.request(ProduceRequest[3](
            transactional_id=None, required_acks=1, timeout=1000,
            topics=[("flood", [(p, batch) for p in range(4)])]))
    stalled = []
    for _ in range(8):  # half a frame each, then silence
        partial = RawConnection(broker.bootstrap)
        partial.sock.sendall((8 << 20).to_bytes(4, "big") + bytes(1 << 20))
        stalled.append(partial)
    start = connection.request(OffsetRequest[1](replica_id=-1, topics=[("flood", [(1, -2)])]))
    log_start = start.topics[0][1][0][3]
    never_reading = RawConnection(broker.bootstrap)
    for _ in range(50):  # each answer is a few MB that the client never reads
        never_reading.send(FetchRequest[4](
            replica_id=-1, max_wait_time=0, min_bytes=0, max_bytes=8 << 20, isolation_level=0,
            topics=[("flood", [(1, log_start, 8 << 20)])]))
    connection.close()
    return stalled + [never_reading]


def kcat_round_trip(bootstrap):
    produced = subprocess.run(["kcat", "-b", bootstrap, "-t", "after-kcat", "-P", "-K:"],
                              input=b"a:1\nb:2\n", timeout=TIMEOUT_S, check=True)
    assert produced.returncode == 0
    consumed = subprocess.run(["kcat", "-b", bootstrap, "-t", "after-kcat", "-C", "-e",
                               "-f", "%k=%s\\n"], capture_output=True, timeout=TIMEOUT_S,
                              check=True)
    assert sorted(consumed.stdout.decode().split()) == ["a=1", "b=2"]


def confluent_round_trip(bootstrap):
    producer = Producer({"bootstrap.servers": bootstrap})
    for i in range(5):
        producer.produce("after-confluent", key=f"k{i}", value=f"v{i}")
    assert producer.flush(TIMEOUT_S) == 0
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "after-confluent",
                         "auto.offset.reset": "earliest"})
    consumer.subscribe(["after-confluent"])
    values = []
    deadline = time.monotonic() + TIMEOUT_S
    while len(values) < 5 and time.monotonic() < deadline:
        message = consumer.poll(0.5)
        if message is not None and message.error() is None:
            values.append(message.value().decode())
    consumer.close()
    assert sorted(values) == [f"v{i}" for i in range(5)]


def kafka_python_round_trip(bootstrap):
    producer = KafkaProducer(bootstrap_servers=bootstrap)
    for i in range(5):
        producer.send("after-kafka-python", key=b"k", value=f"v{i}".encode())
    producer.flush(TIMEOUT_S)
    producer.close()
    consumer = KafkaConsumer("after-kafka-python", bootstrap_servers=bootstrap,
                             group_id="after-kafka-python", auto_offset_reset="earliest")
    values = []
    deadline = time.monotonic() + TIMEOUT_S
    while len(values) < 5 and time.monotonic() < deadline:
        for records in consumer.poll(timeout_ms=500).values():
            values.extend(record.value.decode() for record in records)
    consumer.close()
    assert values == [f"v{i}" for i in range(5)]


KAFKAJS_SCRIPT = """
const { Kafka, logLevel } = require('kafkajs');
(async () => {
  const kafka = new Kafka({ brokers: [process.env.BOOTSTRAP], logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({ topic: 'after-kafkajs', messages: [0, 1, 2].map((i) => ({ value: `v${i}` })) });
  await producer.disconnect();
  const consumer = kafka.consumer({ groupId: 'after-kafkajs' });
  await consumer.connect();
  await consumer.subscribe({ topics: ['after-kafkajs'], fromBeginning: true });
  const values = [];
  await new Promise((resolve) => consumer.run({ eachMessage: async ({ message }) => {
    values.push(message.value.toString());
    if (values.length === 3) resolve();
  } }));
  await consumer.disconnect();
  console.log(JSON.stringify(values.sort()));
})().catch((error) => { console.error(error); process.exit(1); });
"""


def kafkajs_round_trip(bootstrap):
    result = subprocess.run(["node", "-e", KAFKAJS_SCRIPT], cwd=KAFKAJS, capture_output=True,
                            timeout=60, env={**os.environ, "BOOTSTRAP": bootstrap})
    assert result.returncode == 0, result.stderr.decode()
    assert json.loads(result.stdout.decode().strip().splitlines()[-1]) == ["v0", "v1", "v2"]


def test_the_four_clients_work_after_the_attacks(start_kgroupsd):
    broker = start_kgroupsd("--max-memory", f"{BUDGET_MIB}MiB", "--max-partitions", "2000",
                            "--max-topics", "200", "--topic", "big:1000", "--topic", "flood:4",
                            "--send-timeout-ms", "2000", "--request-timeout-ms", "2000")
    lingering = attack(broker)
    assert_responsive(broker)
    kcat_round_trip(broker.bootstrap)
    confluent_round_trip(broker.bootstrap)
    kafka_python_round_trip(broker.bootstrap)
    kafkajs_round_trip(broker.bootstrap)
    assert_within_budget(broker, BUDGET_MIB)
    for connection in lingering:
        connection.close()
