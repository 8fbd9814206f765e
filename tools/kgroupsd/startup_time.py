#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Measures kgroupsd's start-up: the time from spawning the process to its ready line on
stdout, and to the first answered ApiVersions request, over several runs on port 0.
Usage: tools/kgroupsd/startup_time.py [path/to/kgroupsd] [runs]"""
import os
import select
import socket
import statistics
import struct
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def one_run(binary):
    started = time.perf_counter()
    process = subprocess.Popen([binary, "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    try:
        line = b""
        while not line.endswith(b"\n"):
            ready, _, _ = select.select([process.stdout], [], [], 10)
            if not ready:
                raise RuntimeError("kgroupsd printed no ready line within 10 s")
            chunk = os.read(process.stdout.fileno(), 256)
            if not chunk:
                raise RuntimeError("kgroupsd exited before it was ready")
            line += chunk
        ready_s = time.perf_counter() - started
        host, port = line.decode().split()[-1].rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            # ApiVersions v0, correlation id 1, client id "t".
            request = struct.pack(">hhih", 18, 0, 1, 1) + b"t"
            sock.sendall(struct.pack(">i", len(request)) + request)
            size = struct.unpack(">i", sock.recv(4, socket.MSG_WAITALL))[0]
            sock.recv(size, socket.MSG_WAITALL)
        answered_s = time.perf_counter() - started
    finally:
        process.terminate()
        process.wait(timeout=10)
    if process.returncode != 0:
        raise RuntimeError(f"kgroupsd exited with {process.returncode} on SIGTERM")
    return ready_s * 1000, answered_s * 1000


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build/release/tools/kgroupsd/kgroupsd")
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    results = [one_run(binary) for _ in range(runs)]
    ready = sorted(r for r, _ in results)
    answered = sorted(a for _, a in results)
    print(f"kgroupsd start-up over {runs} runs ({binary}):")
    print(f"  spawn -> ready line:               median {statistics.median(ready):.1f} ms, "
          f"max {ready[-1]:.1f} ms")
    print(f"  spawn -> first ApiVersions answer: median {statistics.median(answered):.1f} ms, "
          f"max {answered[-1]:.1f} ms")


if __name__ == "__main__":
    main()
