# SPDX-License-Identifier: Apache-2.0
"""One kgroupsd child process: started on free loopback ports, ready once it printed its
ready line, stopped with SIGTERM. The ready line names the first listener's addresses (one
per broker, comma-separated), then every other listener's as ", PROTOCOL on ADDRESSES", then
", http on HOST:PORT": "kgroupsd listening on 127.0.0.1:40001, SASL_SSL on 127.0.0.1:40002,
http on 127.0.0.1:40003" (a kgroupsd with one listener prints no ", PROTOCOL on" part).

Its stdout and stderr go to files in a private temporary folder (so a chatty broker never
blocks on a full pipe); `log()` reads stderr. The folder goes when the process is stopped.
Not thread-safe: one owner starts and stops it.
"""

from __future__ import annotations

import pathlib
import re
import signal
import subprocess
import tempfile
import time
import weakref

_READY_PREFIX = "kgroupsd listening on "
_OTHER_LISTENER = re.compile(r"([A-Za-z_]+) on (\S+)")


def parse_ready_line(line: str, first_protocol: str = "PLAINTEXT") -> tuple[dict[str, str],
                                                                             str | None]:
    """The listeners' addresses by protocol (the first listener's under `first_protocol`,
    which the line does not name) and the HTTP address (None without one), from a ready line
    without its newline. Raises ValueError for a line of another form."""
    if not line.startswith(_READY_PREFIX):
        raise ValueError(f"not a ready line: {line!r}")
    first, *others = line[len(_READY_PREFIX):].split(", ")
    listeners = {first_protocol: first}
    http = None
    for other in others:
        match = _OTHER_LISTENER.fullmatch(other)
        if not match:
            raise ValueError(f"not a ready line ({other!r} is not 'PROTOCOL on ADDRESS'): "
                             f"{line!r}")
        if match.group(1) == "http":
            http = match.group(2)
        else:
            listeners[match.group(1)] = match.group(2)
    if not first or " " in first:
        raise ValueError(f"not a ready line (no addresses first): {line!r}")
    return listeners, http


class KgroupsdProcess:
    """Starts `binary` with `arguments` and waits up to `startup_timeout_s` for its ready line.
    `listener_protocols`: the protocols `arguments` give --listeners, in order (None: one
    PLAINTEXT listener, --listen on `listen`, 127.0.0.1:0 by default). `http`: where the
    control endpoint listens. Raises RuntimeError, with the command and kgroupsd's stderr, if
    it exits or stays silent."""

    def __init__(self, binary: pathlib.Path, arguments: list[str], startup_timeout_s: float,
                 listener_protocols: tuple[str, ...] | None = None,
                 listen: str = "127.0.0.1:0", http: str = "127.0.0.1:0") -> None:
        listen_flags = [] if listener_protocols else ["--listen", listen]
        self._first_protocol = listener_protocols[0] if listener_protocols else "PLAINTEXT"
        self.command = [str(binary), *listen_flags, "--http", http, *arguments]
        self._folder = tempfile.TemporaryDirectory(prefix="kgroupsd-")
        folder = pathlib.Path(self._folder.name)
        self._stdout_path = folder / "stdout"
        self._stderr_path = folder / "stderr"
        with open(self._stdout_path, "wb") as stdout, open(self._stderr_path, "wb") as stderr:
            self._process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL,
                                             stdout=stdout, stderr=stderr)
        # A broker left running when the interpreter exits is killed then.
        self._finalizer = weakref.finalize(self, _kill, self._process, self._folder)
        try:
            # Every listener's addresses by protocol; the first listener's is kafka_address.
            self.listeners, self.http_address = self._wait_ready(startup_timeout_s)
            self.kafka_address = self.listeners[self._first_protocol]
        except BaseException:
            self.stop()
            raise

    @property
    def pid(self) -> int:
        return self._process.pid

    def returncode(self) -> int | None:
        """The exit code, or None while it runs (negative: killed by that signal)."""
        return self._process.poll()

    def log(self) -> str:
        """What kgroupsd wrote to stderr so far (its log lines)."""
        try:
            return self._stderr_path.read_text(errors="replace")
        except FileNotFoundError:
            return self._stderr_copy

    _stderr_copy = ""  # kept when the folder is removed, for messages after stop()

    def stop(self, timeout_s: float = 10.0) -> int:
        """SIGTERM, then waits up to `timeout_s` (then SIGKILL); returns the exit code, 0 for
        a clean shutdown. Stopping again returns the same code."""
        if self._process.poll() is None:
            self._process.send_signal(signal.SIGTERM)
            try:
                self._process.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        if self._finalizer.alive:
            self._stderr_copy = self.log()
            self._finalizer()
        return self._process.returncode

    def kill(self) -> int:
        """SIGKILL (kill -9: nothing is flushed or closed) and waits; returns the exit code
        (-9). Killing a stopped process returns its code."""
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        return self.stop()

    def _wait_ready(self, timeout_s: float) -> tuple[dict[str, str], str]:
        deadline = time.monotonic() + timeout_s
        delay = 0.002
        while True:
            output = self._stdout_path.read_text(errors="replace")
            if "\n" in output:
                line = output.split("\n", 1)[0]
                try:
                    listeners, http = parse_ready_line(line, self._first_protocol)
                except ValueError:
                    listeners, http = {}, None
                if http is not None:
                    return listeners, http
                self._fail(f"printed an unexpected first line {line!r}, not "
                           "'kgroupsd listening on HOST:PORT[, PROTOCOL on HOST:PORT]..., http "
                           "on HOST:PORT' (a kgroupsd without --http?)")
            code = self._process.poll()
            if code is not None:
                self._fail(f"exited with code {code} before it was ready")
            if time.monotonic() >= deadline:
                self._fail(f"printed no ready line within {timeout_s:g} s")
            time.sleep(delay)
            delay = min(delay * 2, 0.05)

    def _fail(self, what: str) -> None:
        self.stop(timeout_s=2)
        log = self.log().strip() or "(nothing)"
        raise RuntimeError(f"kgroupsd {what}.\ncommand: {' '.join(self.command)}\n"
                           f"its stderr:\n{log}")


def _kill(process: subprocess.Popen, folder: tempfile.TemporaryDirectory) -> None:
    if process.poll() is None:
        process.kill()
        process.wait()
    folder.cleanup()
