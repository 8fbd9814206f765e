# SPDX-License-Identifier: Apache-2.0
"""kgroups.Broker: a kgroupsd for one test, started on free loopback ports, with its control
endpoint (docs/HTTP-API.md) as methods.

    with kgroups.Broker(topics={"orders": 3}, manual_clock=True) as broker:
        producer = Producer({"bootstrap.servers": broker.bootstrap_servers})
        broker.inject(api="Produce", error="NOT_LEADER_OR_FOLLOWER", count=2)
        ...
        assert broker.group("billing")["state"] == "Stable"

Answers are the JSON API's objects as plain dicts and lists (their fields are in
docs/HTTP-API.md). A refused request raises BrokerError with the server's message.
Leaving the `with` block (or stop()) stops kgroupsd; every record and group goes with it.
The methods may be called from several threads; start and stop belong to one owner.

A secured broker (docs/SECURITY.md) takes `security=kgroups.Security(...)`; client_config()
and kafka_python_config() give a client what it needs to log in as a user:

    with kgroups.Broker(security=kgroups.Security("SASL_SSL", users={"alice": "pw"})) as broker:
        producer = Producer(broker.client_config(user="alice", mechanism="SCRAM-SHA-256"))
"""

from __future__ import annotations

import os
import pathlib
import tempfile
import time
import urllib.parse
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeVar

from kgroups._client_config import confluent_kafka_config, kafka_python_config
from kgroups._control_client import BrokerError, ControlClient
from kgroups._event_log import read_events
from kgroups._kgroupsd_command import find_kgroupsd, kgroupsd_arguments
from kgroups._kgroupsd_process import KgroupsdProcess
from kgroups._prometheus_text import metric_families, parse_samples
from kgroups._security import Security
from kgroups._test_certificates import find_kgroups_cli, write_test_certificates

__all__ = ["Broker", "BrokerError", "Security"]

T = TypeVar("T")


class Broker:
    """Starts kgroupsd (the binary: `kgroupsd=`, else $KGROUPSD, else the one shipped in this
    package, else PATH) and waits up to `startup_timeout` seconds until it listens.

    Options become kgroupsd flags: `topics={"orders": 3}` is `--topic orders:3`,
    `manual_clock=True` is `--manual-clock` (group timers move only with advance()),
    `initial_rebalance_delay_ms=0` is `--initial-rebalance-delay-ms 0`, and any other keyword
    `some_flag=value` is `--some-flag value` (True: the bare flag; False/None: left out; a
    list: repeated). `extra_args` are appended as given. `request_timeout` bounds each HTTP
    request.

    `security` (a kgroups.Security, or a dict of its fields) starts secured listeners
    instead of the one PLAINTEXT listener: the users file and, for TLS, a throwaway CA and
    certificates (`kgroups certs`, found as kgroups._test_certificates says) go into a folder
    of the Broker's (`certs`), removed on stop(); its acls are created before the Broker is
    returned.

    `log_dirs` (a folder) keeps every partition's log on disk (`--log-dirs`, docs/STORAGE.md):
    after kill() (kill -9) or stop() (SIGTERM), restart() on the same folder and ports finds
    the topics, records, groups' offsets and transactions again.
    `log_flush_interval_messages` and `log_flush_interval_ms` are kgroupsd's
    `--log-flush-interval-messages` and `--log-flush-interval-ms` (Kafka's
    log.flush.interval.*; 1 message: every batch is on disk before it is acknowledged).
    Left at None, none of these flags is passed: logs live in memory, as by default.

    Raises FileNotFoundError if no kgroupsd (or, for TLS, no kgroups CLI) is found and
    RuntimeError, with kgroupsd's stderr, if it does not start.
    """

    def __init__(self, *, kgroupsd: str | os.PathLike[str] | None = None,
                 topics: Mapping[str, int] | Iterable[str] | None = None,
                 manual_clock: bool = False, initial_rebalance_delay_ms: int | None = None,
                 security: Security | Mapping[str, Any] | None = None,
                 log_dirs: str | os.PathLike[str] | None = None,
                 log_flush_interval_messages: int | None = None,
                 log_flush_interval_ms: int | None = None,
                 extra_args: Iterable[str] = (), startup_timeout: float = 10.0,
                 request_timeout: float = 10.0, **options: Any) -> None:
        flags = {"manual_clock": manual_clock,
                 "initial_rebalance_delay_ms": initial_rebalance_delay_ms,
                 "log_dirs": os.fspath(log_dirs) if log_dirs is not None else None,
                 "log_flush_interval_messages": log_flush_interval_messages,
                 "log_flush_interval_ms": log_flush_interval_ms, **options}
        arguments = kgroupsd_arguments(topics, flags, extra_args)
        binary = find_kgroupsd(kgroupsd)
        self.security: Security | None = (
            Security(**security) if isinstance(security, Mapping) else security)
        # The folder of the users file and the certificates; None without security.
        self._security_folder: tempfile.TemporaryDirectory[str] | None = None
        self.certs: pathlib.Path | None = None
        if self.security is not None:
            arguments = self._prepare_security(self.security, binary) + arguments
        # What restart() starts again.
        self._binary = binary
        self._arguments = arguments
        self._startup_timeout = startup_timeout
        self._log_dirs = log_dirs
        try:
            self._process = KgroupsdProcess(
                binary, arguments, startup_timeout,
                self.security.listeners if self.security is not None else None)
        except BaseException:
            self._remove_security_folder()
            raise
        self.bootstrap_servers: str = self._process.kafka_address
        # Every listener's bootstrap addresses by protocol ({"PLAINTEXT": ...} unsecured).
        self.listeners: dict[str, str] = dict(self._process.listeners)
        self.http_url: str = "http://" + self._process.http_address
        self._client = ControlClient(self.http_url, request_timeout, self._describe_exit)
        if self.security is not None and self.security.acls:
            try:
                self.add_acls(self.security.acls)
            except BaseException:
                self.stop()
                raise

    def _prepare_security(self, security: Security, binary: pathlib.Path) -> list[str]:
        self._security_folder = tempfile.TemporaryDirectory(prefix="kgroups-security-")
        folder = pathlib.Path(self._security_folder.name)
        try:
            users_file = None
            if security.users:
                users_file = folder / "users"
                users_file.touch(mode=0o600)
                users_file.write_text(security.users_file_text())
            if security.certs is not None:
                self.certs = pathlib.Path(security.certs)
            elif security.uses_tls:
                self.certs = folder / "certs"
                write_test_certificates(find_kgroups_cli(binary), self.certs,
                                        security.client_cn)
            return security.flags(users_file, self.certs)
        except BaseException:
            self._remove_security_folder()
            raise

    def _remove_security_folder(self) -> None:
        if self._security_folder is not None:
            self._security_folder.cleanup()

    # --- The process ------------------------------------------------------------------------
    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def command(self) -> list[str]:
        """The kgroupsd command line that was started."""
        return list(self._process.command)

    def log(self) -> str:
        """kgroupsd's log (its stderr) so far; also after stop()."""
        return self._process.log()

    def stop(self, timeout: float = 10.0) -> int:
        """Stops kgroupsd (SIGTERM; SIGKILL after `timeout` s); returns its exit code, 0 for a
        clean shutdown. Calling it again returns the same code."""
        code = self._process.stop(timeout)
        self._remove_security_folder()
        return code

    close = stop

    def kill(self) -> int:
        """kill -9: the broker dies at once, flushing, closing and checkpointing nothing (with
        log_dirs, what it kept on disk is recovered by restart()); waits until it is gone.
        Returns its exit code (-9; a broker already stopped: its code)."""
        return self._process.kill()

    def restart(self) -> None:
        """Starts kgroupsd again after stop() or kill(), with the same arguments, log
        directory and ports, and waits until it is ready: clients reconnect to the same
        bootstrap servers. Without log_dirs it starts empty, as a restarted Kafka without disks.
        Raises RuntimeError if the broker still runs or does not start."""
        if self._process.returncode() is None:
            raise RuntimeError("restart() needs a stopped broker: call stop() or kill() first")
        if self.security is not None:
            raise RuntimeError("restart() supports the PLAINTEXT listener only")
        http_address = self.http_url.removeprefix("http://")
        # The ports were free ones the system picked: one may still be held for a moment (a
        # client's outgoing connection can get it as its local port), so a refused bind is
        # tried again until startup_timeout.
        deadline = time.monotonic() + self._startup_timeout
        while True:
            try:
                self._process = KgroupsdProcess(
                    self._binary, self._arguments, max(deadline - time.monotonic(), 1.0),
                    listen=self.bootstrap_servers, http=http_address)
                return
            except RuntimeError as error:
                if "Address already in use" not in str(error) or time.monotonic() >= deadline:
                    raise
            time.sleep(0.1)

    @property
    def log_dirs(self) -> pathlib.Path | None:
        """The log directory given (log_dirs=...), or None when logs are in memory."""
        return pathlib.Path(self._log_dirs) if self._log_dirs is not None else None

    def __enter__(self) -> Broker:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<kgroups.Broker {self.bootstrap_servers} http={self.http_url}>"

    # --- Clients of a secured broker --------------------------------------------------------
    def client_config(self, user: str | None = None, mechanism: str | None = None, *,
                      protocol: str | None = None,
                      password: str | None = None) -> dict[str, str]:
        """confluent-kafka's (librdkafka's) settings to reach the broker as `user` with SASL
        `mechanism`: bootstrap.servers and security.protocol; ssl.ca.location for TLS (and
        ssl.certificate.location, ssl.key.location with client_auth); sasl.mechanisms with
        sasl.username and sasl.password, or for OAUTHBEARER an unsecured JWS token
        (enable.sasl.oauthbearer.unsecure.jwt, sasl.oauthbearer.config "principal=USER").

        `protocol` picks the listener (default: the first SASL one when a user or mechanism
        is named, else the first that is not PLAINTEXT);
        `mechanism` defaults to SCRAM-SHA-256 when enabled, `user` to the only user;
        `password` overrides the user's (e.g. a wrong one). Unsecured brokers give just
        bootstrap.servers. Raises ValueError for a listener, mechanism or user the broker
        does not have."""
        return confluent_kafka_config(self._client_security(), self.listeners, self.certs,
                                      protocol=protocol, user=user, mechanism=mechanism,
                                      password=password)

    def kafka_python_config(self, user: str | None = None, mechanism: str | None = None, *,
                            protocol: str | None = None,
                            password: str | None = None) -> dict[str, Any]:
        """kafka-python's keyword arguments for the same (see client_config()):
        bootstrap_servers, security_protocol, ssl_cafile (ssl_certfile, ssl_keyfile),
        sasl_mechanism with sasl_plain_username and sasl_plain_password, or
        sasl_oauth_token_provider for OAUTHBEARER. Use as KafkaProducer(**config)."""
        return kafka_python_config(self._client_security(), self.listeners, self.certs,
                                   protocol=protocol, user=user, mechanism=mechanism,
                                   password=password)

    def add_acls(self, acls: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> Any:
        """Creates ACLs through POST /v1/acls: one or a list of dicts with resource_type,
        resource_name, pattern_type, principal, host, operation and permission (Kafka's
        names, e.g. {"resource_type": "TOPIC", "resource_name": "orders", "pattern_type":
        "LITERAL", "principal": "User:alice", "host": "*", "operation": "WRITE",
        "permission": "ALLOW"}). Returns the server's answer; BrokerError if refused."""
        body = dict(acls) if isinstance(acls, Mapping) else [dict(acl) for acl in acls]
        return self._client.post("/v1/acls", body)

    def _client_security(self) -> Security:
        return self.security if self.security is not None else Security("PLAINTEXT")

    # --- Topics and groups ------------------------------------------------------------------
    def topics(self) -> list[dict[str, Any]]:
        """Every topic with its partitions (log start, end offset, bytes)."""
        return self._client.get("/v1/topics")["topics"]

    def topic(self, name: str) -> dict[str, Any]:
        """One topic with its partitions and configs; BrokerError (status 404) if unknown."""
        return self._client.get("/v1/topics/" + _path_part(name))

    def groups(self) -> list[dict[str, Any]]:
        """Every group's summary: group_id, type, state, protocol, generation, members."""
        return self._client.get("/v1/groups")["groups"]

    def group(self, group_id: str) -> dict[str, Any]:
        """One group in full: state, generation, leader, members with their assignment,
        offsets with committed, end_offset and lag, total lag. BrokerError (404) if unknown."""
        return self._client.get("/v1/groups/" + _path_part(group_id))

    # --- Faults -----------------------------------------------------------------------------
    def inject(self, api: str | int | None = None, error: str | int | None = None,
               count: int = 1, topic: str | None = None, partition: int | None = None,
               group: str | None = None, latency_ms: int | None = None, close: bool = False,
               coordinator: str | None = None) -> dict[str, Any]:
        """Arms a fault and returns it (with its `id` and `remaining` count): the next `count`
        requests of `api` (a name like "Produce" or a key) matching `topic`/`partition` or
        `group` answer `error` (a Kafka error name or code), or are delayed by `latency_ms`,
        or have their connection closed (`close=True`). `coordinator="unavailable"|"moved"`
        takes the group coordinator away instead. count=-1 lasts until removed."""
        body: dict[str, Any] = {"count": count}
        for key, value in (("api", api), ("error", error), ("topic", topic),
                           ("partition", partition), ("group", group),
                           ("latency_ms", latency_ms), ("coordinator", coordinator)):
            if value is not None:
                body[key] = value
        if close:
            body["close"] = True
        return self._client.post("/v1/faults", body)

    def coordinator_unavailable(self, count: int = 1, group: str | None = None) -> dict[str, Any]:
        """FindCoordinator and the group APIs answer COORDINATOR_NOT_AVAILABLE for the next
        `count` requests (of `group` only, if given). Returns the fault."""
        return self.inject(coordinator="unavailable", count=count, group=group)

    def coordinator_moved(self, count: int = 1, group: str | None = None) -> dict[str, Any]:
        """The group APIs answer NOT_COORDINATOR for the next `count` requests. Returns the
        fault."""
        return self.inject(coordinator="moved", count=count, group=group)

    # --- The cluster (brokers=N) ------------------------------------------------------------
    def cluster(self) -> dict[str, Any]:
        """The brokers of the cluster (`Broker(brokers=3)`): each with its id, address, state
        (running, stopped, isolated) and the partitions it leads, and the controller."""
        return self._client.get("/v1/brokers")

    def leader(self, topic: str, partition: int = 0) -> int:
        """The node id leading `topic`'s `partition` now (-1: none)."""
        return self.topic(topic)["partitions"][partition]["leader"]

    def stop_broker(self, node: int) -> dict[str, Any]:
        """Stops broker `node`: its listener refuses, its connections close, the partitions it
        led elect new leaders from their in-sync replicas. Returns the broker."""
        return self._client.post(f"/v1/brokers/{int(node)}/stop", {})

    def start_broker(self, node: int) -> dict[str, Any]:
        """Starts a stopped or isolated broker again; its replicas catch up and rejoin the ISR."""
        return self._client.post(f"/v1/brokers/{int(node)}/start", {})

    def isolate_broker(self, node: int) -> dict[str, Any]:
        """Cuts broker `node` from the controller and replication while it still answers its
        clients, believing it leads what it led: its acks=all writes never succeed."""
        return self._client.post(f"/v1/brokers/{int(node)}/isolate", {})

    def delay_replication(self, node: int, ms: int) -> dict[str, Any]:
        """Broker `node`'s followers fetch only every `ms` milliseconds (0: at once); beyond
        --replica-lag-time-max-ms they leave the ISR."""
        return self._client.post(f"/v1/brokers/{int(node)}/replication-delay", {"ms": int(ms)})

    def faults(self) -> list[dict[str, Any]]:
        """The faults armed now, each with its `id` and `remaining` count."""
        return self._client.get("/v1/faults")["faults"]

    def remove_fault(self, fault: Mapping[str, Any] | int | str) -> None:
        """Disarms one fault, given as returned by inject() or by its id; BrokerError (404)
        if it is not armed (any more)."""
        fault_id = fault["id"] if isinstance(fault, Mapping) else fault
        self._client.delete(f"/v1/faults/{_path_part(str(fault_id))}")

    def clear_faults(self) -> None:
        """Disarms every fault."""
        self._client.delete("/v1/faults")

    # --- Clock ------------------------------------------------------------------------------
    def clock(self) -> dict[str, Any]:
        """The coordinator clock: {"manual": bool, "now_ms": int}."""
        return self._client.get("/v1/clock")

    def advance(self, ms: int) -> int:
        """Moves the manual clock forward by `ms` and applies every group timer that became due
        (expired sessions, finished rebalance delays) before returning the clock's now_ms.
        BrokerError (409) unless started with manual_clock=True."""
        return self._client.post("/v1/clock/advance", {"ms": ms})["now_ms"]

    # --- Events -----------------------------------------------------------------------------
    def events(self, since: int | None = None, type: str | Iterable[str] | None = None,
               group: str | None = None) -> list[dict[str, Any]]:
        """The events the broker kept (its last 1,000), oldest first: those after event id
        `since`, of `type` (a name such as "rebalance_completed", or several) and of `group`
        (then topic events are left out). Each is a dict with id, time_ms, type and the
        type's fields (docs/HTTP-API.md, "Events")."""
        types = [type] if isinstance(type, str) else type
        return read_events(self._client, since, types, group)

    # --- Metrics ----------------------------------------------------------------------------
    def metrics(self) -> str:
        """GET /metrics: the Prometheus text."""
        return self._client.text("/metrics")

    def metric(self, name: str, **labels: str) -> float:
        """The sum of metric `name`'s samples whose labels include `labels` (0.0 if none has
        them yet), e.g. metric("kgroupsd_requests_total", api="Produce"). KeyError if
        kgroupsd has no metric of that name."""
        text = self.metrics()
        if name not in metric_families(text):
            raise KeyError(f"kgroupsd has no metric {name!r}")
        return sum(value for sample, sample_labels, value in parse_samples(text)
                   if sample == name and all(sample_labels.get(key) == str(wanted)
                                             for key, wanted in labels.items()))

    # --- Waiting ----------------------------------------------------------------------------
    def wait_for(self, predicate: Callable[[], T], timeout: float = 10.0,
                 interval: float = 0.02, message: str | None = None) -> T:
        """Calls `predicate()` until it returns something truthy, and returns that. A
        BrokerError with status 404 (the group or topic does not exist yet) counts as not
        yet. Raises TimeoutError after `timeout` seconds, naming `message` and the last
        result."""
        deadline = time.monotonic() + timeout
        last: Any = None
        while True:
            try:
                last = predicate()
                if last:
                    return last
            except BrokerError as error:
                if error.status != 404:
                    raise
                last = error
            if time.monotonic() >= deadline:
                what = message or getattr(predicate, "__name__", "the condition")
                raise TimeoutError(f"{what}: not true within {timeout:g} s; last: {last!r}")
            time.sleep(interval)

    def wait_for_group(self, group_id: str, state: str | None = "Stable",
                       members: int | None = None, timeout: float = 10.0) -> dict[str, Any]:
        """Waits until group `group_id` exists, is in `state` (None: any) and has `members`
        members (None: any number); returns the group."""

        def group_as_wanted() -> dict[str, Any] | None:
            group = self.group(group_id)
            if state is not None and group["state"] != state:
                return None
            if members is not None and len(group["members"]) != members:
                return None
            return group

        wanted = f"group {group_id!r} in state {state}" + (
            f" with {members} member(s)" if members is not None else "")
        return self.wait_for(group_as_wanted, timeout, message=wanted)

    def wait_for_event(self, type: str, group: str | None = None, since: int | None = None,
                       where: Callable[[dict[str, Any]], bool] | None = None,
                       timeout: float = 10.0) -> dict[str, Any]:
        """Waits for an event of `type` (of `group`, after id `since`, satisfying `where`) and
        returns the first such event."""

        def first_match() -> dict[str, Any] | None:
            for event in self.events(since=since, type=type, group=group):
                if where is None or where(event):
                    return event
            return None

        return self.wait_for(first_match, timeout,
                             message=f"an event {type!r}" + (f" of group {group!r}"
                                                             if group else ""))

    def _describe_exit(self) -> str:
        code = self._process.returncode()
        if code is None:
            return ""
        return f"; kgroupsd exited with code {code}, its log:\n{self._process.log()}"


def _path_part(text: str) -> str:
    """`text` as one URL path segment."""
    return urllib.parse.quote(text, safe="")
