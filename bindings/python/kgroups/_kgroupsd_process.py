# SPDX-License-Identifier: Apache-2.0
"""One kgroupsd child process: started on free loopback ports, ready once it printed its
ready line ("kgroupsd listening on HOST:PORT, http on HOST:HTTPPORT"), stopped with SIGTERM.

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

_READY_LINE = re.compile(r"kgroupsd listening on (\S+), http on (\S+)\n")


class KgroupsdProcess:
    """Starts `binary` with `arguments` and waits up to `startup_timeout_s` for its ready line.
    Raises RuntimeError, with the command and kgroupsd's stderr, if it exits or stays silent."""

    def __init__(self, binary: pathlib.Path, arguments: list[str],
                 startup_timeout_s: float) -> None:
        self.command = [str(binary), "--listen", "127.0.0.1:0", "--http", "127.0.0.1:0",
                        *arguments]
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
            self.kafka_address, self.http_address = self._wait_ready(startup_timeout_s)
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

    def _wait_ready(self, timeout_s: float) -> tuple[str, str]:
        deadline = time.monotonic() + timeout_s
        delay = 0.002
        while True:
            output = self._stdout_path.read_text(errors="replace")
            match = _READY_LINE.match(output)
            if match:
                return match.group(1), match.group(2)
            if output.endswith("\n"):
                self._fail(f"printed an unexpected first line {output.splitlines()[0]!r}, not "
                           "'kgroupsd listening on HOST:PORT, http on HOST:PORT' (a kgroupsd "
                           "without --http?)")
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
