# SPDX-License-Identifier: Apache-2.0
"""`kgroups certs DIR`: the throwaway CA and certificates it writes make a working TLS pair.
The chain is checked with `openssl verify` when the openssl binary exists, and always by
Python's ssl module: a loopback TLS handshake between two Python sockets, the server on
broker.pem asking for a client certificate, the client trusting ca.pem and presenting
client.pem, with the host name checked against 127.0.0.1 and localhost.

The binary comes from $KGROUPS_CLI (scripts/test-clients sets it) or build/broker."""
import os
import shutil
import socket
import ssl
import stat
import subprocess
import threading

import pytest

from test_cli import cli_binary

FILES = ("ca.pem", "broker.pem", "broker-cert.pem", "broker-key.pem", "client.pem",
         "client-cert.pem", "client-key.pem")
PRIVATE = ("broker.pem", "broker-key.pem", "client.pem", "client-key.pem")


def run_certs(*args):
    return subprocess.run([str(cli_binary()), "certs", *map(str, args)], capture_output=True,
                          text=True, timeout=30)


@pytest.fixture
def certs(tmp_path):
    directory = tmp_path / "certs"
    result = run_certs(directory, "--client-cn", "alice", "--days", "2")
    assert result.returncode == 0, result.stderr
    return directory


def test_writes_every_file_and_keeps_keys_private(certs):
    assert sorted(os.listdir(certs)) == sorted(FILES)
    for name in FILES:
        mode = stat.S_IMODE(os.stat(certs / name).st_mode)
        assert mode == (0o600 if name in PRIVATE else 0o644), name
    broker = (certs / "broker.pem").read_text()
    assert broker.count("BEGIN CERTIFICATE") == 2 and "BEGIN PRIVATE KEY" in broker


def test_refuses_to_overwrite_without_force(certs):
    before = (certs / "ca.pem").read_text()
    refused = run_certs(certs)
    assert refused.returncode == 1
    assert "already holds ca.pem" in refused.stderr and "--force" in refused.stderr
    assert (certs / "ca.pem").read_text() == before
    forced = run_certs(certs, "--force")
    assert forced.returncode == 0, forced.stderr
    assert (certs / "ca.pem").read_text() != before


@pytest.mark.skipif(shutil.which("openssl") is None, reason="no openssl binary")
def test_openssl_verifies_both_certificates(certs):
    for leaf, purpose in (("broker-cert.pem", "sslserver"), ("client-cert.pem", "sslclient")):
        result = subprocess.run(["openssl", "verify", "-purpose", purpose, "-CAfile",
                                 str(certs / "ca.pem"), str(certs / leaf)],
                                capture_output=True, text=True, timeout=30)
        assert result.returncode == 0 and result.stdout.strip().endswith(": OK"), result


def handshake(certs, server_hostname):
    """A mutual-TLS handshake over a loopback socket pair; returns the client certificate the
    server saw."""
    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_context.load_cert_chain(certs / "broker.pem")
    server_context.load_verify_locations(certs / "ca.pem")
    server_context.verify_mode = ssl.CERT_REQUIRED
    client_context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    client_context.load_verify_locations(certs / "ca.pem")
    client_context.load_cert_chain(certs / "client-cert.pem", certs / "client-key.pem")

    listener = socket.create_server(("127.0.0.1", 0))
    seen = {}

    def serve():
        connection, _ = listener.accept()
        with server_context.wrap_socket(connection, server_side=True) as tls:
            seen["peer"] = tls.getpeercert()
            tls.sendall(b"ok")

    server = threading.Thread(target=serve)
    server.start()
    try:
        with socket.create_connection(listener.getsockname(), timeout=10) as raw:
            with client_context.wrap_socket(raw, server_hostname=server_hostname) as tls:
                assert tls.recv(2) == b"ok"
    finally:
        server.join(timeout=10)
        listener.close()
    return seen["peer"]


@pytest.mark.parametrize("server_hostname", ["127.0.0.1", "localhost"])
def test_python_ssl_handshakes_with_client_authentication(certs, server_hostname):
    peer = handshake(certs, server_hostname)
    assert ((("commonName", "alice"),),) == peer["subject"]


def test_bad_options_are_refused(tmp_path):
    assert run_certs(tmp_path / "a", "--days", "0").returncode == 2
    assert run_certs(tmp_path / "b", "--client-cn", "").returncode == 1
    assert not (tmp_path / "b").exists()
