# SPDX-License-Identifier: Apache-2.0
"""Attacks on the secured listeners (issue 30, docs/SECURITY.md's bounds): clients that open
TLS and never finish the handshake, one that announces a 1 GB SASL token, and a
password-guessing loop. Throughout, the broker answers a probe on its PLAINTEXT listener
within 1 s, a correct user still authenticates within 1 s, and its memory stays within the
budget. Each test starts its own kgroupsd with small bounds; every wait is bounded.

Needs kgroupsd in $KGROUPSD and the kgroups CLI in $KGROUPS_CLI (for the certificates).
"""
import os
import shutil
import socket
import struct
import subprocess
import threading
import time
from pathlib import Path

import pytest
from kafka.protocol.admin import SaslAuthenticateRequest, SaslHandShakeRequest

from attack_checks import Probe, assert_within_budget, probe_seconds
from raw_client import RawConnection

BUDGET_MIB = 256
SASL_AUTHENTICATION_FAILED = 58


def kgroups_cli():
    cli = os.environ.get("KGROUPS_CLI") or shutil.which("kgroups")
    if not cli:
        pytest.fail("set KGROUPS_CLI to the kgroups CLI (it makes the test certificates)")
    return cli


@pytest.fixture
def secured(start_kgroupsd, tmp_path):
    """start(*args): a kgroupsd with PLAINTEXT (the probe's), SSL and SASL_PLAINTEXT
    listeners, user alice, a --max-memory budget of BUDGET_MIB, and `args`."""
    certs = tmp_path / "certs"
    subprocess.run([kgroups_cli(), "certs", str(certs)], check=True, capture_output=True)
    users = tmp_path / "users.txt"
    users.write_text("alice:alice-secret\n")

    def start(*args):
        return start_kgroupsd(
            "--listeners", "PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0",
            "--ssl-keystore-location", str(certs / "broker.pem"),
            "--sasl-users", str(users), "--super-users", "User:alice",
            "--max-memory", f"{BUDGET_MIB}MiB", *args)
    return start


def address(text):
    host, port = text.rsplit(":", 1)
    return host, int(port)


def authenticate(bootstrap, user, password, timeout_s=10):
    """SaslHandshake v1 + SaslAuthenticate v1 with PLAIN; returns (error code, seconds)."""
    started = time.monotonic()
    connection = RawConnection(bootstrap, timeout_s=timeout_s)
    try:
        handshake = connection.request(SaslHandShakeRequest[1]("PLAIN"))
        assert handshake.error_code == 0, handshake
        token = b"\0" + user.encode() + b"\0" + password.encode()
        answer = connection.request(SaslAuthenticateRequest[1](token))
        return answer.error_code, time.monotonic() - started
    finally:
        connection.close()


def test_tls_handshakes_that_never_finish_are_capped_and_time_out(secured):
    broker = secured("--max-unauthenticated-connections", "20",
                     "--authentication-timeout-ms", "1500")
    ssl_address = address(broker.listeners["SSL"])
    probe = Probe(broker.bootstrap)
    stalled = []
    try:
        for n in range(60):
            sock = socket.create_connection(ssl_address, timeout=5)
            if n % 2 == 0:
                sock.sendall(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03")  # a ClientHello's start
            stalled.append(sock)
        # Beyond the cap, connections are closed at once; the first 20 wait for the timeout.
        time.sleep(0.5)
        closed_early = sum(1 for sock in stalled if is_closed(sock, 0.2))
        assert closed_early >= 35, f"only {closed_early} of 40 beyond the cap were closed"
        assert probe_seconds(broker.bootstrap) < 1.0
        time.sleep(1.5)
        assert all(is_closed(sock, 1.0) for sock in stalled), "a stalled handshake stayed open"
        assert "did not finish its TLS handshake" in broker.log()
        assert "--max-unauthenticated-connections" in broker.log()
    finally:
        probe.stop.set()
        probe.thread.join()
        for sock in stalled:
            sock.close()
    assert probe.slowest < 1.0, f"the probe waited {probe.slowest:.2f} s"
    assert_within_budget(broker, BUDGET_MIB)


def is_closed(sock, timeout_s):
    sock.settimeout(timeout_s)
    try:
        while True:
            if not sock.recv(65536):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except (socket.timeout, TimeoutError):
        return False


def test_a_1gb_sasl_token_closes_its_connection_unread(secured):
    broker = secured()
    connection = RawConnection(broker.listeners["SASL_PLAINTEXT"], timeout_s=5)
    try:
        assert connection.request(SaslHandShakeRequest[1]("PLAIN")).error_code == 0
        header = struct.pack(">hhih", 36, 1, 99, 3) + b"raw"
        frame_size = 1 << 30
        connection.sock.sendall(struct.pack(">i", frame_size) + header +
                                struct.pack(">i", frame_size - len(header) - 4))
        sent = 0
        chunk = b"\0" * (1 << 20)
        try:
            for _ in range(64):  # the broker must close long before 64 MiB
                connection.sock.sendall(chunk)
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        assert connection.is_closed_by_peer(timeout_s=5)
    finally:
        connection.close()
    assert "--sasl-server-max-receive-size" in broker.log() or "before authenticating" in broker.log()
    assert probe_seconds(broker.bootstrap) < 1.0
    assert_within_budget(broker, BUDGET_MIB)


def test_a_password_guessing_loop_backs_off_without_slowing_others(secured):
    broker = secured("--max-failed-authentications-per-second", "5",
                     "--connection-failed-authentication-delay-ms", "50")
    sasl = broker.listeners["SASL_PLAINTEXT"]
    stop = threading.Event()
    guesses = []  # (error code, seconds) of each wrong guess

    def guess():
        n = 0
        while not stop.is_set():
            n += 1
            guesses.append(authenticate(sasl, "alice", f"guess-{n}"))

    guessers = [threading.Thread(target=guess) for _ in range(4)]
    for thread in guessers:
        thread.start()
    try:
        time.sleep(1.0)
        for _ in range(3):
            error, seconds = authenticate(sasl, "alice", "alice-secret")
            assert error == 0
            assert seconds < 1.0, f"a correct login waited {seconds:.2f} s behind the guesses"
            assert probe_seconds(broker.bootstrap) < 1.0
            time.sleep(0.3)
    finally:
        stop.set()
        for thread in guessers:
            thread.join(timeout=15)
    assert guesses and all(error == SASL_AUTHENTICATION_FAILED for error, _ in guesses)
    # The back-off grows: past 5 failures a second, answers wait well beyond the base delay.
    assert max(seconds for _, seconds in guesses) >= 0.2
    assert len(guesses) < 200, f"{len(guesses)} guesses in about 2 s: no back-off"
    assert_within_budget(broker, BUDGET_MIB)
    assert Path(broker.log_path).exists()
