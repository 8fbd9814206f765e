#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
#
# Records the request frames that real Kafka clients send, as golden test vectors for the
# codec tests (client_frames.txt). It runs a throwaway broker on 127.0.0.1 that answers just
# enough of the broker's first, non-flexible version ranges (one version per API, ApiVersions
# v0 to v2, Metadata v0, v1 and v4) for a client to
# produce one message and consume it in a group, and writes each distinct (client, API,
# version) request it sees as one line: "<client> <api_key> <api_version> <frame hex>", where
# the frame is everything after the 4-byte size prefix. The answers are hand-built here,
# independently of the C++ codec, so the vectors test the codec against the clients.
#
# Usage: /usr/bin/python3 capture_frames.py > client_frames.txt
# Needs kcat, python3-confluent-kafka, python3-kafka and (optional) kafkajs under
# tests/clients/kafkajs/node_modules. Each client runs with a timeout; loops are bounded.
import os
import socket
import struct
import subprocess
import sys
import threading
import time

SET_P = [(0, 0, 3), (1, 4, 4), (2, 1, 1), (3, 0, 4), (8, 2, 2), (9, 1, 1), (10, 0, 0),
         (11, 0, 2), (12, 0, 1), (13, 0, 1), (14, 0, 1), (15, 0, 0), (16, 0, 0), (18, 0, 2),
         (19, 0, 1), (22, 0, 1)]
MAX_FRAMES_PER_KIND = 2


class Reader:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def take(self, fmt):
        (value,) = struct.unpack_from(fmt, self.data, self.pos)
        self.pos += struct.calcsize(fmt)
        return value

    def string(self):
        n = self.take(">h")
        if n < 0:
            return None
        s = self.data[self.pos:self.pos + n].decode()
        self.pos += n
        return s

    def bytes_(self):
        n = self.take(">i")
        if n < 0:
            return None
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def array(self, read_one):
        n = self.take(">i")
        return None if n < 0 else [read_one() for _ in range(n)]


def s16(v):
    return struct.pack(">h", v)


def s32(v):
    return struct.pack(">i", v)


def s64(v):
    return struct.pack(">q", v)


def string(s):
    if s is None:
        return s16(-1)
    b = s.encode()
    return s16(len(b)) + b


def blob(b):
    return s32(-1) if b is None else s32(len(b)) + b


def array(items, write_one):
    return s32(len(items)) + b"".join(write_one(i) for i in items)


class FakeBroker:
    def __init__(self, client):
        self.client = client
        self.lines = []
        self.seen = {}
        self.logs = {}  # (topic, partition) -> list of stored batches (bytes)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.lock = threading.Lock()
        self.stopped = False
        threading.Thread(target=self.accept_loop, daemon=True).start()

    def accept_loop(self):
        while not self.stopped:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self.serve, args=(conn,), daemon=True).start()

    def serve(self, conn):
        conn.settimeout(30)
        try:
            while True:
                size_bytes = recv_exact(conn, 4)
                if size_bytes is None:
                    return
                frame = recv_exact(conn, struct.unpack(">i", size_bytes)[0])
                if frame is None:
                    return
                answer = self.handle(frame)
                if answer is not None:
                    conn.sendall(s32(len(answer)) + answer)
        except (OSError, struct.error):
            return
        finally:
            conn.close()

    def handle(self, frame):
        r = Reader(frame)
        key, version, correlation = r.take(">h"), r.take(">h"), r.take(">i")
        r.string()  # client id
        with self.lock:
            kind = (key, version)
            if self.seen.get(kind, 0) < MAX_FRAMES_PER_KIND:
                self.seen[kind] = self.seen.get(kind, 0) + 1
                self.lines.append(f"{self.client} {key} {version} {frame.hex()}")
        body = self.answer(key, version, r)
        return None if body is None else s32(correlation) + body

    def answer(self, key, version, r):
        handler = getattr(self, f"api_{key}", None)
        return handler(version, r) if handler else None

    def api_18(self, version, r):  # ApiVersions
        if version >= 3:
            return s16(35) + array([(18, 0, 2)], lambda e: s16(e[0]) + s16(e[1]) + s16(e[2]))
        body = s16(0) + array(SET_P, lambda e: s16(e[0]) + s16(e[1]) + s16(e[2]))
        return body + (s32(0) if version >= 1 else b"")

    def api_3(self, version, r):  # Metadata
        topics = r.array(r.string) or ["capture"]
        out = s32(0) if version >= 3 else b""
        out += array([0], lambda n: s32(n) + string("127.0.0.1") + s32(self.port) +
                      (string(None) if version >= 1 else b""))
        if version >= 2:
            out += string("capture-cluster")
        if version >= 1:
            out += s32(0)
        partition = s16(0) + s32(0) + s32(0) + array([0], s32) + array([0], s32)
        out += array(topics, lambda t: s16(0) + string(t) + (b"\0" if version >= 1 else b"") +
                     array([partition], lambda p: p))
        return out

    def api_0(self, version, r):  # Produce v3
        r.string()
        acks = r.take(">h")
        r.take(">i")

        def partition(topic):
            index = r.take(">i")
            records = r.bytes_() or b""
            with self.lock:
                log = self.logs.setdefault((topic, index), [])
                base = sum(struct.unpack_from(">i", b, 57)[0] for b in log)
                log.append(s64(base) + records[8:])
            return (index, base)

        topics = r.array(lambda: (lambda t: (t, r.array(lambda: partition(t))))(r.string()))
        if acks == 0:
            return None
        return array(topics, lambda t: string(t[0]) + array(
            t[1], lambda p: s32(p[0]) + s16(0) + s64(p[1]) + s64(-1))) + s32(0)

    def api_1(self, version, r):  # Fetch v4
        r.take(">i")
        max_wait_ms = r.take(">i")
        r.take(">i"), r.take(">i"), r.take(">b")

        def partition(topic):
            index, offset, _ = r.take(">i"), r.take(">q"), r.take(">i")
            with self.lock:
                log = list(self.logs.get((topic, index), []))
            end = sum(struct.unpack_from(">i", b, 57)[0] for b in log)
            data = b"".join(b for b in log if struct.unpack_from(">q", b, 0)[0] >= offset)
            return (index, end, data)

        topics = r.array(lambda: (lambda t: (t, r.array(lambda: partition(t))))(r.string()))
        if all(not p[2] for t in topics for p in t[1]):
            time.sleep(min(max_wait_ms, 200) / 1000)
        return s32(0) + array(topics, lambda t: string(t[0]) + array(
            t[1], lambda p: s32(p[0]) + s16(0) + s64(p[1]) + s64(p[1]) + s32(-1) + blob(p[2])))

    def api_2(self, version, r):  # ListOffsets v1
        r.take(">i")
        topics = r.array(lambda: (r.string(), r.array(lambda: (r.take(">i"), r.take(">q")))))
        return array(topics, lambda t: string(t[0]) + array(
            t[1], lambda p: s32(p[0]) + s16(0) + s64(-1) + s64(0)))

    def api_10(self, version, r):  # FindCoordinator v0
        return s16(0) + s32(0) + string("127.0.0.1") + s32(self.port)

    def api_11(self, version, r):  # JoinGroup v0-2
        r.string()
        r.take(">i")
        if version >= 1:
            r.take(">i")
        r.string()
        r.string()
        protocols = r.array(lambda: (r.string(), r.bytes_()))
        out = s32(0) if version >= 2 else b""
        out += s16(0) + s32(1) + string(protocols[0][0]) + string("member-1") + string("member-1")
        return out + array([("member-1", protocols[0][1])], lambda m: string(m[0]) + blob(m[1]))

    def api_14(self, version, r):  # SyncGroup v0-1
        r.string(), r.take(">i"), r.string()
        assignments = r.array(lambda: (r.string(), r.bytes_()))
        mine = next((a for m, a in assignments if m == "member-1"), b"")
        return (s32(0) if version >= 1 else b"") + s16(0) + blob(mine)

    def api_9(self, version, r):  # OffsetFetch v1
        r.string()
        topics = r.array(lambda: (r.string(), r.array(lambda: r.take(">i"))))
        return array(topics, lambda t: string(t[0]) + array(
            t[1], lambda p: s32(p) + s64(-1) + string("") + s16(0)))

    def api_8(self, version, r):  # OffsetCommit v2
        r.string(), r.take(">i"), r.string(), r.take(">q")
        topics = r.array(lambda: (r.string(), r.array(
            lambda: (r.take(">i"), r.take(">q"), r.string())[0])))
        return array(topics, lambda t: string(t[0]) + array(t[1], lambda p: s32(p) + s16(0)))

    def api_12(self, version, r):  # Heartbeat v0-1
        return (s32(0) if version >= 1 else b"") + s16(0)

    def api_13(self, version, r):  # LeaveGroup v0-1
        return (s32(0) if version >= 1 else b"") + s16(0)

    def api_19(self, version, r):  # CreateTopics v0-1
        topics = r.array(lambda: (r.string(), r.take(">i"), r.take(">h"),
                                  r.array(lambda: (r.take(">i"), r.array(lambda: r.take(">i")))),
                                  r.array(lambda: (r.string(), r.string())))[0])
        return array(topics, lambda t: string(t) + s16(0) + (string(None) if version >= 1 else b""))

    def close(self):
        self.stopped = True
        self.sock.close()


def recv_exact(conn, n):
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def run(cmd, stdin=None, timeout=25, env=None):
    try:
        subprocess.run(cmd, input=stdin, timeout=timeout, capture_output=True, env=env)
    except subprocess.TimeoutExpired:
        pass


CONFLUENT = """
import sys, confluent_kafka as ck
b = sys.argv[1]
p = ck.Producer({'bootstrap.servers': b})
p.produce('capture', key=b'key-1', value=b'value-1'); p.flush(10)
c = ck.Consumer({'bootstrap.servers': b, 'group.id': 'capture-group',
                 'auto.offset.reset': 'earliest', 'enable.auto.commit': False})
c.subscribe(['capture'])
for _ in range(40):
    m = c.poll(0.5)
    if m is not None and not m.error():
        c.commit(m, asynchronous=False); break
c.close()
"""

KAFKA_PYTHON = """
import sys, kafka
b = sys.argv[1]
p = kafka.KafkaProducer(bootstrap_servers=b)
p.send('capture', key=b'key-1', value=b'value-1').get(10); p.close()
c = kafka.KafkaConsumer('capture', bootstrap_servers=b, group_id='capture-group',
                        auto_offset_reset='earliest', enable_auto_commit=False,
                        consumer_timeout_ms=8000)
for m in c:
    c.commit(); break
c.close()
"""

KAFKAJS = """
const { Kafka, logLevel } = require('kafkajs');
const kafka = new Kafka({ brokers: [process.argv[process.argv.length - 1]], clientId: 'capture', logLevel: logLevel.NOTHING });
(async () => {
  const admin = kafka.admin(); await admin.connect();
  await admin.createTopics({ topics: [{ topic: 'capture-admin', numPartitions: 1 }] });
  await admin.disconnect();
  const p = kafka.producer(); await p.connect();
  await p.send({ topic: 'capture', messages: [{ key: 'key-1', value: 'value-1' }] });
  await p.disconnect();
  const c = kafka.consumer({ groupId: 'capture-group' }); await c.connect();
  await c.subscribe({ topic: 'capture', fromBeginning: true });
  await new Promise((resolve) => {
    c.run({ eachMessage: async () => { resolve(); } });
    setTimeout(resolve, 8000);
  });
  await c.disconnect(); process.exit(0);
})().catch(() => process.exit(1));
"""


def main():
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
    clients = [
        ("kcat", lambda b: (run(["kcat", "-b", b, "-P", "-t", "capture", "-k", "key-1"],
                                stdin=b"value-1\n"),
                            run(["kcat", "-b", b, "-G", "capture-group", "-c", "1",
                                 "-X", "auto.offset.reset=earliest", "capture"]))),
        ("confluent_kafka", lambda b: run(["/usr/bin/python3", "-c", CONFLUENT, b])),
        ("kafka_python", lambda b: run(["/usr/bin/python3", "-c", KAFKA_PYTHON, b])),
    ]
    kafkajs_dir = os.path.join(root, "tests/clients/kafkajs/node_modules")
    if os.path.isdir(os.path.join(kafkajs_dir, "kafkajs")):
        env = dict(os.environ, NODE_PATH=kafkajs_dir)
        clients.append(("kafkajs", lambda b: run(["node", "-e", KAFKAJS, b], env=env)))
    for name, drive in clients:
        broker = FakeBroker(name)
        drive(f"127.0.0.1:{broker.port}")
        time.sleep(0.5)
        broker.close()
        with broker.lock:
            for line in broker.lines:
                print(line)
        print(f"{name}: {len(broker.lines)} frames", file=sys.stderr)


if __name__ == "__main__":
    main()
