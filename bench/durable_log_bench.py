#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Durable logs against the in-memory broker (issue 31, docs/PERFORMANCE.md, docs/STORAGE.md).

Each round starts three brokers side by side: in memory, `--log-dirs` with the default flush
policy (the OS flushes), and `--log-dirs --log-flush-interval-messages 1` (an fdatasync per
batch). Through each in turn it produces N messages with confluent-kafka (acks=all), then
consumes them back (the page cache warm); it takes the wall time and the broker's CPU
(utime + stime from /proc) of each phase. Rounds alternate the brokers, so the drift of a
shared machine hits all alike; the medians and their ratios to the in-memory broker are
measured in the same run.

Then group commit: producers flushing every message (--log-flush-interval-messages 1), one
alone and --producers at once into one partition, against the in-memory broker with as many.

Then recovery: a log of --recovery-mib MiB is written to a log directory and the broker is
stopped cleanly, restarted, and its "log directory: ... recovered in N ms" line read; then
the same after kill -9 with every record flushed and checkpointed but an unflushed tail of
--tail-mib MiB, and with everything unflushed (no recovery point at all).

  /usr/bin/python3 bench/durable_log_bench.py --kgroupsd build/install/tools/kgroupsd/kgroupsd \\
      --messages 500000 --repeat 5 --recovery-mib 1024
"""
import argparse
import os
import re
import select
import shutil
import signal
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.request
import uuid
from pathlib import Path

from confluent_kafka import Consumer, Producer, TopicPartition

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
VALUE = b"v" * 100
ONE_MESSAGE_PER_REQUEST = {"linger.ms": 0, "batch.num.messages": 1,
                           "max.in.flight.requests.per.connection": 1}
RECOVERED = re.compile(r"log directory: .* recovered in (\d+) ms \((.*) checked")


class Kgroupsd:
    def __init__(self, binary, args):
        self.binary = binary
        self.args = args
        self.stderr = tempfile.TemporaryFile()
        started = time.monotonic()
        self.process = subprocess.Popen([binary, "--listen", "127.0.0.1:0", "--http",
                                         "127.0.0.1:0", *args],
                                        stdout=subprocess.PIPE, stderr=self.stderr)
        ready, _, _ = select.select([self.process.stdout], [], [], 600)
        line = self.process.stdout.readline().decode().strip() if ready else ""
        self.start_seconds = time.monotonic() - started
        if not line.startswith("kgroupsd listening on "):
            self.kill()
            raise RuntimeError(f"kgroupsd did not start: {line!r}")
        self.address = line[len("kgroupsd listening on "):].split(",")[0]
        self.http = line.rsplit("http on ", 1)[1]

    def metric(self, name):
        """The value of an unlabelled sample of GET /metrics (0 if absent)."""
        with urllib.request.urlopen(f"http://{self.http}/metrics", timeout=10) as answer:
            for line in answer.read().decode().splitlines():
                if line.startswith(name + " "):
                    return float(line.split()[1])
        return 0.0

    def cpu_seconds(self):
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def log(self):
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace")

    def recovered(self):
        """(milliseconds, bytes checked text) of the recovery line."""
        match = RECOVERED.search(self.log())
        return (int(match.group(1)), match.group(2)) if match else (None, None)

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(120)

    def kill(self):
        self.process.kill()
        self.process.wait(60)


def produce(address, topic, messages, value=VALUE, **config):
    producer = Producer({"bootstrap.servers": address, "acks": "all", "linger.ms": 5,
                         "batch.num.messages": 1000, "queue.buffering.max.messages": 1000000,
                         **config})
    producer.list_topics(timeout=10)
    for _ in range(messages):
        while True:
            try:
                producer.produce(topic, value)
                break
            except BufferError:
                producer.poll(0.01)
        producer.poll(0)
    remaining = producer.flush(120)
    if remaining:
        raise RuntimeError(f"{remaining} messages not acknowledged")


def consume(address, topic, messages):
    consumer = Consumer({"bootstrap.servers": address, "group.id": str(uuid.uuid4()),
                         "enable.auto.commit": False, "fetch.max.bytes": 52428800})
    consumer.assign([TopicPartition(topic, 0, 0)])
    got = 0
    while got < messages:
        for message in consumer.consume(10000, 5):
            if message.error() is None:
                got += 1
    consumer.close()


def timed(broker, work):
    cpu = broker.cpu_seconds()
    started = time.perf_counter()
    work()
    return time.perf_counter() - started, broker.cpu_seconds() - cpu


def throughput(args, scratch):
    kinds = {"memory": [], "disk": [], "disk-flush-each": []}
    brokers = {}
    for kind in kinds:
        extra = ["--default-partitions", "1"]
        if kind != "memory":
            extra += ["--log-dirs", str(scratch / kind)]
        if kind == "disk-flush-each":
            extra += ["--log-flush-interval-messages", "1"]
        brokers[kind] = Kgroupsd(args.kgroupsd, extra)
    results = {kind: {"produce": [], "produce_cpu": [], "consume": [], "consume_cpu": []}
               for kind in kinds}
    try:
        for round_number in range(args.repeat):
            order = list(kinds)[round_number % 3:] + list(kinds)[:round_number % 3]
            for kind in order:
                broker = brokers[kind]
                topic = f"bench-{round_number}"
                messages = args.messages if kind != "disk-flush-each" else args.flush_messages
                wall, cpu = timed(broker, lambda: produce(broker.address, topic, messages))
                results[kind]["produce"].append(messages / wall)
                results[kind]["produce_cpu"].append(cpu / messages * 1e6)
                wall, cpu = timed(broker, lambda: consume(broker.address, topic, messages))
                results[kind]["consume"].append(messages / wall)
                results[kind]["consume_cpu"].append(cpu / messages * 1e6)
    finally:
        for broker in brokers.values():
            broker.stop()
    base = {key: statistics.median(values) for key, values in results["memory"].items()}
    print(f"{'broker':<18} {'produce msg/s':>14} {'ratio':>6} {'CPU us/msg':>11} {'ratio':>6} "
          f"{'consume msg/s':>14} {'ratio':>6} {'CPU us/msg':>11} {'ratio':>6}")
    for kind, values in results.items():
        median = {key: statistics.median(v) for key, v in values.items()}
        print(f"{kind:<18} {median['produce']:>14,.0f} {median['produce'] / base['produce']:>6.2f} "
              f"{median['produce_cpu']:>11.2f} {median['produce_cpu'] / base['produce_cpu']:>6.2f} "
              f"{median['consume']:>14,.0f} {median['consume'] / base['consume']:>6.2f} "
              f"{median['consume_cpu']:>11.2f} {median['consume_cpu'] / base['consume_cpu']:>6.2f}")


def group_commit(args, scratch):
    """Producers flushing every message, one alone and several at once into one partition:
    with group commit the producers of a turn share the flush, so the throughput of several
    grows with their number instead of staying that of one."""
    brokers = {"memory": Kgroupsd(args.kgroupsd, ["--default-partitions", "1"]),
               "disk-flush-each": Kgroupsd(args.kgroupsd, [
                   "--default-partitions", "1", "--log-dirs", str(scratch / "group-commit"),
                   "--log-flush-interval-messages", "1"])}
    results = {(kind, count): [] for kind in brokers for count in (1, args.producers)}
    shared = {count: [] for count in (1, args.producers)}  # Produce requests per flush round
    per_producer = args.flush_messages // args.producers
    try:
        for round_number in range(args.repeat):
            for (kind, count), rates in results.items():
                broker = brokers[kind]
                topic = f"group-{round_number}-{count}"
                # Each message its own request, one request in flight per producer: every
                # acknowledgement waits for a flush.
                threads = [threading.Thread(target=produce, args=(broker.address, topic,
                                                                  per_producer),
                                            kwargs=ONE_MESSAGE_PER_REQUEST)
                           for _ in range(count)]
                flushes = (broker.metric("kgroupsd_log_group_flushes_total"),
                           broker.metric("kgroupsd_log_group_flush_waits_total"))
                started = time.perf_counter()
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                rates.append(count * per_producer / (time.perf_counter() - started))
                if kind != "memory":
                    rounds = broker.metric("kgroupsd_log_group_flushes_total") - flushes[0]
                    waits = broker.metric("kgroupsd_log_group_flush_waits_total") - flushes[1]
                    shared[count].append(waits / max(rounds, 1))
    finally:
        for broker in brokers.values():
            broker.stop()
    print(f"\ngroup commit: {per_producer:,} messages per producer, one per request, acks=all "
          f"(median of {args.repeat})")
    print(f"{'broker':<18} {'producers':>9} {'msg/s':>12} {'vs memory':>10} "
          f"{'vs 1 producer':>14} {'requests per flush':>19}")
    for kind in brokers:
        alone = statistics.median(results[(kind, 1)])
        for count in (1, args.producers):
            rate = statistics.median(results[(kind, count)])
            memory = statistics.median(results[("memory", count)])
            per_flush = f"{statistics.median(shared[count]):.2f}" if kind != "memory" else ""
            print(f"{kind:<18} {count:>9} {rate:>12,.0f} {rate / memory:>10.2f} "
                  f"{rate / alone:>14.2f} {per_flush:>19}")


def recovery(args, scratch):
    value = b"r" * 65536
    total = args.recovery_mib * 16
    tail = args.tail_mib * 16
    print(f"\nrecovery of a {args.recovery_mib} MiB log "
          f"(median of {args.repeat}; start-up time of an empty log directory for comparison)")
    empty = []
    clean = []
    killed_tail = []
    killed_all = []
    for _ in range(args.repeat):
        folder = scratch / "empty"
        shutil.rmtree(folder, ignore_errors=True)
        broker = Kgroupsd(args.kgroupsd, ["--log-dirs", str(folder)])
        empty.append(broker.start_seconds * 1000)
        broker.stop()
    folder = scratch / "recovery"
    shutil.rmtree(folder, ignore_errors=True)
    broker = Kgroupsd(args.kgroupsd, ["--log-dirs", str(folder), "--default-partitions", "1",
                                      "--log-flush-interval-ms", "100",
                                      "--log-flush-offset-checkpoint-interval-ms", "100"])
    produce(broker.address, "big", total, value)
    broker.stop()
    for _ in range(args.repeat):
        broker = Kgroupsd(args.kgroupsd, ["--log-dirs", str(folder)])
        clean.append((broker.start_seconds * 1000, *broker.recovered()))
        broker.stop()
    # Flushed and checkpointed, then an unflushed tail, then kill -9.
    for _ in range(args.repeat):
        broker = Kgroupsd(args.kgroupsd, ["--log-dirs", str(folder),
                                          "--log-flush-interval-ms", "100",
                                          "--log-flush-offset-checkpoint-interval-ms", "100"])
        time.sleep(0.5)  # the restart's recovery points are checkpointed
        broker.args = []
        producer_broker = broker
        produce(producer_broker.address, "big", tail, value)
        broker.kill()
        broker = Kgroupsd(args.kgroupsd, ["--log-dirs", str(folder)])
        killed_tail.append((broker.start_seconds * 1000, *broker.recovered()))
        broker.stop()
    # No recovery point at all: every segment beyond it is checked.
    for _ in range(args.repeat):
        (folder / "recovery-point-offset-checkpoint").unlink(missing_ok=True)
        broker = Kgroupsd(args.kgroupsd, ["--log-dirs", str(folder)])
        killed_all.append((broker.start_seconds * 1000, *broker.recovered()))
        broker.stop()
    size = sum(f.stat().st_size for f in folder.rglob("*.log")) / 2**20
    print(f"log on disk at the end: {size:,.0f} MiB")
    print(f"{'start':<46} {'start-up ms':>12} {'recovery ms':>12}  checked")
    print(f"{'empty log directory':<46} {statistics.median(empty):>12.0f}")
    for label, runs in ((f"after a clean stop", clean),
                        (f"after kill -9, {args.tail_mib} MiB unflushed", killed_tail),
                        ("after kill -9, no recovery point", killed_all)):
        start = statistics.median(r[0] for r in runs)
        recovered = statistics.median(r[1] for r in runs if r[1] is not None)
        print(f"{label:<46} {start:>12.0f} {recovered:>12.0f}  {runs[-1][2]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kgroupsd", default="build/install/tools/kgroupsd/kgroupsd")
    parser.add_argument("--messages", type=int, default=300000)
    parser.add_argument("--flush-messages", type=int, default=20000,
                        help="messages through the broker flushing every batch")
    parser.add_argument("--producers", type=int, default=8,
                        help="concurrent producers of the group-commit phase")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--recovery-mib", type=int, default=256)
    parser.add_argument("--tail-mib", type=int, default=16)
    parser.add_argument("--phases", default="throughput,group-commit,recovery",
                        help="which phases to run, comma-separated")
    parser.add_argument("--scratch", default=None, help="where the log directories go")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.scratch) as scratch:
        phases = {"throughput": throughput, "group-commit": group_commit, "recovery": recovery}
        for phase in args.phases.split(","):
            phases[phase](args, Path(scratch))


if __name__ == "__main__":
    main()
