#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""ShareFetch + acknowledge against plain Fetch + OffsetCommit on kgroupsd, in one run
(docs/PERFORMANCE.md, "Share groups: ShareFetch + acknowledge against Fetch").

One kgroupsd, one topic of one partition filled with --records records of --value-bytes
bytes, --batch records per batch (raw Produce v9, acks=1). Then, --repeat times, taking
turns (the first phase alternates between repetitions):

  fetch   Fetch v12 (sessionless, max_bytes 50 MiB, partition_max_bytes --fetch-bytes) from
          offset 0 to the high watermark, each fetch followed by an OffsetCommit v8 of the
          next offset for a fresh group: a consumer-group member's read path.
  share   one member of a fresh share group (joined before the records were produced, so its
          share-partition starts at offset 0) reads every record with ShareFetch v1
          (max_records --share-records, max_bytes --fetch-bytes), accepting each fetch's
          acquired ranges on the next ShareFetch (piggybacked, as share consumers do), until
          all records are acquired and the last ones accepted.

Both phases use the same raw client here: one socket, requests encoded by hand, and the
responses' record bytes skipped unparsed (Fetch: the batch headers are walked for the next
offset; ShareFetch: only the acquired ranges are read), so the broker's work dominates.
For each phase: records/s, kgroupsd's CPU seconds (utime+stime of /proc/<pid>/stat) and the
client's per million records; the median of the repetitions; share/fetch ratios.

    /usr/bin/python3 bench/share_fetch_bench.py            # builds build/release's kgroupsd
    /usr/bin/python3 bench/share_fetch_bench.py --kgroupsd build/dev/tools/kgroupsd/kgroupsd
"""

import argparse
import os
import resource
import select
import socket
import statistics
import struct
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "clients"))
from flexible_wire import TAGS, carray, cstr, uvarint  # noqa: E402
from raw_client import record_batch  # noqa: E402  (kafka-python builds the one batch)

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
TOPIC = "share-bench"
ACCEPT = 1
# The state kgroupsd keeps per in-flight record of a share-partition:
# sizeof(kgroups::share::SharePartition::InFlightRecord) in src/share/share_partition.h
# (int64 lock deadline, uint32 member index, uint16 delivery count, uint8 state, padding).
IN_FLIGHT_RECORD_BYTES = 16


# --- encoding (flexible versions): tests/clients/flexible_wire.py's helpers ----------------

I16, I32, I64 = struct.Struct(">h"), struct.Struct(">i"), struct.Struct(">q")


class Reader:
    """Reads a response body field by field; record bytes are skipped, never copied."""

    def __init__(self, data, pos=0):
        self.data, self.pos = data, pos

    def uvarint(self):
        value, shift = 0, 0
        while True:
            byte = self.data[self.pos]
            self.pos += 1
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                return value
            shift += 7

    def i16(self):
        self.pos += 2
        return I16.unpack_from(self.data, self.pos - 2)[0]

    def i32(self):
        self.pos += 4
        return I32.unpack_from(self.data, self.pos - 4)[0]

    def i64(self):
        self.pos += 8
        return I64.unpack_from(self.data, self.pos - 8)[0]

    def skip_string(self):
        length = self.uvarint() - 1
        self.pos += max(length, 0)

    def span(self):
        """A compact bytes field: (start, length) within data, skipped."""
        length = self.uvarint() - 1
        start = self.pos
        self.pos += max(length, 0)
        return start, length

    def tags(self):
        for _ in range(self.uvarint()):
            self.uvarint()
            size = self.uvarint()
            self.pos += size


class Connection:
    """One socket; responses are read into one reused buffer."""

    def __init__(self, bootstrap):
        host, port = bootstrap.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=30)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.correlation = 0
        self.buffer = bytearray(1 << 20)

    def request(self, api_key, version, body):
        """Sends a flexible request; returns a Reader at the response body."""
        self.correlation += 1
        header = struct.pack(">hhih", api_key, version, self.correlation, 5) + b"bench" + TAGS
        self.sock.sendall(I32.pack(len(header) + len(body)) + header + body)
        size = I32.unpack(self._read(4, 0))[0]
        if size > len(self.buffer):
            self.buffer = bytearray(size)
        frame = self._read(size, 0)
        assert I32.unpack_from(frame, 0)[0] == self.correlation
        return Reader(frame, 5)  # correlation id, empty header tags

    def _read(self, count, offset):
        view = memoryview(self.buffer)
        got = offset
        while got < count:
            n = self.sock.recv_into(view[got:count])
            if n == 0:
                raise ConnectionError("kgroupsd closed the connection")
            got += n
        return view[:count]


# --- requests -----------------------------------------------------------------------------

def create_topic(conn):
    """CreateTopics v7, one partition; returns the topic id."""
    body = carray([cstr(TOPIC) + I32.pack(1) + I16.pack(1) + carray([]) + carray([]) + TAGS]) \
        + I32.pack(10000) + b"\x00" + TAGS
    r = conn.request(19, 7, body)
    r.i32()
    assert r.uvarint() == 2
    r.skip_string()
    topic_id = bytes(r.data[r.pos:r.pos + 16])
    r.pos += 16
    error = r.i16()
    assert error == 0, f"CreateTopics: error {error}"
    return topic_id


def produce(conn, batch):
    body = cstr(None) + I16.pack(1) + I32.pack(10000) + carray([
        cstr(TOPIC) + carray([I32.pack(0) + uvarint(len(batch) + 1) + batch + TAGS]) + TAGS]) \
        + TAGS
    r = conn.request(0, 9, body)
    assert r.uvarint() == 2
    r.skip_string()
    assert r.uvarint() == 2
    r.i32()
    error = r.i16()
    assert error == 0, f"Produce: error {error}"


def share_heartbeat(conn, group, member):
    body = cstr(group) + cstr(member) + I32.pack(0) + cstr(None) + carray([cstr(TOPIC)]) + TAGS
    r = conn.request(76, 1, body)
    r.i32()
    error = r.i16()
    assert error == 0, f"ShareGroupHeartbeat: error {error}"


def fetch(conn, offset, fetch_bytes):
    """Fetch v12, sessionless: (records read, next offset)."""
    body = (I32.pack(-1) + I32.pack(0) + I32.pack(1) + I32.pack(50 << 20) + b"\x00"
            + I32.pack(0) + I32.pack(-1)
            + carray([cstr(TOPIC) + carray([I32.pack(0) + I32.pack(-1) + I64.pack(offset)
                                            + I32.pack(-1) + I64.pack(-1) + I32.pack(fetch_bytes)
                                            + TAGS]) + TAGS])
            + carray([]) + cstr("") + TAGS)
    r = conn.request(1, 12, body)
    r.i32()
    error = r.i16()
    assert error == 0, f"Fetch: error {error}"
    r.i32()
    assert r.uvarint() == 2
    r.skip_string()
    assert r.uvarint() == 2
    r.i32()
    error = r.i16()
    assert error == 0, f"Fetch: partition error {error}"
    r.i64(), r.i64(), r.i64()
    for _ in range(max(r.uvarint() - 1, 0)):  # aborted transactions
        r.i64(), r.i64(), r.tags()
    r.i32()
    start, length = r.span()
    # Walk the batch headers: base offset (8), length (4), ..., last offset delta at 23.
    next_offset, pos, end = offset, start, start + length
    data = r.data
    while pos + 27 <= end:
        base = I64.unpack_from(data, pos)[0]
        batch_length = I32.unpack_from(data, pos + 8)[0]
        if pos + 12 + batch_length > end:
            break  # a partial batch at the end
        next_offset = base + I32.unpack_from(data, pos + 23)[0] + 1
        pos += 12 + batch_length
    return next_offset - offset, next_offset


def offset_commit(conn, group, offset):
    """OffsetCommit v8, a standalone commit (generation -1, no member)."""
    body = (cstr(group) + I32.pack(-1) + cstr("") + cstr(None)
            + carray([cstr(TOPIC) + carray([I32.pack(0) + I64.pack(offset) + I32.pack(-1)
                                            + cstr(None) + TAGS]) + TAGS]) + TAGS)
    r = conn.request(8, 8, body)
    r.i32()
    assert r.uvarint() == 2
    r.skip_string()
    assert r.uvarint() == 2
    r.i32()
    error = r.i16()
    assert error == 0, f"OffsetCommit: error {error}"


def share_fetch(conn, group, member, epoch, topic_id, acks, max_records, max_bytes):
    """ShareFetch v1 on partition 0 accepting `acks` ([(first, last)]): returns the acquired
    ranges [(first, last)]."""
    batches = [I64.pack(first) + I64.pack(last) + b"\x02\x01" + TAGS for first, last in acks]
    body = (cstr(group) + cstr(member) + I32.pack(epoch) + I32.pack(0) + I32.pack(1)
            + I32.pack(max_bytes) + I32.pack(max_records) + I32.pack(max_records)
            + carray([topic_id + carray([I32.pack(0) + carray(batches) + TAGS]) + TAGS])
            + carray([]) + TAGS)
    r = conn.request(78, 1, body)
    r.i32()
    error = r.i16()
    assert error == 0, f"ShareFetch: error {error}"
    r.skip_string()
    r.i32()
    acquired = []
    for _ in range(r.uvarint() - 1):
        r.pos += 16
        for _ in range(r.uvarint() - 1):
            r.i32()
            error, _, ack_error = r.i16(), r.skip_string(), r.i16()
            assert error == 0 and ack_error == 0, f"ShareFetch: errors {error}, {ack_error}"
            r.skip_string()
            r.i32(), r.i32(), r.tags()
            r.span()
            for _ in range(r.uvarint() - 1):
                first, last = r.i64(), r.i64()
                r.i16(), r.tags()
                acquired.append((first, last))
            r.tags()
        r.tags()
    return acquired


# --- phases -------------------------------------------------------------------------------

class Kgroupsd:
    def __init__(self, binary, *args):
        self.process = subprocess.Popen([binary, "--listen", "127.0.0.1:0", *args],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        ready, _, _ = select.select([self.process.stdout], [], [], 10)
        line = self.process.stdout.readline().decode().strip() if ready else ""
        if not line.startswith("kgroupsd listening on "):
            self.stop()
            raise RuntimeError(f"kgroupsd did not start: {line!r}")
        self.bootstrap = line[len("kgroupsd listening on "):].split(",")[0]

    def cpu_seconds(self):
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


def client_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(broker, work):
    """Runs work() -> records; returns (records, wall s, broker CPU s, client CPU s)."""
    broker_before, client_before = broker.cpu_seconds(), client_cpu_seconds()
    start = time.perf_counter()
    records = work()
    wall = time.perf_counter() - start
    return (records, wall, broker.cpu_seconds() - broker_before,
            client_cpu_seconds() - client_before)


def fetch_phase(conn, group, total, fetch_bytes):
    offset = 0
    while offset < total:
        _, offset = fetch(conn, offset, fetch_bytes)
        offset_commit(conn, group, offset)
    return offset


def share_phase(conn, group, member, topic_id, total, max_records, max_bytes):
    epoch, acks, accepted = 0, [], 0
    while accepted < total:
        acquired = share_fetch(conn, group, member, epoch, topic_id, acks, max_records, max_bytes)
        accepted += sum(last - first + 1 for first, last in acks)
        epoch += 1
        acks = acquired
    return accepted


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kgroupsd", help="the kgroupsd to measure (default: build/release's, "
                        "built first with the release preset)")
    parser.add_argument("--records", type=int, default=500_000)
    parser.add_argument("--value-bytes", type=int, default=100)
    parser.add_argument("--batch", type=int, default=250, help="records per produced batch")
    parser.add_argument("--fetch-bytes", type=int, default=1 << 20,
                        help="Fetch's partition_max_bytes and ShareFetch's max_bytes "
                        "(1 MiB: max.partition.fetch.bytes' default)")
    parser.add_argument("--share-records", type=int, default=2000,
                        help="ShareFetch's max_records (default 2000: the share-partition's "
                        "record locks, group.share.partition.max.record.locks' default)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    binary = args.kgroupsd
    if binary is None:
        build = ROOT / "build" / "release"
        if not (build / "CMakeCache.txt").exists():
            subprocess.run(["cmake", "--preset", "release"], cwd=ROOT, check=True,
                           stdout=subprocess.DEVNULL)
        subprocess.run(["nice", "cmake", "--build", str(build), "-j2", "--target", "kgroupsd"],
                       cwd=ROOT, check=True)
        binary = str(build / "tools" / "kgroupsd" / "kgroupsd")
    parents = Path(binary).resolve().parents
    cache = parents[2] / "CMakeCache.txt" if len(parents) > 2 else Path("/nonexistent")
    build_type = next((line.split("=", 1)[1] for line in
                       (cache.read_text().splitlines() if cache.exists() else [])
                       if line.startswith("CMAKE_BUILD_TYPE:")), "unknown")

    # The share members stay idle between their turns: a long session keeps them.
    broker = Kgroupsd(binary, "--group-share-session-timeout-ms", "1800000")
    try:
        admin = Connection(broker.bootstrap)
        topic_id = create_topic(admin)
        members = []
        for rep in range(args.repeat):
            group, member = f"bench-share-{rep}", f"member-{rep}"
            share_heartbeat(admin, group, member)  # its share-partition starts at offset 0
            members.append((group, member))
        batch = record_batch([(None, b"v" * args.value_bytes)] * args.batch)
        batches = -(-args.records // args.batch)
        total = batches * args.batch
        for _ in range(batches):
            produce(admin, batch)
        print(f"share_fetch_bench: kgroupsd {binary} ({build_type}); {total} records of "
              f"{args.value_bytes} B in batches of {args.batch} ({len(batch)} B each); "
              f"repeat {args.repeat}; load average {os.getloadavg()[0]:.2f} "
              f"{os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}", flush=True)

        results = {"fetch": [], "share": []}
        for rep in range(args.repeat):
            order = ["fetch", "share"] if rep % 2 == 0 else ["share", "fetch"]
            for phase in order:
                conn = Connection(broker.bootstrap)
                if phase == "fetch":
                    run = timed(broker, lambda: fetch_phase(conn, f"bench-group-{rep}", total,
                                                            args.fetch_bytes))
                else:
                    group, member = members[rep]
                    run = timed(broker, lambda: share_phase(conn, group, member, topic_id, total,
                                                            args.share_records,
                                                            args.fetch_bytes))
                conn.sock.close()
                assert run[0] == total, f"{phase}: {run[0]} records of {total}"
                results[phase].append(run)
                print(f"  rep {rep + 1} {phase:5}: {total / run[1]:10,.0f} records/s, kgroupsd "
                      f"{run[2] / total * 1e6:6.2f} CPU s/M records, client "
                      f"{run[3] / total * 1e6:6.2f} CPU s/M records", flush=True)

        def median(phase, index):
            return statistics.median(run[index] for run in results[phase])

        summary = {}
        for phase in ("fetch", "share"):
            summary[phase] = (total / median(phase, 1), median(phase, 2) / total * 1e6,
                              median(phase, 3) / total * 1e6)
        print(f"\nmedian of {args.repeat}      records/s   kgroupsd CPU s/M   client CPU s/M")
        for phase, label in (("fetch", "Fetch+OffsetCommit"), ("share", "ShareFetch+ack")):
            rate, broker_cpu, client_cpu = summary[phase]
            print(f"{label:20} {rate:12,.0f} {broker_cpu:17.2f} {client_cpu:16.2f}")
        ratio = summary["share"][0] / summary["fetch"][0]
        cpu_ratio = summary["share"][1] / max(summary["fetch"][1], 1e-9)
        print(f"share/fetch: throughput {ratio:.2f}x, kgroupsd CPU per record {cpu_ratio:.2f}x")
        print(f"state per in-flight record: {IN_FLIGHT_RECORD_BYTES} B "
              f"(at most {args.share_records} in flight per share-partition here)")
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"target (share >= 0.5x fetch): {'PASS' if ratio >= 0.5 else 'MISS'}")
    finally:
        broker.stop()


if __name__ == "__main__":
    main()
