#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
#
# Records golden *response* bytes from a reference implementation: librdkafka 2.0.2's mock
# cluster (Debian's librdkafka1 exports it). It starts a one-broker mock cluster with a topic
# "capture", replays the client request frames of client_frames.txt whose versions the mock
# implements, and writes each answer as one line:
# "<client> <api_key> <api_version> <response frame hex, without the size prefix>".
# The codec tests decode these with the response decoders and re-encode them byte for byte.
#
# Usage: /usr/bin/python3 capture_mock_responses.py > mock_responses.txt
# Needs gcc and librdkafka-dev. Every socket read has a timeout; loops are bounded.
import os
import socket
import struct
import subprocess
import sys
import tempfile

LAUNCHER = r"""
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
int main(void) {
  char error[256];
  rd_kafka_t *handle = rd_kafka_new(RD_KAFKA_PRODUCER, rd_kafka_conf_new(), error, sizeof error);
  if (!handle) { fprintf(stderr, "%s\n", error); return 1; }
  rd_kafka_mock_cluster_t *cluster = rd_kafka_mock_cluster_new(handle, 1);
  rd_kafka_mock_topic_create(cluster, "capture", 1, 1);
  printf("%s\n", rd_kafka_mock_cluster_bootstraps(cluster));
  fflush(stdout);
  for (int i = 0; i < 120; ++i) sleep(1);  /* bounded: the script kills it long before */
  return 0;
}
"""

# (api_key, api_version) ranges the 2.0.2 mock answers (its handler table). ApiVersions v3 is
# left out: the mock answers it in its own layout, not Kafka's v0-layout error (§1.5).
MOCK_RANGES = {0: (0, 7), 1: (0, 11), 2: (0, 5), 3: (0, 2), 8: (0, 7), 9: (0, 5), 10: (0, 2),
               11: (0, 5), 12: (0, 3), 13: (0, 1), 14: (0, 3), 18: (0, 2), 22: (0, 4)}


def recv_exact(conn, n):
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    frames = []
    with open(os.path.join(here, "client_frames.txt")) as source:
        for line in source:
            fields = line.split()
            if len(fields) == 4 and not fields[0].startswith("#"):
                frames.append((fields[0], int(fields[1]), int(fields[2]), bytes.fromhex(fields[3])))
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "mock_launcher")
        subprocess.run(["gcc", "-x", "c", "-o", binary, "-", "-lrdkafka"], input=LAUNCHER.encode(),
                       check=True)
        mock = subprocess.Popen([binary], stdout=subprocess.PIPE, text=True)
        try:
            host, port = mock.stdout.readline().strip().split(",")[0].rsplit(":", 1)
            seen = set()
            for client in sorted({f[0] for f in frames}):
                conn = socket.create_connection((host, int(port)), timeout=8)
                for name, key, version, frame in frames:
                    low, high = MOCK_RANGES.get(key, (1, 0))
                    if name != client or not low <= version <= high or (name, key, version) in seen:
                        continue
                    conn.sendall(struct.pack(">i", len(frame)) + frame)
                    try:
                        size = recv_exact(conn, 4)
                        answer = size and recv_exact(conn, struct.unpack(">i", size)[0])
                    except socket.timeout:
                        answer = None
                    if not answer:
                        print(f"{client}: no answer to key {key} v{version}", file=sys.stderr)
                        conn.close()
                        conn = socket.create_connection((host, int(port)), timeout=8)
                        continue
                    seen.add((name, key, version))
                    print(f"{client} {key} {version} {answer.hex()}")
                conn.close()
            print(f"{len(seen)} responses", file=sys.stderr)
        finally:
            mock.kill()
            mock.wait()


if __name__ == "__main__":
    main()
