# SPDX-License-Identifier: Apache-2.0
"""Runs tests/clients/share_consumer/share_consumer.c, a librdkafka 2.15 share consumer
(KIP-932), as a subprocess that a test drives command by command.

The driver and its librdkafka come from scripts/install-deps (librdkafka 2.15.1's source from
the npm registry: Debian's librdkafka is 2.0.2, which has no share consumer); its path is
$KGROUPS_SHARE_CONSUMER or tests/clients/share_consumer/.cache/share_consumer. A test that
starts it without the binary fails saying to run scripts/install-deps; it never skips.

Every command waits for the driver's reply (its lines up to "end") for at most a timeout, and
kills the driver when the reply does not come, so a test never hangs. The driver's stderr
(librdkafka's log) goes to a file that failure messages quote.
"""
import os
import select
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote_to_bytes

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "tests/clients/share_consumer/share_consumer.c"
DEFAULT_BINARY = ROOT / "tests/clients/share_consumer/.cache/share_consumer"


def share_consumer_binary():
    """The driver's path; raises FileNotFoundError (saying what to run) when it is missing
    or older than its source."""
    path = Path(os.environ.get("KGROUPS_SHARE_CONSUMER", DEFAULT_BINARY))
    if not path.is_file():
        raise FileNotFoundError(
            f"the librdkafka 2.15 share consumer driver is missing ({path}): run "
            "scripts/install-deps, which builds librdkafka 2.15.1 and the driver")
    if "KGROUPS_SHARE_CONSUMER" not in os.environ and path.stat().st_mtime < SOURCE.stat().st_mtime:
        raise FileNotFoundError(
            f"{path} is older than {SOURCE.name}: run scripts/install-deps to rebuild it")
    return path


@dataclass
class ShareRecord:
    """One record a poll returned. key and value are bytes, or None for null."""
    partition: int
    offset: int
    delivery_count: int
    key: bytes | None
    value: bytes | None


@dataclass
class Reply:
    """One command's reply: `lines` other than records, errors and events; `errors` the
    "error NAME TEXT" lines (failures of the command); `events` librdkafka's error callbacks
    since the previous reply, as "NAME TEXT"."""
    lines: list
    errors: list
    events: list


class ShareConsumerError(RuntimeError):
    """The driver did not answer in time, exited, or a command failed."""


def _field(text):
    return None if text == "-" else unquote_to_bytes(text)


class ShareConsumer:
    """One running driver, subscribed to `topic` in share group `group`. `options` are
    librdkafka properties, e.g. {"share.acknowledgement.mode": "explicit"}."""

    def __init__(self, log_path, bootstrap, group, topic, options=None, ready_timeout_s=10):
        self.log_path = Path(log_path)
        self._log_file = open(self.log_path, "wb")
        settings = [f"{key}={value}" for key, value in (options or {}).items()]
        self.process = subprocess.Popen(
            [str(share_consumer_binary()), bootstrap, group, topic, *settings],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log_file)
        self._buffer = b""
        line = self._read_line(time.monotonic() + ready_timeout_s)
        if line != "ready":
            self.kill()
            raise ShareConsumerError(f"the driver did not start ({line!r}); its log:\n{self.log()}")

    def log(self):
        self._log_file.flush()
        return self.log_path.read_text(errors="replace")

    def _read_line(self, deadline):
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise ShareConsumerError(f"no reply from the driver in time; its log:\n{self.log()}")
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                code = self.process.wait()
                raise ShareConsumerError(
                    f"the driver exited with {code} mid-reply; its log:\n{self.log()}")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode()

    def command(self, text, timeout_s):
        """Sends one command line; returns its Reply (raises ShareConsumerError after
        timeout_s without the whole reply, having killed the driver)."""
        if self.process.poll() is not None:
            raise ShareConsumerError(f"the driver has exited ({self.process.returncode})")
        self.process.stdin.write(text.encode() + b"\n")
        self.process.stdin.flush()
        deadline = time.monotonic() + timeout_s
        reply = Reply([], [], [])
        while (line := self._read_line(deadline)) != "end":
            kind, _, rest = line.partition(" ")
            if kind == "error":
                reply.errors.append(rest)
            elif kind == "event":
                reply.events.append(rest)
            else:
                reply.lines.append(line)
        return reply

    def poll(self, max_records, timeout_ms, slack_s=15):
        """Polls until max_records records arrived or timeout_ms passed; returns
        (records, reply). An explicit-mode consumer returns after its first non-empty batch."""
        reply = self.command(f"poll {max_records} {timeout_ms}", timeout_ms / 1000 + slack_s)
        records = []
        for line in reply.lines:
            partition, offset, delivery_count, key, value = line.split(" ")
            records.append(ShareRecord(int(partition), int(offset), int(delivery_count),
                                       _field(key), _field(value)))
        return records, reply

    def ack(self, which, kind, timeout_s=10):
        """Acknowledges records of the last poll: which is "all", an offset, or
        (partition, offset); kind is "accept", "release" or "reject". Returns how many."""
        if isinstance(which, tuple):
            which = f"{which[0]}:{which[1]}"
        reply = self.command(f"ack {which} {kind}", timeout_s)
        if reply.errors:
            raise ShareConsumerError(f"ack {which} {kind}: {reply.errors}")
        return int(reply.lines[-1].split(" ")[1])

    def commit(self, timeout_s=20):
        """commitSync of the acknowledgements: returns {partition: error name}."""
        reply = self.command("commit", timeout_s)
        if reply.errors:
            raise ShareConsumerError(f"commit: {reply.errors}")
        return {int(line.split(" ")[1]): line.split(" ")[2] for line in reply.lines}

    def commit_async(self, timeout_s=10):
        reply = self.command("commit_async", timeout_s)
        if reply.errors:
            raise ShareConsumerError(f"commit_async: {reply.errors}")

    def close(self, timeout_s=30):
        """Closes the consumer (it leaves the group) and waits for the driver to exit;
        returns the Reply. Kills it when either takes longer than timeout_s."""
        reply = self.command("close", timeout_s)
        try:
            self.process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            self.kill()
            raise ShareConsumerError(f"the driver did not exit after close; its log:\n{self.log()}")
        self._log_file.close()
        return reply

    def kill(self):
        """SIGKILL (a crashed member); safe to call twice."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if not self._log_file.closed:
            self._log_file.close()
