# SPDX-License-Identifier: Apache-2.0
"""Starts kgroupsd on a free loopback port for a test and stops it afterwards.

The binary comes from $KGROUPSD (scripts/test-clients sets it) or build/broker. The broker
prints exactly one line on stdout when it is ready ("kgroupsd listening on HOST:PORT", and with
--http "kgroupsd listening on HOST:PORT, http on HOST:HTTPPORT"); start() waits for it, bounded
by a timeout, and keeps the bootstrap address (and the HTTP address, or None). With
--brokers N the Kafka part is every broker's address, comma-separated: a bootstrap.servers.
With --listeners (instead of --listen) the line names the first listener's addresses, then
each other listener's as ", PROTOCOL on ADDRESSES" before ", http on": "kgroupsd listening on
127.0.0.1:40001, SASL_SSL on 127.0.0.1:40002, http on 127.0.0.1:40003"; `listeners` has them
all by protocol.

KGROUPS_TEST_BROKERS=N (N > 1; scripts/test-clients sets it for its second run of the basic
suites) makes every kgroupsd a test starts N brokers whose topics have N replicas
(--brokers N --default-replication-factor N), unless the test chose --brokers itself; a test
that checks a one-broker figure reads TEST_BROKERS (test_confluent_kafka.py's replication
factor beyond the brokers).
"""
import os
import select
import signal
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READY_PREFIX = "kgroupsd listening on "
TEST_BROKERS = int(os.environ.get("KGROUPS_TEST_BROKERS") or "1")


def cluster_args(args):
    """The flags KGROUPS_TEST_BROKERS adds to a test's kgroupsd arguments (none with 1)."""
    if TEST_BROKERS <= 1 or "--brokers" in args:
        return []
    return ["--brokers", str(TEST_BROKERS), "--default-replication-factor", str(TEST_BROKERS)]


def kgroupsd_binary():
    path = Path(os.environ.get("KGROUPSD", ROOT / "build/broker/tools/kgroupsd/kgroupsd"))
    if not path.is_file():
        raise FileNotFoundError(
            f"kgroupsd binary not found at {path}: run scripts/test-clients, or set KGROUPSD")
    return path


def first_listener_protocol(args):
    """The protocol of the first listener --listeners names in `args` (PLAINTEXT without)."""
    if "--listeners" not in args:
        return "PLAINTEXT"
    value = args[args.index("--listeners") + 1]
    return value.split(";")[0].split(",")[0].split("://")[0]


def parse_ready_line(text, first_protocol="PLAINTEXT"):
    """({protocol: addresses}, http address or None) from kgroupsd's ready line."""
    assert text.startswith(READY_PREFIX), f"unexpected ready line: {text!r}"
    first, *others = text[len(READY_PREFIX):].split(", ")
    listeners, http = {first_protocol: first}, None
    for other in others:
        protocol, on, addresses = other.partition(" on ")
        assert on and addresses, f"unexpected ready line: {text!r}"
        if protocol == "http":
            http = addresses
        else:
            listeners[protocol] = addresses
    return listeners, http


class Kgroupsd:
    """One running broker. `bootstrap` is its "127.0.0.1:PORT" (the first listener's);
    `listeners` every listener's addresses by protocol; `http` its control endpoint's
    "127.0.0.1:PORT" when started with --http (else None); `log()` its stderr so far."""

    def __init__(self, log_path, *args):
        self.log_path = Path(log_path)
        self._log_file = open(self.log_path, "wb")
        listen = [] if "--listeners" in args else ["--listen", "127.0.0.1:0"]
        self.process = subprocess.Popen(
            [str(kgroupsd_binary()), *listen, *cluster_args(args), *args],
            stdout=subprocess.PIPE, stderr=self._log_file)
        self.listeners, self.http = self._wait_ready(timeout_s=10, args=args)
        self.bootstrap = next(iter(self.listeners.values()))

    def _wait_ready(self, timeout_s, args):
        deadline = time.monotonic() + timeout_s
        line = b""
        while not line.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0 or self.process.poll() is not None:
                self.stop()
                raise RuntimeError(f"kgroupsd did not become ready; its log:\n{self.log()}")
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 256)
                if not chunk:
                    continue
                line += chunk
        return parse_ready_line(line.decode().strip(), first_listener_protocol(args))

    def rss_mib(self):
        """The broker's resident memory (VmRSS), in MiB."""
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        raise AssertionError("no VmRSS line")

    def peak_rss_mib(self):
        """The broker's peak resident memory so far (VmHWM), in MiB."""
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        raise AssertionError("no VmHWM line")

    def log(self):
        self._log_file.flush()
        return self.log_path.read_text(errors="replace")

    def stop(self):
        """SIGTERM, then wait; returns the exit code (SIGKILL after 10 s, giving -9)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log_file.close()
        return self.process.returncode
