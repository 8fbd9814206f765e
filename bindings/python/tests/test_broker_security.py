# SPDX-License-Identifier: Apache-2.0
"""A secured kgroups.Broker without a real kgroupsd: Security's flags and refusals, the
ready line with several listeners (and the old forms), the client configurations for
confluent-kafka and kafka-python, the unsecured JWS for OAUTHBEARER, and a fake kgroupsd
that records the command line the Broker runs. (Secured brokers that really start are
tested in tests/clients/test_fixture_security.py.)"""

import base64
import json
import os
import pathlib
import shutil
import stat

import pytest

import kgroups
from kgroups._client_config import confluent_kafka_config, kafka_python_config, unsecured_jws
from kgroups._kgroupsd_process import parse_ready_line

LISTENERS = {"PLAINTEXT": "127.0.0.1:1", "SASL_SSL": "127.0.0.1:2", "SSL": "127.0.0.1:3",
             "SASL_PLAINTEXT": "127.0.0.1:4"}
CERTS = pathlib.Path("/certs")


def test_security_becomes_kgroupsd_flags():
    security = kgroups.Security(("PLAINTEXT", "SASL_SSL"), mechanisms=["SCRAM-SHA-256"],
                                users={"alice": "a"}, client_auth="required",
                                super_users=["admin", "User:CN=client"], allow_everyone=True)
    assert security.flags(pathlib.Path("/u"), CERTS) == [
        "--listeners", "PLAINTEXT://127.0.0.1:0,SASL_SSL://127.0.0.1:0",
        "--ssl-keystore-location", "/certs/broker.pem",
        "--ssl-truststore-location", "/certs/ca.pem", "--ssl-client-auth", "required",
        "--sasl-enabled-mechanisms", "SCRAM-SHA-256", "--sasl-users", "/u",
        "--super-users", "User:admin;User:CN=client", "--allow-everyone-if-no-acl-found"]
    assert security.users_file_text() == "alice:a\n"


@pytest.mark.parametrize("fields,error", [
    ({"listeners": "TLS"}, ValueError), ({"listeners": ()}, ValueError),
    ({"listeners": ("SSL", "SSL")}, ValueError), ({"mechanisms": ["GSSAPI"]}, ValueError),
    ({"client_auth": "yes"}, ValueError),
    ({"listeners": "SASL_PLAINTEXT", "client_auth": "required"}, ValueError),
    ({"users": {"a:b": "x"}}, TypeError), ({"users": {"a": "x\ny"}}, TypeError),
    ({"users": [("a", "b")]}, TypeError)])
def test_security_refuses_what_kgroupsd_would(fields, error):
    with pytest.raises(error):
        kgroups.Security(**fields)


@pytest.mark.parametrize("line,first,listeners,http", [
    ("kgroupsd listening on 127.0.0.1:1, http on 127.0.0.1:9", "PLAINTEXT",
     {"PLAINTEXT": "127.0.0.1:1"}, "127.0.0.1:9"),
    ("kgroupsd listening on 127.0.0.1:1,127.0.0.1:2", "PLAINTEXT",
     {"PLAINTEXT": "127.0.0.1:1,127.0.0.1:2"}, None),
    ("kgroupsd listening on 127.0.0.1:1, SASL_SSL on 127.0.0.1:2,127.0.0.1:3, http on [::1]:9",
     "PLAINTEXT", {"PLAINTEXT": "127.0.0.1:1", "SASL_SSL": "127.0.0.1:2,127.0.0.1:3"}, "[::1]:9"),
    ("kgroupsd listening on 127.0.0.1:2, http on 127.0.0.1:9", "SASL_SSL",
     {"SASL_SSL": "127.0.0.1:2"}, "127.0.0.1:9")])
def test_ready_lines_old_and_new(line, first, listeners, http):
    assert parse_ready_line(line, first) == (listeners, http)


@pytest.mark.parametrize("line", ["kgroupsd starting", "kgroupsd listening on , http on x:1",
                                  "kgroupsd listening on 1.2.3.4:1, SASL_SSL 1.2.3.4:2"])
def test_other_lines_are_not_ready_lines(line):
    with pytest.raises(ValueError):
        parse_ready_line(line)


def test_confluent_config_for_scram_over_sasl_ssl():
    security = kgroups.Security(("PLAINTEXT", "SASL_SSL"), users={"alice": "a", "bob": "b"})
    assert confluent_kafka_config(security, LISTENERS, CERTS, user="alice",
                                  mechanism="SCRAM-SHA-256") == {
        "bootstrap.servers": "127.0.0.1:2", "security.protocol": "SASL_SSL",
        "ssl.ca.location": "/certs/ca.pem", "sasl.mechanisms": "SCRAM-SHA-256",
        "sasl.username": "alice", "sasl.password": "a"}
    plain = confluent_kafka_config(security, LISTENERS, CERTS, user="bob", mechanism="PLAIN",
                                   password="wrong")
    assert (plain["sasl.mechanisms"], plain["sasl.password"]) == ("PLAIN", "wrong")
    assert confluent_kafka_config(security, LISTENERS, CERTS, protocol="PLAINTEXT") == {
        "bootstrap.servers": "127.0.0.1:1", "security.protocol": "PLAINTEXT"}


def test_confluent_config_for_oauthbearer_and_client_certificates():
    security = kgroups.Security("SASL_SSL", client_auth="required")
    assert confluent_kafka_config(security, LISTENERS, CERTS, user="carol",
                                  mechanism="OAUTHBEARER") == {
        "bootstrap.servers": "127.0.0.1:2", "security.protocol": "SASL_SSL",
        "ssl.ca.location": "/certs/ca.pem", "ssl.certificate.location": "/certs/client-cert.pem",
        "ssl.key.location": "/certs/client-key.pem", "sasl.mechanisms": "OAUTHBEARER",
        "enable.sasl.oauthbearer.unsecure.jwt": "true",
        "sasl.oauthbearer.config": "principal=carol"}


def test_defaults_the_only_user_and_scram_sha_256():
    security = kgroups.Security("SASL_PLAINTEXT", users={"alice": "a"})
    config = confluent_kafka_config(security, LISTENERS, None)
    assert (config["sasl.username"], config["sasl.mechanisms"]) == ("alice", "SCRAM-SHA-256")
    assert "ssl.ca.location" not in config


@pytest.mark.parametrize("fields,choice,message", [
    ({"users": {"a": "1", "b": "2"}}, {}, "name the user"),
    ({"users": {"a": "1"}}, {"user": "zed"}, "not in the Broker's users"),
    ({"users": {"a": "1"}, "mechanisms": ["PLAIN"]}, {"mechanism": "SCRAM-SHA-512"},
     "not enabled"),
    ({"listeners": "SSL"}, {"user": "a"}, "takes no SASL user"),
    ({}, {"protocol": "SSL"}, "no SSL listener")])
def test_client_config_refusals_say_what_to_do(fields, choice, message):
    listeners = {"SASL_SSL": "h:2"} if "listeners" not in fields else {"SSL": "h:3"}
    with pytest.raises(ValueError, match=message):
        confluent_kafka_config(kgroups.Security(**fields), listeners, CERTS, **choice)


def test_kafka_python_config():
    security = kgroups.Security("SASL_SSL", users={"alice": "a"}, client_auth="requested")
    config = kafka_python_config(security, {"SASL_SSL": "h:1,h:2"}, CERTS, user="alice",
                                 mechanism="SCRAM-SHA-512")
    assert config == {"bootstrap_servers": ["h:1", "h:2"], "security_protocol": "SASL_SSL",
                      "ssl_cafile": "/certs/ca.pem", "ssl_certfile": "/certs/client-cert.pem",
                      "ssl_keyfile": "/certs/client-key.pem", "sasl_mechanism": "SCRAM-SHA-512",
                      "sasl_plain_username": "alice", "sasl_plain_password": "a"}
    oauth = kafka_python_config(security, {"SASL_SSL": "h:1"}, CERTS, user="carol",
                                mechanism="OAUTHBEARER")
    provider = oauth["sasl_oauth_token_provider"]
    assert decode_claims(provider.token())["sub"] == "carol" and provider.extensions() == {}


def decode_claims(token):
    header, claims, signature = token.split(".")
    padded = lambda part: part + "=" * (-len(part) % 4)  # noqa: E731
    assert json.loads(base64.urlsafe_b64decode(padded(header))) == {"alg": "none"}
    assert signature == ""
    return json.loads(base64.urlsafe_b64decode(padded(claims)))


def test_unsecured_jws_claims():
    claims = decode_claims(unsecured_jws("alice", lifetime_s=60, scope="read"))
    assert claims["sub"] == "alice" and claims["exp"] - claims["iat"] == 60
    assert claims["scope"] == "read"


def fake_kgroupsd(folder: pathlib.Path) -> pathlib.Path:
    """A kgroupsd that writes its arguments to folder/arguments and prints a ready line with
    a PLAINTEXT and a SASL_SSL listener."""
    path = folder / "kgroupsd"
    path.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {folder}/arguments\n"
                    "echo 'kgroupsd listening on 127.0.0.1:1, SASL_SSL on 127.0.0.1:2, http on "
                    "127.0.0.1:3'\nexec sleep 30\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_a_secured_broker_passes_listeners_users_and_fresh_certificates(tmp_path, monkeypatch):
    cli = os.environ.get("KGROUPS_CLI") or shutil.which("kgroups")
    if not cli:
        pytest.skip("no kgroups CLI (set KGROUPS_CLI)")
    monkeypatch.setenv("KGROUPS_CLI", cli)
    security = kgroups.Security(("PLAINTEXT", "SASL_SSL"), users={"alice": "secret"})
    broker = kgroups.Broker(kgroupsd=fake_kgroupsd(tmp_path), security=security)
    try:
        arguments = (tmp_path / "arguments").read_text().splitlines()
        assert "--listen" not in arguments
        assert arguments[arguments.index("--listeners") + 1] == (
            "PLAINTEXT://127.0.0.1:0,SASL_SSL://127.0.0.1:0")
        users = pathlib.Path(arguments[arguments.index("--sasl-users") + 1])
        assert users.read_text() == "alice:secret\n"
        assert stat.S_IMODE(users.stat().st_mode) == 0o600
        keystore = pathlib.Path(arguments[arguments.index("--ssl-keystore-location") + 1])
        assert keystore == broker.certs / "broker.pem" and keystore.is_file()
        assert broker.bootstrap_servers == "127.0.0.1:1"
        assert broker.listeners == {"PLAINTEXT": "127.0.0.1:1", "SASL_SSL": "127.0.0.1:2"}
        assert broker.client_config()["bootstrap.servers"] == "127.0.0.1:2"
    finally:
        broker.stop()
    assert not users.exists() and not keystore.exists()


def test_a_secured_broker_refuses_a_listeners_flag_of_its_own(tmp_path):
    with pytest.raises(ValueError, match="kgroups.Security"):
        kgroups.Broker(kgroupsd=fake_kgroupsd(tmp_path), listeners="SSL://127.0.0.1:0")
