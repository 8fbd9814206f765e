# SPDX-License-Identifier: Apache-2.0
"""The client settings a test needs to reach a secured Broker as a given user: for
confluent-kafka (librdkafka's names) and for kafka-python. Pure functions of the Broker's
Security, its listener addresses and its certificate folder.

OAUTHBEARER uses Kafka's unsecured JWS tokens (header {"alg":"none"}, claims sub, iat, exp),
which kgroupsd accepts: librdkafka makes them itself (enable.sasl.oauthbearer.unsecure.jwt),
kafka-python gets an UnsecuredTokenProvider.
"""

from __future__ import annotations

import base64
import json
import pathlib
import time
from typing import Any, Mapping

from kgroups._security import Security


class UnsecuredTokenProvider:
    """kafka-python's sasl_oauth_token_provider for an unsecured JWS naming `principal`,
    fresh on every call and valid for `lifetime_s` seconds."""

    def __init__(self, principal: str, lifetime_s: int = 3600, scope: str | None = None) -> None:
        self.principal = principal
        self.lifetime_s = lifetime_s
        self.scope = scope

    def token(self) -> str:
        return unsecured_jws(self.principal, self.lifetime_s, self.scope)

    def extensions(self) -> dict[str, str]:
        return {}


def unsecured_jws(principal: str, lifetime_s: int = 3600, scope: str | None = None) -> str:
    """An unsecured JWS (RFC 7515 with alg "none": no signature) as Kafka's
    OAuthBearerUnsecuredJws reads it: claims sub, iat, exp (and scope when given)."""
    now = int(time.time())
    claims: dict[str, Any] = {"sub": principal, "iat": now, "exp": now + lifetime_s}
    if scope is not None:
        claims["scope"] = scope
    return f"{_base64url({'alg': 'none'})}.{_base64url(claims)}."


def _base64url(value: Mapping[str, Any]) -> str:
    text = json.dumps(value, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(text).rstrip(b"=").decode()


class _Choice:
    """The listener, mechanism and credentials one client configuration is for."""

    def __init__(self, security: Security, listeners: Mapping[str, str], protocol: str | None,
                 user: str | None, mechanism: str | None, password: str | None) -> None:
        self.protocol = protocol or _default_protocol(security, user is not None
                                                      or mechanism is not None)
        if self.protocol not in listeners:
            raise ValueError(f"the broker has no {self.protocol} listener; it has "
                             f"{', '.join(listeners)}")
        self.bootstrap_servers = listeners[self.protocol]
        self.mechanism: str | None = None
        self.user: str | None = None
        self.password: str | None = None
        if not self.protocol.startswith("SASL_"):
            if user is not None or mechanism is not None:
                raise ValueError(f"a {self.protocol} listener takes no SASL user or mechanism "
                                 "(its principal is the client certificate's, or "
                                 "User:ANONYMOUS); pass protocol='SASL_SSL' or the like")
            return
        self.mechanism = mechanism or _default_mechanism(security)
        if self.mechanism not in security.enabled_mechanisms:
            raise ValueError(f"mechanism {self.mechanism!r} is not enabled; the broker has "
                             f"{', '.join(security.enabled_mechanisms)}")
        self.user = user or _only_user(security)
        if self.mechanism != "OAUTHBEARER":
            if password is None and self.user not in security.users:
                raise ValueError(f"user {self.user!r} is not in the Broker's users "
                                 f"({', '.join(security.users) or 'none'}); add it to "
                                 "Security(users=...) or pass password=")
            self.password = password if password is not None else security.users[self.user]

    @property
    def tls(self) -> bool:
        return self.protocol in ("SSL", "SASL_SSL")


def _default_protocol(security: Security, wants_sasl: bool) -> str:
    """The first SASL listener for a user or mechanism, else the first that is not
    PLAINTEXT."""
    sasl = [protocol for protocol in security.listeners if protocol.startswith("SASL_")]
    secured = [protocol for protocol in security.listeners if protocol != "PLAINTEXT"]
    return ((sasl if wants_sasl else []) + secured + list(security.listeners))[0]


def _default_mechanism(security: Security) -> str:
    enabled = security.enabled_mechanisms
    return "SCRAM-SHA-256" if "SCRAM-SHA-256" in enabled else enabled[0]


def _only_user(security: Security) -> str:
    if len(security.users) == 1:
        return next(iter(security.users))
    raise ValueError("name the user: client_config(user='alice', ...) (the Broker has "
                     f"{len(security.users)} users)")


def confluent_kafka_config(security: Security, listeners: Mapping[str, str],
                           certs: pathlib.Path | None, *, protocol: str | None = None,
                           user: str | None = None, mechanism: str | None = None,
                           password: str | None = None) -> dict[str, str]:
    """librdkafka's settings for `user` over `mechanism` on the `protocol` listener."""
    choice = _Choice(security, listeners, protocol, user, mechanism, password)
    config = {"bootstrap.servers": choice.bootstrap_servers,
              "security.protocol": choice.protocol}
    if choice.tls and certs is not None:
        config["ssl.ca.location"] = str(certs / "ca.pem")
        if security.client_auth != "none":
            config["ssl.certificate.location"] = str(certs / "client-cert.pem")
            config["ssl.key.location"] = str(certs / "client-key.pem")
    if choice.mechanism is None:
        return config
    config["sasl.mechanisms"] = choice.mechanism
    if choice.mechanism == "OAUTHBEARER":
        config["enable.sasl.oauthbearer.unsecure.jwt"] = "true"
        config["sasl.oauthbearer.config"] = f"principal={choice.user}"
    else:
        config["sasl.username"] = choice.user or ""
        config["sasl.password"] = choice.password or ""
    return config


def kafka_python_config(security: Security, listeners: Mapping[str, str],
                        certs: pathlib.Path | None, *, protocol: str | None = None,
                        user: str | None = None, mechanism: str | None = None,
                        password: str | None = None) -> dict[str, Any]:
    """kafka-python's keyword arguments for `user` over `mechanism` on the `protocol`
    listener."""
    choice = _Choice(security, listeners, protocol, user, mechanism, password)
    config: dict[str, Any] = {"bootstrap_servers": choice.bootstrap_servers.split(","),
                              "security_protocol": choice.protocol}
    if choice.tls and certs is not None:
        config["ssl_cafile"] = str(certs / "ca.pem")
        if security.client_auth != "none":
            config["ssl_certfile"] = str(certs / "client-cert.pem")
            config["ssl_keyfile"] = str(certs / "client-key.pem")
    if choice.mechanism is None:
        return config
    config["sasl_mechanism"] = choice.mechanism
    if choice.mechanism == "OAUTHBEARER":
        config["sasl_oauth_token_provider"] = UnsecuredTokenProvider(choice.user or "")
    else:
        config["sasl_plain_username"] = choice.user
        config["sasl_plain_password"] = choice.password
    return config
