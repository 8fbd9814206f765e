#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Transactional produce throughput with librdkafka (confluent-kafka 1.7.0, librdkafka
2.0.2) against kgroupsd and against librdkafka's own mock cluster (the producer config
"test.mock.num.brokers": 1, which implements transactions), in one run, with plain and
idempotent produce against both as the baseline (docs/PERFORMANCE.md, transactions).

Workloads, each on a fresh topic of 4 partitions (the mock cluster's default; message i goes
to partition i % 4), 8-byte keys and 100-byte values (MB/s counts these 108 bytes, in 10^6),
acks=all, linger.ms=5:

  plain          no idempotence: produce everything, then flush
  idempotent     enable.idempotence=true: the same
  txn-N          transactional.id: begin_transaction, N messages, commit_transaction,
                 until all messages are sent (init_transactions is not timed)

Each figure is the median of --repeat runs; the targets take turns within each run, so
changes in machine load affect both alike. Delivery failures fail the run (delivery
reports are requested for errors only, so that Python callbacks do not dominate). kgroupsd's
CPU time (utime+stime from /proc/<pid>/stat) is reported per million messages; the mock
cluster runs on threads of the producer's own process, so it has no figure of its own.

    /usr/bin/python3 bench/txn_produce_bench.py                  # kgroupsd of build/release
    /usr/bin/python3 bench/txn_produce_bench.py --kgroupsd build/broker/tools/kgroupsd/kgroupsd \\
        --messages 100000 --repeat 3 --txn-sizes 100,1000
"""

import argparse
import os
import select
import statistics
import subprocess
import sys
import time
from pathlib import Path

from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

ROOT = Path(__file__).resolve().parents[1]
PARTITIONS = 4
VALUE = b"v" * 100
TIMEOUT_S = 60
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class Kgroupsd:
    """kgroupsd on a free loopback port, stopped with SIGTERM."""

    def __init__(self, binary):
        self.process = subprocess.Popen([binary, "--listen", "127.0.0.1:0"],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        ready, _, _ = select.select([self.process.stdout], [], [], 10)
        line = self.process.stdout.readline().decode() if ready else ""
        if not line.startswith("kgroupsd listening on "):
            self.stop()
            raise RuntimeError(f"kgroupsd did not start: {line!r}")
        self.bootstrap = line.split()[-1]
        self.admin = AdminClient({"bootstrap.servers": self.bootstrap})

    def cpu_s(self):
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime

    def create_topic(self, topic):
        futures = self.admin.create_topics([NewTopic(topic, num_partitions=PARTITIONS,
                                                     replication_factor=1)])
        futures[topic].result(timeout=TIMEOUT_S)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def producer_config(target, workload, run):
    config = {"acks": "all", "linger.ms": 5, "batch.num.messages": 10000,
              "queue.buffering.max.messages": 1000000, "delivery.report.only.error": True,
              "log_level": 4}  # not the mock cluster's notice that it replaced the bootstrap
    if target == "mock":
        config["test.mock.num.brokers"] = 1
    else:
        config["bootstrap.servers"] = target.bootstrap
    if workload == "idempotent":
        config["enable.idempotence"] = True
    elif workload.startswith("txn-"):
        config["transactional.id"] = f"bench-{workload}-{run}"
    return config


def measure(target, workload, keys, run):
    """Sends every key once; returns (seconds, kgroupsd CPU seconds or None)."""
    topic = f"bench-{workload}-{run}"
    failures = []

    def on_delivery(error, _message):
        failures.append(error)

    producer = Producer({**producer_config(target, workload, run), "on_delivery": on_delivery})
    if target != "mock":
        target.create_topic(topic)
    else:
        metadata = producer.list_topics(topic, timeout=TIMEOUT_S)  # auto-created
        assert len(metadata.topics[topic].partitions) == PARTITIONS, metadata.topics[topic]
    transaction_size = int(workload[4:]) if workload.startswith("txn-") else len(keys)
    if workload.startswith("txn-"):
        producer.init_transactions(TIMEOUT_S)
    produce = producer.produce
    cpu_before = None if target == "mock" else target.cpu_s()
    start = time.perf_counter()
    for first in range(0, len(keys), transaction_size):
        if workload.startswith("txn-"):
            producer.begin_transaction()
        for i in range(first, min(first + transaction_size, len(keys))):
            while True:
                try:
                    produce(topic, VALUE, keys[i], i % PARTITIONS)
                    break
                except BufferError:
                    producer.poll(0.001)
        if workload.startswith("txn-"):
            producer.commit_transaction(TIMEOUT_S)
    left = producer.flush(TIMEOUT_S)
    seconds = time.perf_counter() - start
    cpu = None if target == "mock" else target.cpu_s() - cpu_before
    if left or failures:
        raise RuntimeError(f"{workload}: {left} undelivered, failures: {failures[:3]}")
    return seconds, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kgroupsd", default=str(ROOT / "build/release/tools/kgroupsd/kgroupsd"))
    parser.add_argument("--messages", type=int, default=200000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--txn-sizes", default="100,1000",
                        help="messages per transaction, comma-separated (default 100,1000)")
    args = parser.parse_args()
    if not Path(args.kgroupsd).is_file():
        sys.exit(f"txn_produce_bench: no kgroupsd at {args.kgroupsd}; build it or pass --kgroupsd")
    workloads = ["plain", "idempotent"] + [f"txn-{int(n)}" for n in args.txn_sizes.split(",")]
    keys = [b"k%07d" % i for i in range(args.messages)]

    broker = Kgroupsd(args.kgroupsd)
    seconds = {}  # (target name, workload) -> [s]
    cpu = {}
    try:
        for run in range(args.repeat):
            for workload in workloads:
                for name, target in (("mock", "mock"), ("kgroupsd", broker)):
                    elapsed, cpu_s = measure(target, workload, keys, f"{name}-{run}")
                    seconds.setdefault((name, workload), []).append(elapsed)
                    if cpu_s is not None:
                        cpu.setdefault(workload, []).append(cpu_s)
    finally:
        broker.stop()

    rate = {key: args.messages / statistics.median(values) for key, values in seconds.items()}
    print(f"{args.messages:,} messages of 108 bytes, {PARTITIONS} partitions, acks=all, "
          f"median of {args.repeat}; librdkafka 2.0.2 (confluent-kafka)\n")
    print("| workload | mock msgs/s | kgroupsd msgs/s | kgroupsd/mock | kgroupsd MB/s "
          "| kgroupsd CPU s per 1M msgs | transactions/s (kgroupsd) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for workload in workloads:
        mock, ours = rate[("mock", workload)], rate[("kgroupsd", workload)]
        per_million = statistics.median(cpu[workload]) * 1e6 / args.messages
        transactions = (f"{ours / int(workload[4:]):,.0f}" if workload.startswith("txn-")
                        else "")
        print(f"| {workload} | {mock:,.0f} | {ours:,.0f} | {ours / mock:.2f}x "
              f"| {ours * 108 / 1e6:.1f} | {per_million:.3f} | {transactions} |")
    print()
    for name in ("mock", "kgroupsd"):
        plain = rate[(name, "plain")]
        ratios = ", ".join(f"{workload} {rate[(name, workload)] / plain:.2f}x"
                           for workload in workloads[1:])
        print(f"{name}: against plain produce: {ratios}")


if __name__ == "__main__":
    main()
