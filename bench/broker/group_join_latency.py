#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: how long a new 2-member confluent-kafka (librdkafka) group takes from subscribe()
to each member's first assignment, and how many assignments each member sees before the group
settles, against one kgroupsd per initial rebalance delay given.

Usage: bench/broker/group_join_latency.py [--runs N] [--delays 0,10,...] [--gap-ms G]
  $KGROUPSD picks the binary (default build/broker/tools/kgroupsd/kgroupsd).
The two members connect and fetch metadata before the clock starts; the second subscribes
G ms after the first (default 0). Each run is a new group. Prints, per delay, the median and
the maximum over the runs of "every member assigned" and the runs in which a member saw more
than one assignment (a second rebalance). Runs on loopback only.
"""
import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests/clients"))
from confluent_kafka import Consumer, Producer  # noqa: E402
from kgroupsd_process import Kgroupsd  # noqa: E402

TOPIC = "join-latency"
PARTITIONS = 6


def member(bootstrap, group):
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group,
                         "enable.auto.commit": False, "auto.offset.reset": "earliest"})
    consumer.list_topics(TOPIC, timeout=10)  # connected, metadata known
    return consumer


def one_run(bootstrap, group, gap_ms, timeout_s=15):
    members = [member(bootstrap, group), member(bootstrap, group)]
    assignments = [[] for _ in members]
    start = threading.Event()
    stop = threading.Event()

    def poll(index, consumer):
        def on_assign(_, partitions):
            assignments[index].append((time.monotonic(), len(partitions)))

        start.wait()
        if index == 1 and gap_ms:
            time.sleep(gap_ms / 1000)
        consumer.subscribe([TOPIC], on_assign=on_assign)
        while not stop.is_set():
            consumer.poll(0.005)

    threads = [threading.Thread(target=poll, args=(i, c)) for i, c in enumerate(members)]
    for thread in threads:
        thread.start()
    began = time.monotonic()
    start.set()
    deadline = began + timeout_s
    settled = None
    while time.monotonic() < deadline:
        latest = [a[-1][1] if a else 0 for a in assignments]
        if all(latest) and sum(latest) == PARTITIONS:
            settled = max(a[-1][0] for a in assignments)
            break
        time.sleep(0.002)
    time.sleep(0.3)  # a late second rebalance would show up as a second assignment
    stop.set()
    for thread in threads:
        thread.join()
    for consumer in members:
        consumer.close()
    if settled is None:
        return None, True
    return (settled - began) * 1000, any(len(a) > 1 for a in assignments)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--delays", default="0,10")
    parser.add_argument("--gap-ms", type=float, default=0)
    args = parser.parse_args()
    for delay in [int(d) for d in args.delays.split(",")]:
        with tempfile.TemporaryDirectory() as logs:
            broker = Kgroupsd(os.path.join(logs, "kgroupsd.log"), "--topic",
                              f"{TOPIC}:{PARTITIONS}", "--initial-rebalance-delay-ms", str(delay))
            try:
                Producer({"bootstrap.servers": broker.bootstrap}).flush(5)
                results = [one_run(broker.bootstrap, f"join-{delay}-{i}", args.gap_ms)
                           for i in range(args.runs)]
            finally:
                broker.stop()
        times = [t for t, _ in results if t is not None]
        second = sum(1 for _, twice in results if twice)
        unsettled = sum(1 for t, _ in results if t is None)
        print(f"initial rebalance delay {delay:4d} ms, gap {args.gap_ms:g} ms: every member "
              f"assigned after median {statistics.median(times) if times else float('nan'):7.1f}"
              f" ms, max {max(times) if times else float('nan'):7.1f} ms; runs with a second "
              f"rebalance {second}/{len(results)}, unsettled after 15 s {unsettled}")


if __name__ == "__main__":
    main()
