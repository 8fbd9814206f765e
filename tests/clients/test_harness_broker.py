# SPDX-License-Identifier: Apache-2.0
"""kgroups.Broker and its pytest fixture against the real kgroupsd: start-up on free loopback
ports, options become flags, the control endpoint's answers, BrokerError with the server's
message, a clean stop, and a start-up failure that shows kgroupsd's stderr.

Needs the kgroups package on PYTHONPATH (scripts/test-clients puts the build's there) and
kgroupsd in $KGROUPSD: PYTHONPATH=build/broker/bindings/python KGROUPSD=... pytest <this file>.
"""
import socket

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient

import kgroups

TIMEOUT_S = 30


def produce(broker, topic, count, partition=0):
    producer = Producer({"bootstrap.servers": broker.bootstrap_servers})
    for i in range(count):
        producer.produce(topic, value=b"v%d" % i, partition=partition)
    assert producer.flush(TIMEOUT_S) == 0


def test_the_fixture_starts_a_broker_on_free_loopback_ports(kgroups_broker):
    host, port = kgroups_broker.bootstrap_servers.rsplit(":", 1)
    assert host == "127.0.0.1" and int(port) > 0
    assert kgroups_broker.http_url.startswith("http://127.0.0.1:")
    assert kgroups_broker.http_url != "http://" + kgroups_broker.bootstrap_servers
    metadata = AdminClient({"bootstrap.servers": kgroups_broker.bootstrap_servers}).list_topics(
        timeout=TIMEOUT_S)
    assert len(metadata.brokers) == 1
    assert kgroups_broker.groups() == []
    assert kgroups_broker.faults() == []


@pytest.mark.kgroups_broker(topics={"orders": 3, "payments": 1}, default_partitions=2)
def test_the_marker_options_become_kgroupsd_flags(kgroups_broker):
    assert "--topic" in kgroups_broker.command and "orders:3" in kgroups_broker.command
    topics = {topic["name"]: topic for topic in kgroups_broker.topics()}
    assert {name: len(topic["partitions"]) for name, topic in topics.items()} == {
        "orders": 3, "payments": 1}
    produce(kgroups_broker, "auto-created", 1)  # --default-partitions 2
    assert len(kgroups_broker.topic("auto-created")["partitions"]) == 2


def test_topic_shows_the_end_offsets_of_what_was_produced(kgroups_broker):
    produce(kgroups_broker, "orders", 5, partition=1)
    partitions = {p["partition"]: p for p in kgroups_broker.topic("orders")["partitions"]}
    assert partitions[1]["end_offset"] == 5 and partitions[1]["bytes"] > 0
    assert partitions[0]["end_offset"] == 0


def test_an_unknown_topic_or_group_is_a_broker_error_with_the_servers_message(kgroups_broker):
    with pytest.raises(kgroups.BrokerError) as raised:
        kgroups_broker.group("nobody")
    assert raised.value.status == 404
    assert "nobody" in raised.value.message
    with pytest.raises(kgroups.BrokerError) as raised:
        kgroups_broker.topic("no/such topic")
    assert raised.value.status == 404


def test_a_bad_fault_is_refused_with_the_servers_explanation(kgroups_broker):
    with pytest.raises(kgroups.BrokerError) as raised:
        kgroups_broker.inject(api="Produce", error="NO_SUCH_ERROR")
    assert raised.value.status == 400
    assert "NO_SUCH_ERROR" in raised.value.message
    assert kgroups_broker.faults() == []


def test_faults_are_listed_removed_one_by_one_and_cleared(kgroups_broker):
    first = kgroups_broker.inject(api="Produce", error="NOT_LEADER_OR_FOLLOWER", count=-1,
                                  topic="orders")
    second = kgroups_broker.coordinator_unavailable(count=3, group="billing")
    third = kgroups_broker.inject(api="Fetch", latency_ms=100, count=2)
    assert first["remaining"] == -1 and second["remaining"] == 3
    assert [fault["id"] for fault in kgroups_broker.faults()] == [
        first["id"], second["id"], third["id"]]
    kgroups_broker.remove_fault(first)
    kgroups_broker.remove_fault(second["id"])
    assert [fault["id"] for fault in kgroups_broker.faults()] == [third["id"]]
    with pytest.raises(kgroups.BrokerError) as raised:
        kgroups_broker.remove_fault(first)
    assert raised.value.status == 404
    kgroups_broker.clear_faults()
    assert kgroups_broker.faults() == []


def test_advance_needs_the_manual_clock(kgroups_broker):
    assert kgroups_broker.clock()["manual"] is False
    with pytest.raises(kgroups.BrokerError) as raised:
        kgroups_broker.advance(1000)
    assert raised.value.status == 409


@pytest.mark.kgroups_broker(manual_clock=True)
def test_the_manual_clock_moves_only_when_advanced(kgroups_broker):
    before = kgroups_broker.clock()
    assert before["manual"] is True
    assert kgroups_broker.advance(1500) == before["now_ms"] + 1500
    assert kgroups_broker.clock()["now_ms"] == before["now_ms"] + 1500


def test_metrics_count_requests_by_api(kgroups_broker):
    produce(kgroups_broker, "orders", 3)
    assert kgroups_broker.metric("kgroupsd_requests_total", api="Produce") >= 1
    assert kgroups_broker.metric("kgroupsd_requests_total", api="DeleteTopics") == 0
    assert "kgroupsd_requests_total" in kgroups_broker.metrics()
    with pytest.raises(KeyError):
        kgroups_broker.metric("kgroupsd_no_such_metric")


def test_events_record_a_created_topic(kgroups_broker):
    produce(kgroups_broker, "orders", 1)
    created = kgroups_broker.wait_for_event("topic_created",
                                            where=lambda event: event.get("topic") == "orders")
    assert created["id"] >= 1
    assert kgroups_broker.events(since=created["id"], type="topic_created") == []


def test_wait_for_gives_up_after_its_timeout_naming_what_it_waited_for(kgroups_broker):
    with pytest.raises(TimeoutError, match="group 'never' in state Stable"):
        kgroups_broker.wait_for_group("never", timeout=0.3)


def test_stop_is_a_clean_shutdown_and_frees_the_ports():
    broker = kgroups.Broker()
    host, port = broker.bootstrap_servers.rsplit(":", 1)
    with broker:
        assert broker.groups() == []
    assert broker.stop() == 0  # stopping again gives the same code
    with socket.socket() as probe:
        assert probe.connect_ex((host, int(port))) != 0
    with pytest.raises(kgroups.BrokerError, match="got no answer.*exited with code 0"):
        broker.groups()
    assert "stopped" in broker.log()  # its log outlives it


def test_a_kgroupsd_that_refuses_its_flags_fails_the_start_with_its_stderr():
    with pytest.raises(RuntimeError) as raised:
        kgroups.Broker(default_partitions=0)
    message = str(raised.value)
    assert "exited with code" in message and "--default-partitions" in message
