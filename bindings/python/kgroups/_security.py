# SPDX-License-Identifier: Apache-2.0
"""kgroups.Security: what a secured Broker listens with, as plain data, and the kgroupsd flags
it becomes (docs/SECURITY.md names the flags after Kafka's configs).

    Security(listeners="SASL_SSL", users={"alice": "alice-secret"})

A Broker given one writes the users file and, for a TLS listener or client authentication,
a throwaway CA and certificates (`kgroups certs`) into a folder of its own, and starts
kgroupsd with --listeners instead of --listen. Immutable; safe to share between threads.
"""

from __future__ import annotations

import dataclasses
import pathlib
from typing import Any, Mapping, Sequence

PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER")
CLIENT_AUTH = ("none", "requested", "required")


@dataclasses.dataclass(frozen=True)
class Security:
    """A secured Broker's listeners and who may use them.

    listeners: the listeners' security protocols in order, each on a free loopback port:
        "SASL_SSL", or several such as ("PLAINTEXT", "SASL_SSL"). The first is
        Broker.bootstrap_servers; Broker.listeners has them all.
    mechanisms: SASL mechanisms kgroupsd enables (None: all four, PLAIN, SCRAM-SHA-256,
        SCRAM-SHA-512, OAUTHBEARER).
    users: {name: password} for PLAIN and both SCRAMs (OAUTHBEARER takes any name).
    client_auth: "none", "requested" or "required" (ssl.client.auth); with a client
        certificate the principal is User:CN=<client_cn>.
    super_users: names ("admin") or principals ("User:admin") the authorizer lets do anything.
    acls: ACLs to create once kgroupsd is up, as the HTTP API's POST /v1/acls takes them
        (dicts with resource_type, resource_name, pattern_type, principal, host, operation,
        permission).
    allow_everyone: allow.everyone.if.no.acl.found.
    certs: a folder `kgroups certs` wrote, to use instead of a fresh throwaway CA.
    Raises ValueError for an unknown protocol, mechanism or client_auth, and TypeError for
    users that is not a mapping of str to str.
    """

    listeners: str | Sequence[str] = "SASL_SSL"
    mechanisms: Sequence[str] | None = None
    users: Mapping[str, str] = dataclasses.field(default_factory=dict)
    client_auth: str = "none"
    client_cn: str = "client"
    super_users: Sequence[str] = ()
    acls: Sequence[Mapping[str, Any]] = ()
    allow_everyone: bool = False
    certs: str | pathlib.Path | None = None

    def __post_init__(self) -> None:
        protocols = (self.listeners,) if isinstance(self.listeners, str) else tuple(self.listeners)
        _check_choices("listeners", protocols, PROTOCOLS)
        if not protocols or len(set(protocols)) != len(protocols):
            raise ValueError(f"listeners: name each protocol once, got {list(protocols)}")
        object.__setattr__(self, "listeners", protocols)
        if self.mechanisms is not None:
            mechanisms = (self.mechanisms,) if isinstance(self.mechanisms, str) else tuple(
                self.mechanisms)
            _check_choices("mechanisms", mechanisms, MECHANISMS)
            object.__setattr__(self, "mechanisms", mechanisms)
        _check_choices("client_auth", (self.client_auth,), CLIENT_AUTH)
        if self.client_auth != "none" and not self.uses_tls:
            raise ValueError(f"client_auth={self.client_auth!r} needs an SSL or SASL_SSL "
                             "listener")
        if not isinstance(self.users, Mapping) or not all(
                isinstance(name, str) and isinstance(password, str) and name and ":" not in name
                and "\n" not in name + password for name, password in self.users.items()):
            raise TypeError('users must map names (without ":") to passwords (neither with a '
                            'line break), e.g. {"alice": "alice-secret"}')
        object.__setattr__(self, "users", dict(self.users))
        supers = (self.super_users,) if isinstance(self.super_users, str) else self.super_users
        object.__setattr__(self, "super_users", tuple(supers))
        object.__setattr__(self, "acls", tuple(self.acls))

    @property
    def uses_tls(self) -> bool:
        """Whether kgroupsd needs certificates: a TLS listener, or client certificates."""
        return any(protocol in ("SSL", "SASL_SSL") for protocol in self.listeners)

    @property
    def enabled_mechanisms(self) -> tuple[str, ...]:
        return tuple(self.mechanisms) if self.mechanisms is not None else MECHANISMS

    def flags(self, users_file: pathlib.Path | None,
              certs: pathlib.Path | None) -> list[str]:
        """kgroupsd's flags: --listeners with port 0 each, the key material in `certs`, the
        users file, the mechanisms and the authorizer's settings."""
        flags = ["--listeners", ",".join(f"{protocol}://127.0.0.1:0"
                                         for protocol in self.listeners)]
        if certs is not None:
            flags += ["--ssl-keystore-location", str(certs / "broker.pem")]
            if self.client_auth != "none":
                flags += ["--ssl-truststore-location", str(certs / "ca.pem"),
                          "--ssl-client-auth", self.client_auth]
        if self.mechanisms is not None:
            flags += ["--sasl-enabled-mechanisms", ",".join(self.mechanisms)]
        if users_file is not None:
            flags += ["--sasl-users", str(users_file)]
        if self.super_users:
            flags += ["--super-users", ";".join(principal_of(name) for name in self.super_users)]
        if self.allow_everyone:
            flags.append("--allow-everyone-if-no-acl-found")
        return flags

    def users_file_text(self) -> str:
        """The --sasl-users file: USER:PASSWORD per line."""
        return "".join(f"{name}:{password}\n" for name, password in self.users.items())


Security.__module__ = "kgroups"  # users name it kgroups.Security


def principal_of(name: str) -> str:
    """"alice" as "User:alice"; a principal ("User:alice") as it is."""
    return name if ":" in name else f"User:{name}"


def _check_choices(what: str, given: Sequence[str], choices: Sequence[str]) -> None:
    for value in given:
        if value not in choices:
            raise ValueError(f"{what}: {value!r} is not one of {', '.join(choices)}")
