#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
#
# Records the request frames node-rdkafka 3.6.1 (librdkafka 2.12.0) sends, as golden test
# vectors for the codec (node_rdkafka_frames.txt, checked by node_rdkafka_frames_test.cc).
# Today's librdkafka speaks flexible versions and the KIP-848 consumer-group protocol, so it
# needs a broker that answers them all: this script starts kgroupsd and puts a recording
# TCP proxy in front of it. node-rdkafka then produces one message, consumes it as a static
# member of a classic group, and again as a member of a consumer-protocol group. Each
# distinct (API, version) request is written (at most two of each) as one line:
# "node_rdkafka <api_key> <api_version> <frame hex>", the frame being everything after the
# 4-byte size prefix. Frames are recorded as the client sent them, before kgroupsd sees them.
#
# Usage: /usr/bin/python3 capture_node_rdkafka_frames.py KGROUPSD NODE_MODULES > node_rdkafka_frames.txt
#   KGROUPSD      a kgroupsd binary (e.g. build/broker/tools/kgroupsd/kgroupsd)
#   NODE_MODULES  a node_modules folder holding node-rdkafka (tests/clients/node_rdkafka/node_modules)
# Everything listens on 127.0.0.1; every wait is bounded.
import os
import socket
import struct
import subprocess
import sys
import threading

MAX_FRAMES_PER_KIND = 2

CLIENT_SCRIPT = r"""
const Kafka = require('node-rdkafka');
const bootstrap = process.argv[1];
const deadline = setTimeout(() => { console.error('capture: timed out'); process.exit(2); }, 60000);

function produce() {
  return new Promise((resolve, reject) => {
    const producer = new Kafka.Producer({ 'bootstrap.servers': bootstrap, dr_cb: true });
    producer.on('delivery-report', (error) => (error ? reject(error) : producer.disconnect(resolve)));
    producer.on('event.error', reject);
    producer.on('ready', () => {
      producer.produce('capture', 0, Buffer.from('value-1'), Buffer.from('key-1'));
      const poll = setInterval(() => producer.poll(), 50);
      producer.once('disconnected', () => clearInterval(poll));
    });
    producer.connect();
  });
}

function consumeOne(config) {
  return new Promise((resolve, reject) => {
    const consumer = new Kafka.KafkaConsumer({
      'bootstrap.servers': bootstrap, 'enable.auto.commit': false, ...config,
    }, { 'auto.offset.reset': 'earliest' });
    consumer.on('event.error', reject);
    consumer.on('data', (message) => {
      consumer.commitMessageSync(message);
      consumer.disconnect(resolve);
    });
    consumer.on('ready', () => { consumer.subscribe(['capture']); consumer.consume(); });
    consumer.connect();
  });
}

(async () => {
  await produce();
  await consumeOne({ 'group.id': 'capture-group', 'group.instance.id': 'capture-static-1' });
  await consumeOne({ 'group.id': 'capture-consumer-group', 'group.protocol': 'consumer' });
  clearTimeout(deadline);
})().catch((error) => { console.error(`capture: ${error}`); process.exit(1); });
"""


class Recorder:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}
        self.lines = []

    def frame(self, payload):
        if len(payload) < 4:
            return
        key, version = struct.unpack(">hh", payload[:4])
        with self.lock:
            seen = self.counts.get((key, version), 0)
            if seen >= MAX_FRAMES_PER_KIND:
                return
            self.counts[(key, version)] = seen + 1
            self.lines.append(f"node_rdkafka {key} {version} {payload.hex()}")


def pump_requests(client, broker, recorder):
    """Forwards client -> broker, recording each size-prefixed frame."""
    buffer = b""
    try:
        while True:
            data = client.recv(65536)
            if not data:
                break
            broker.sendall(data)
            buffer += data
            while len(buffer) >= 4:
                (size,) = struct.unpack(">i", buffer[:4])
                if len(buffer) < 4 + size:
                    break
                recorder.frame(buffer[4:4 + size])
                buffer = buffer[4 + size:]
    except OSError:
        pass
    finally:
        for sock in (client, broker):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def pump_responses(broker, client):
    try:
        while True:
            data = broker.recv(65536)
            if not data:
                break
            client.sendall(data)
    except OSError:
        pass


def serve_proxy(listener, upstream_port, recorder):
    while True:
        try:
            client, _ = listener.accept()
        except OSError:
            return
        broker = socket.create_connection(("127.0.0.1", upstream_port), timeout=30)
        broker.settimeout(None)
        threading.Thread(target=pump_requests, args=(client, broker, recorder), daemon=True).start()
        threading.Thread(target=pump_responses, args=(broker, client), daemon=True).start()


def start_kgroupsd(binary, proxy_port):
    """kgroupsd on a free port, advertising the proxy's address so clients come back to it."""
    process = subprocess.Popen(
        [binary, "--listen", "127.0.0.1:0", "--advertise", f"127.0.0.1:{proxy_port}",
         "--topic", "capture:1"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ready = process.stdout.readline()  # "kgroupsd listening on HOST:PORT"
    if "listening on" not in ready:
        raise SystemExit(f"kgroupsd did not start (exit {process.poll()}): {ready!r}")
    return process, int(ready.strip().rsplit(":", 1)[1])


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__ or "usage: capture_node_rdkafka_frames.py KGROUPSD NODE_MODULES")
    binary, node_modules = sys.argv[1], os.path.abspath(sys.argv[2])
    listener = socket.create_server(("127.0.0.1", 0))
    proxy_port = listener.getsockname()[1]
    kgroupsd, broker_port = start_kgroupsd(binary, proxy_port)
    recorder = Recorder()
    threading.Thread(target=serve_proxy, args=(listener, broker_port, recorder), daemon=True).start()
    try:
        env = dict(os.environ, NODE_PATH=node_modules)
        subprocess.run(["node", "-e", CLIENT_SCRIPT, f"127.0.0.1:{proxy_port}"], env=env,
                       check=True, timeout=90)
    finally:
        kgroupsd.terminate()
        kgroupsd.wait(timeout=10)
        listener.close()
    print("# node-rdkafka 3.6.1 (librdkafka 2.12.0) request frames, recorded by "
          "capture_node_rdkafka_frames.py")
    print("# <client> <api_key> <api_version> <frame after the size prefix, hex>")
    for line in sorted(recorder.lines, key=lambda l: tuple(int(x) for x in l.split()[1:3])):
        print(line)


if __name__ == "__main__":
    main()
