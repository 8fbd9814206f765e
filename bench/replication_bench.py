#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What replication costs kgroupsd (docs/PERFORMANCE.md, "Issue 28"), in one run:

  cpu       one `kgroupsd --brokers 3`; acks=all idempotent produce of --messages 108-byte
            messages to a topic of replication factor 1 and to one of factor 3
            (min.insync.replicas 2), taking turns --repeat times: the broker's CPU time
            (utime+stime of /proc/<pid>/stat) per million messages, and factor 3 / factor 1.
  memory    a fresh `kgroupsd --brokers 3` per factor: the broker's resident memory after
            the same messages, minus before; factor 3 / factor 1.
  election  a producer (acks=all, factor 3, min ISR 2) writes without pause; the leader of
            partition 0 is stopped (POST /v1/brokers/{id}/stop) and started again, --repeat
            times: the time from the stop to the first acknowledged write of partition 0
            appended after it.
  baseline  with --baseline-kgroupsd (a build from before --brokers): the cpu workload's
            factor-1 topic on one broker, this build against the baseline, taking turns.

    /usr/bin/python3 bench/replication_bench.py --kgroupsd build/release/tools/kgroupsd/kgroupsd
"""

import argparse
import json
import os
import select
import statistics
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

ROOT = Path(__file__).resolve().parents[1]
PARTITIONS = 4
VALUE = b"v" * 100
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


class Kgroupsd:
    """kgroupsd with free loopback ports (and its HTTP endpoint), stopped with SIGTERM."""

    def __init__(self, binary, *args):
        self.process = subprocess.Popen(
            [binary, "--listen", "127.0.0.1:0", "--http", "127.0.0.1:0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        ready, _, _ = select.select([self.process.stdout], [], [], 10)
        line = self.process.stdout.readline().decode().strip() if ready else ""
        if not line.startswith("kgroupsd listening on "):
            self.stop()
            raise RuntimeError(f"kgroupsd did not start: {line!r}")
        self.bootstrap, _, self.http = line[len("kgroupsd listening on "):].partition(", http on ")
        self.admin = AdminClient({"bootstrap.servers": self.bootstrap})

    def create(self, name, replication_factor, config=None):
        topic = NewTopic(name, PARTITIONS, replication_factor, config=config or {})
        self.admin.create_topics([topic])[name].result(10)

    def cpu_seconds(self):
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def rss_bytes(self):
        return int(Path(f"/proc/{self.process.pid}/statm").read_text().split()[1]) * PAGE_BYTES

    def post(self, path):
        request = urllib.request.Request(f"http://{self.http}{path}", data=b"{}", method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def partition(self, topic, partition=0):
        with urllib.request.urlopen(f"http://{self.http}/v1/topics/{topic}", timeout=10) as r:
            return json.loads(r.read())["partitions"][partition]

    def leader(self, topic, partition=0):
        return self.partition(topic, partition)["leader"]

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


def produce(bootstrap, topic, messages):
    failures = []
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True,
                         "linger.ms": 5, "batch.num.messages": 1000})
    for i in range(messages):
        while True:
            try:
                producer.produce(topic, key=b"%08d" % i, value=VALUE, partition=i % PARTITIONS,
                                 on_delivery=lambda e, m: e and failures.append(e))
                break
            except BufferError:
                producer.poll(0.01)
    if producer.flush(120) or failures:
        raise RuntimeError(f"produce to {topic} failed: {failures[:3]}")


def cpu_per_million(broker, topic, messages):
    before = broker.cpu_seconds()
    produce(broker.bootstrap, topic, messages)
    return (broker.cpu_seconds() - before) * 1_000_000 / messages


def bench_cpu(binary, messages, repeat):
    broker = Kgroupsd(binary, "--brokers", "3")
    try:
        figures = {1: [], 3: []}
        for round_ in range(repeat):
            for factor in (1, 3):
                topic = f"cpu-rf{factor}-{round_}"
                broker.create(topic, factor, {"min.insync.replicas": "2"} if factor == 3 else {})
                figures[factor].append(cpu_per_million(broker, topic, messages))
        return figures
    finally:
        broker.stop()


def bench_memory(binary, messages):
    growth = {}
    for factor in (1, 3):
        broker = Kgroupsd(binary, "--brokers", "3")
        try:
            broker.create("memory", factor)
            before = broker.rss_bytes()
            produce(broker.bootstrap, "memory", messages)
            growth[factor] = broker.rss_bytes() - before
        finally:
            broker.stop()
    return growth


def bench_election(binary, repeat):
    broker = Kgroupsd(binary, "--brokers", "3")
    try:
        broker.create("election", 3, {"min.insync.replicas": "2"})
        acknowledged = []  # (monotonic time, offset) of partition 0's writes
        producer = Producer({"bootstrap.servers": broker.bootstrap, "acks": "all",
                             "enable.idempotence": True, "linger.ms": 1,
                             "request.timeout.ms": 5000})
        stop = threading.Event()

        def delivered(error, message):
            if error is None and message.partition() == 0:
                acknowledged.append((time.monotonic(), message.offset()))

        def write():
            while not stop.is_set():
                producer.produce("election", value=VALUE, partition=0, on_delivery=delivered)
                producer.poll(0.001)
            producer.flush(30)

        writer = threading.Thread(target=write)
        writer.start()
        gaps = []
        try:
            for _ in range(repeat):
                time.sleep(0.5)
                leader = broker.leader("election")
                stopped_at = time.monotonic()
                broker.post(f"/v1/brokers/{leader}/stop")
                # The new leader's log end: a write acknowledged at or past it was appended
                # after the election.
                elected_end = broker.partition("election")["log_end_offset"]
                while not [o for _, o in acknowledged[-1000:] if o >= elected_end]:
                    time.sleep(0.001)
                    if time.monotonic() - stopped_at > 30:
                        raise RuntimeError("no write was acknowledged after the election")
                first = min(t for t, o in acknowledged[-5000:] if o >= elected_end)
                gaps.append(first - stopped_at)
                broker.post(f"/v1/brokers/{leader}/start")
        finally:
            stop.set()
            writer.join()
        return gaps
    finally:
        broker.stop()


def bench_baseline(binary, baseline, messages, repeat):
    figures = {"this": [], "baseline": []}
    for round_ in range(repeat):
        for name, path in (("this", binary), ("baseline", baseline)):
            broker = Kgroupsd(path)
            try:
                broker.create("plain", 1)
                figures[name].append(cpu_per_million(broker, "plain", messages))
            finally:
                broker.stop()
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kgroupsd", default=str(ROOT / "build/release/tools/kgroupsd/kgroupsd"))
    parser.add_argument("--baseline-kgroupsd")
    parser.add_argument("--messages", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    cpu = bench_cpu(args.kgroupsd, args.messages, args.repeat)
    rf1, rf3 = statistics.median(cpu[1]), statistics.median(cpu[3])
    print(f"cpu: broker CPU s per 1M acks=all messages, factor 1: "
          f"{', '.join(f'{x:.3f}' for x in cpu[1])} (median {rf1:.3f}); factor 3: "
          f"{', '.join(f'{x:.3f}' for x in cpu[3])} (median {rf3:.3f}); "
          f"factor 3 / factor 1 = {rf3 / rf1:.2f}")
    memory = bench_memory(args.kgroupsd, args.messages)
    print(f"memory: resident growth after {args.messages} messages, factor 1: "
          f"{memory[1] / 2**20:.1f} MiB, factor 3: {memory[3] / 2**20:.1f} MiB; "
          f"factor 3 / factor 1 = {memory[3] / memory[1]:.2f}")
    gaps = bench_election(args.kgroupsd, args.repeat)
    print(f"election: stop of the leader to the first acknowledged write after it: "
          f"{', '.join(f'{g * 1000:.0f} ms' for g in gaps)} (max {max(gaps) * 1000:.0f} ms)")
    if args.baseline_kgroupsd:
        base = bench_baseline(args.kgroupsd, args.baseline_kgroupsd, args.messages, args.repeat)
        this_m, base_m = statistics.median(base["this"]), statistics.median(base["baseline"])
        print(f"baseline: one broker, factor 1, broker CPU s per 1M, this build: "
              f"{', '.join(f'{x:.3f}' for x in base['this'])}; baseline: "
              f"{', '.join(f'{x:.3f}' for x in base['baseline'])}; "
              f"this / baseline = {this_m / base_m:.2f}")


if __name__ == "__main__":
    main()
