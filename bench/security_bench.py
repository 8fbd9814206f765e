#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Broker CPU per message over each security protocol (issue 30, docs/PERFORMANCE.md).

One kgroupsd with PLAINTEXT, SSL, SASL_PLAINTEXT and SASL_SSL listeners (a throwaway CA from
`kgroups certs`, SCRAM-SHA-256 users, the client a super user); each round produces N
messages with confluent-kafka through every listener in turn (alternating, so drift of the
shared machine hits all alike), then consumes them back; the broker's CPU (utime + stime from
/proc) per million messages is taken for each. Prints the medians and their ratios to
PLAINTEXT measured in the same run; authentication is outside the timed part (the clients
connect and authenticate before the clock starts).

  /usr/bin/python3 bench/security_bench.py --kgroupsd build/release/tools/kgroupsd/kgroupsd \\
      --kgroups build/release/tools/cli/kgroups --messages 200000 --repeat 5
"""
import argparse
import select
import statistics
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from replication_bench import CLOCK_TICKS

PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
VALUE = b"v" * 100


class SecuredKgroupsd:
    def __init__(self, binary, certs, users):
        listeners = ",".join(f"{protocol}://127.0.0.1:0" for protocol in PROTOCOLS)
        self.process = subprocess.Popen(
            [binary, "--listeners", listeners, "--ssl-keystore-location",
             str(certs / "broker.pem"), "--sasl-users", str(users),
             "--super-users", "User:ANONYMOUS;User:bench"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        ready, _, _ = select.select([self.process.stdout], [], [], 10)
        line = self.process.stdout.readline().decode().strip() if ready else ""
        if not line.startswith("kgroupsd listening on "):
            self.stop()
            raise RuntimeError(f"kgroupsd did not start: {line!r}")
        parts = line[len("kgroupsd listening on "):].split(", ")
        self.addresses = {"PLAINTEXT": parts[0]}
        for part in parts[1:]:
            protocol, _, address = part.partition(" on ")
            self.addresses[protocol] = address

    def cpu_seconds(self):
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


def client_config(broker, protocol, certs):
    config = {"bootstrap.servers": broker.addresses[protocol], "security.protocol": protocol}
    if "SSL" in protocol:
        config["ssl.ca.location"] = str(certs / "ca.pem")
    if protocol.startswith("SASL"):
        config.update({"sasl.mechanisms": "SCRAM-SHA-256", "sasl.username": "bench",
                       "sasl.password": "bench-secret"})
    return config


def produce_and_consume(config, topic, messages):
    """Returns the broker-side work's wall time bounds: produce all, then consume all."""
    producer = Producer({**config, "acks": "1", "linger.ms": 5, "batch.num.messages": 1000})
    producer.list_topics(timeout=10)  # connect and authenticate before the clock starts
    consumer = Consumer({**config, "group.id": topic, "enable.auto.commit": False})
    consumer.list_topics(timeout=10)
    yield
    for i in range(messages):
        while True:
            try:
                producer.produce(topic, value=VALUE, partition=0)
                break
            except BufferError:
                producer.poll(0.01)
    if producer.flush(120):
        raise RuntimeError("produce did not finish")
    consumer.assign([TopicPartition(topic, 0, 0)])
    read = 0
    deadline = time.monotonic() + 120
    while read < messages and time.monotonic() < deadline:
        for message in consumer.consume(10000, 1.0):
            if message.error() is None:
                read += 1
    consumer.close()
    if read < messages:
        raise RuntimeError(f"read {read} of {messages}")
    yield


def cpu_per_million(broker, config, messages):
    topic = f"bench-{uuid.uuid4().hex[:8]}"
    admin = AdminClient(config)
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(10)
    steps = produce_and_consume(config, topic, messages)
    next(steps)
    before = broker.cpu_seconds()
    next(steps)
    return (broker.cpu_seconds() - before) * 1_000_000 / messages


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kgroupsd", required=True)
    parser.add_argument("--kgroups", required=True, help="the kgroups CLI (for certificates)")
    parser.add_argument("--messages", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        certs = Path(folder) / "certs"
        subprocess.run([args.kgroups, "certs", str(certs)], check=True, capture_output=True)
        users = Path(folder) / "users.txt"
        users.write_text("bench:bench-secret\n")
        broker = SecuredKgroupsd(args.kgroupsd, certs, users)
        try:
            figures = {protocol: [] for protocol in PROTOCOLS}
            for _ in range(args.repeat):
                for protocol in PROTOCOLS:
                    figures[protocol].append(
                        cpu_per_million(broker, client_config(broker, protocol, certs),
                                        args.messages))
        finally:
            broker.stop()
    baseline = statistics.median(figures["PLAINTEXT"])
    print(f"broker CPU per 1M messages produced and consumed ({args.messages} x {args.repeat}, "
          "medians; ratio to PLAINTEXT in the same run)")
    for protocol in PROTOCOLS:
        median = statistics.median(figures[protocol])
        spread = f"{min(figures[protocol]):.2f}-{max(figures[protocol]):.2f}"
        print(f"  {protocol:15s} {median:6.2f} s (spread {spread})  {median / baseline:5.2f}x")


if __name__ == "__main__":
    main()
