# SPDX-License-Identifier: Apache-2.0
"""Share groups (KIP-932) seen and configured from outside, against kgroupsd: the HTTP API's
group views (GET /v1/groups and /v1/groups/{id}: members with the records they hold, each
share-partition's offsets, records in flight and totals), the events of members and of
records released for redelivery, /metrics' share gauges, and the share group configs through
IncrementalAlterConfigs and DescribeConfigs on the group resource (type 32). Driven by raw
requests (share_wire.py) on the manual clock, so every count is exact."""
import json
import urllib.request

from confluent_kafka import Producer

from flexible_wire import Reader, Writer, exchange
from kip848_wire import consumer_heartbeat, create_topic_v7
from raw_client import RawConnection
from share_wire import acquired_offsets, share_acknowledge, share_fetch, share_heartbeat

ACCEPT, RELEASE = 1, 2
SET, DELETE, APPEND = 0, 1, 2
GROUP_RESOURCE = 32
INVALID_CONFIG, INVALID_REQUEST = 40, 42


def produce(bootstrap, topic, count):
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0})
    for i in range(count):
        producer.produce(topic, value=f"v{i}".encode(), partition=0)
    assert producer.flush(10) == 0


def http(broker, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://{broker.http}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
        return json.loads(text) if response.headers.get_content_type() == "application/json" \
            else text


def advance(broker, ms):
    http(broker, "POST", "/v1/clock/advance", {"ms": ms})


def start(start_kgroupsd, *args):
    broker = start_kgroupsd("--manual-clock", "--http", "127.0.0.1:0", *args)
    admin = RawConnection(broker.bootstrap)
    created = create_topic_v7(admin, "jobs", 1)
    assert created["error"] == 0, created
    return broker, admin, created["id"]


def join(connection, member, group="workers"):
    joined = share_heartbeat(connection, group, member, 0, ["jobs"])
    assert joined["error"] == 0, joined
    return joined


def events(broker, event_type):
    return [e for e in http(broker, "GET", "/v1/events/log") if e["type"] == event_type]


def test_group_view_shows_members_records_held_and_share_partition_state(start_kgroupsd):
    broker, admin, topic_id = start(start_kgroupsd)
    a, b = RawConnection(broker.bootstrap), RawConnection(broker.bootstrap)
    join(a, "member-a")
    join(b, "member-b")
    produce(broker.bootstrap, "jobs", 5)
    fetched = share_fetch(a, "workers", "member-a", 0, {topic_id: [0]}, max_records=3,
                          max_wait_ms=2000)
    assert acquired_offsets(fetched, topic_id) == {0: 1, 1: 1, 2: 1}
    acked = share_acknowledge(a, "workers", "member-a", 1,
                              {topic_id: {0: [(0, 0, [ACCEPT]), (1, 1, [RELEASE])]}})
    assert acked["topics"][topic_id][0]["error"] == 0, acked

    listed = {g["group_id"]: g for g in http(broker, "GET", "/v1/groups")["groups"]}
    assert listed["workers"] == {"group_id": "workers", "type": "share", "state": "Stable",
                                 "protocol_type": "share", "protocol": "simple",
                                 "generation": 2, "members": 2, "coordinator": 0}

    group = http(broker, "GET", "/v1/groups/workers")
    assert group["type"] == "share" and group["offsets"] == [] and group["lag"] == 0
    members = {m["member_id"]: m for m in group["members"]}
    assert members["member-a"]["records_held"] == 1
    assert members["member-b"]["records_held"] == 0
    assert members["member-a"]["assignment"] == [{"topic": "jobs", "partitions": [0]}]
    assert group["share_partitions"] == [{
        "topic": "jobs", "partition": 0, "start_offset": 1, "end_offset": 3,
        "in_flight": {"available": 1, "acquired": 1, "acknowledged": 0, "archived": 0},
        "totals": {"deliveries": 3, "redeliveries": 0, "accepted": 1, "released": 1,
                   "rejected": 0, "archived_by_limit": 0, "locks_expired": 0}}]
    assert group["share_settings"] == {
        "share.record.lock.duration.ms": 30000, "share.auto.offset.reset": "latest",
        "share.delivery.count.limit": 5, "share.partition.max.record.locks": 2000,
        "share.session.timeout.ms": 45000, "share.heartbeat.interval.ms": 5000}


def test_events_report_members_and_records_released_by_locks_and_departures(start_kgroupsd):
    broker, admin, topic_id = start(start_kgroupsd)
    a, b = RawConnection(broker.bootstrap), RawConnection(broker.bootstrap)
    join(a, "member-a")
    join(b, "member-b")
    produce(broker.bootstrap, "jobs", 2)
    share_fetch(a, "workers", "member-a", 0, {topic_id: [0]}, max_wait_ms=2000)
    advance(broker, 30000)  # a's locks run out; sessions (45 s) still run
    [expired_locks] = events(broker, "records_released")
    assert expired_locks["group_id"] == "workers" and expired_locks["group_type"] == "share"
    assert (expired_locks["reason"], expired_locks["member_id"], expired_locks["records"]) == (
        "lock_expired", None, 2)
    assert expired_locks["partitions"] == [
        {"topic": "jobs", "partition": 0, "released": 2, "archived": 0}]

    again = share_fetch(b, "workers", "member-b", 0, {topic_id: [0]}, max_wait_ms=2000)
    assert acquired_offsets(again, topic_id) == {0: 2, 1: 2}
    assert share_heartbeat(b, "workers", "member-b", -1)["error"] == 0
    [left] = events(broker, "member_left")
    assert (left["member_id"], left["group_type"]) == ("member-b", "share")
    departure = events(broker, "records_released")[1]
    assert (departure["reason"], departure["member_id"], departure["released"]) == (
        "member_left", "member-b", 2)

    advance(broker, 20000)  # a sent no heartbeat for 50 s: its session timed out
    [expired] = events(broker, "member_expired")
    assert (expired["member_id"], expired["group_type"]) == ("member-a", "share")
    joined = [(e["member_id"], e["group_type"]) for e in events(broker, "member_joined")]
    assert joined == [("member-a", "share"), ("member-b", "share")]
    # The redelivery shows in the share-partition's totals too.
    [partition] = http(broker, "GET", "/v1/groups/workers")["share_partitions"]
    assert partition["totals"]["redeliveries"] == 2
    assert partition["totals"]["locks_expired"] == 2


def test_metrics_show_share_groups_members_records_in_flight_and_totals(start_kgroupsd):
    broker, admin, topic_id = start(start_kgroupsd)
    a = RawConnection(broker.bootstrap)
    join(a, "member-a")
    produce(broker.bootstrap, "jobs", 4)
    share_fetch(a, "workers", "member-a", 0, {topic_id: [0]}, max_records=3, max_wait_ms=2000)
    share_acknowledge(a, "workers", "member-a", 1, {topic_id: {0: [(2, 2, [RELEASE])]}})
    lines = set(http(broker, "GET", "/metrics").splitlines())
    labels = 'group="workers",topic="jobs",partition="0"'
    for line in [
            "# TYPE kgroupsd_share_groups gauge", "kgroupsd_share_groups 1",
            'kgroupsd_share_group_members{group="workers"} 1',
            f'kgroupsd_share_records_in_flight{{{labels},state="acquired"}} 2',
            f'kgroupsd_share_records_in_flight{{{labels},state="available"}} 1',
            f'kgroupsd_share_records_in_flight{{{labels},state="acknowledged"}} 0',
            "# TYPE kgroupsd_share_deliveries_total counter",
            f"kgroupsd_share_deliveries_total{{{labels}}} 3",
            f"kgroupsd_share_redeliveries_total{{{labels}}} 0",
            f"kgroupsd_share_released_total{{{labels}}} 1",
            f"kgroupsd_share_archived_by_limit_total{{{labels}}} 0"]:
        assert line in lines, line


# --- IncrementalAlterConfigs v1 and DescribeConfigs v4 on the group resource ---------------

def incremental_alter(connection, resources, validate_only=False):
    """resources: [(type, name, [(config, operation, value)])] -> [(error, message, name)]."""
    def write_config(w, config):
        w.string(config[0]).int8(config[1]).string(config[2]).tags()

    def write_resource(w, resource):
        w.int8(resource[0]).string(resource[1]).array(resource[2], write_config).tags()

    body = Writer(True).array(resources, write_resource).boolean(validate_only).tags()
    reader = Reader(exchange(connection, 44, 1, body.bytes(), flexible=True), True)
    reader.int32()

    def read_response(r):
        row = (r.int16(), r.string(), r.int8(), r.string())
        r.tags()
        return (row[0], row[1], row[3])

    responses = reader.array(read_response)
    reader.finish()
    return responses


def describe_group_configs(connection, group):
    """DescribeConfigs v4 of group resource `group` -> {"error", "message", "configs": {name:
    (value, source, [synonyms])}}."""
    body = (Writer(True).array([group], lambda w, name: w.int8(GROUP_RESOURCE).string(name)
                               .array(None, Writer.string).tags())
            .boolean(True).boolean(False).tags())
    reader = Reader(exchange(connection, 32, 4, body.bytes(), flexible=True), True)
    reader.int32()

    def read_synonym(r):
        synonym = (r.string(), r.string(), r.int8())
        r.tags()
        return synonym

    def read_config(r):
        config = (r.string(), r.string(), r.boolean(), r.int8(), r.boolean(),
                  r.array(read_synonym), r.int8(), r.string())
        r.tags()
        return config

    def read_result(r):
        result = {"error": r.int16(), "message": r.string(), "type": r.int8(),
                  "name": r.string()}
        result["configs"] = {c[0]: (c[1], c[3], c[5]) for c in r.array(read_config)}
        r.tags()
        return result

    [result] = reader.array(read_result)
    reader.finish()
    return result


def test_group_configs_change_the_share_group_and_describe_with_their_source(start_kgroupsd):
    broker, admin, topic_id = start(start_kgroupsd)
    described = describe_group_configs(admin, "workers")
    assert described["error"] == 0 and described["type"] == GROUP_RESOURCE
    assert described["configs"]["share.record.lock.duration.ms"][:2] == ("30000", 5)
    assert list(described["configs"]) == [
        "share.auto.offset.reset", "share.delivery.count.limit", "share.heartbeat.interval.ms",
        "share.partition.max.record.locks", "share.record.lock.duration.ms",
        "share.session.timeout.ms"]

    assert incremental_alter(admin, [(GROUP_RESOURCE, "workers", [
        ("share.record.lock.duration.ms", SET, "5000"),
        ("share.delivery.count.limit", SET, "3"),
        ("share.auto.offset.reset", SET, "earliest")])]) == [(0, None, "workers")]
    configs = describe_group_configs(admin, "workers")["configs"]
    assert configs["share.record.lock.duration.ms"] == (
        "5000", 8, [("share.record.lock.duration.ms", "5000", 8),
                    ("group.share.record.lock.duration.ms", "30000", 5)])
    assert configs["share.delivery.count.limit"][:2] == ("3", 8)
    assert configs["share.partition.max.record.locks"][:2] == ("2000", 5)

    # The group obeys them: earliest starts at the log's start, locks last 5 s.
    produce(broker.bootstrap, "jobs", 2)
    a = RawConnection(broker.bootstrap)
    join(a, "member-a")
    fetched = share_fetch(a, "workers", "member-a", 0, {topic_id: [0]}, max_wait_ms=2000)
    assert fetched["lock_ms"] == 5000
    assert acquired_offsets(fetched, topic_id) == {0: 1, 1: 1}
    advance(broker, 5000)
    [released] = events(broker, "records_released")
    assert released["reason"] == "lock_expired"

    # All or nothing: one bad value refuses the resource, and nothing changes.
    [(error, message, _)] = incremental_alter(admin, [(GROUP_RESOURCE, "workers", [
        ("share.delivery.count.limit", SET, "4"),
        ("share.record.lock.duration.ms", SET, "999")])])
    assert error == INVALID_CONFIG and "share.record.lock.duration.ms" in message, message
    [(error, message, _)] = incremental_alter(admin, [(GROUP_RESOURCE, "workers", [
        ("share.auto.offset.reset", SET, "by_duration:PT1H")])])
    assert error == INVALID_CONFIG and "latest, earliest" in message, message
    [(error, message, _)] = incremental_alter(admin, [(GROUP_RESOURCE, "workers", [
        ("share.delivery.count.limit", SET, "11")])])
    assert error == INVALID_CONFIG, message
    [(error, message, _)] = incremental_alter(admin, [(GROUP_RESOURCE, "workers", [
        ("share.delivery.count", SET, "3")])])
    assert (error, message) == (INVALID_CONFIG, "Unknown group config name: share.delivery.count")
    [(error, _, _)] = incremental_alter(admin, [(GROUP_RESOURCE, "workers", [
        ("share.delivery.count.limit", APPEND, "3")])])
    assert error == INVALID_CONFIG
    assert describe_group_configs(admin, "workers")["configs"]["share.delivery.count.limit"][
        :2] == ("3", 8)

    # validate_only checks and changes nothing; delete goes back to the broker's value.
    assert incremental_alter(admin, [(GROUP_RESOURCE, "workers", [
        ("share.delivery.count.limit", SET, "7")])], validate_only=True) == [(0, None, "workers")]
    assert describe_group_configs(admin, "workers")["configs"]["share.delivery.count.limit"][
        :2] == ("3", 8)
    assert incremental_alter(admin, [(GROUP_RESOURCE, "workers", [
        ("share.delivery.count.limit", DELETE, None)])]) == [(0, None, "workers")]
    assert describe_group_configs(admin, "workers")["configs"]["share.delivery.count.limit"][
        :2] == ("5", 5)
    assert http(broker, "GET", "/v1/groups/workers")["share_settings"][
        "share.record.lock.duration.ms"] == 5000


def test_group_session_timeout_and_heartbeat_interval_configs_apply_to_its_members(
        start_kgroupsd):
    broker, admin, topic_id = start(start_kgroupsd)
    [(error, message, _)] = incremental_alter(admin, [(GROUP_RESOURCE, "workers", [
        ("share.session.timeout.ms", SET, "44999")])])
    assert error == INVALID_CONFIG and "[45000, 60000]" in message, message
    assert incremental_alter(admin, [(GROUP_RESOURCE, "workers", [
        ("share.session.timeout.ms", SET, "60000"),
        ("share.heartbeat.interval.ms", SET, "12000")])]) == [(0, None, "workers")]
    configs = describe_group_configs(admin, "workers")["configs"]
    assert configs["share.session.timeout.ms"][:2] == ("60000", 8)
    assert configs["share.heartbeat.interval.ms"][:2] == ("12000", 8)

    a = RawConnection(broker.bootstrap)
    assert join(a, "member-a")["interval"] == 12000
    advance(broker, 59_000)  # past the broker's 45 s, within the group's 60 s
    assert http(broker, "GET", "/v1/groups/workers")["members"], "removed too early"
    advance(broker, 1_000)
    assert [e["member_id"] for e in events(broker, "member_expired")] == ["member-a"]
    assert http(broker, "GET", "/v1/groups/workers")["members"] == []
    settings = http(broker, "GET", "/v1/groups/workers")["share_settings"]
    assert (settings["share.session.timeout.ms"], settings["share.heartbeat.interval.ms"]) == (
        60000, 12000)


def test_group_session_timeout_range_takes_the_brokers_own_value(start_kgroupsd):
    broker, admin, _ = start(start_kgroupsd, "--group-share-session-timeout-ms", "6000")
    assert incremental_alter(admin, [(GROUP_RESOURCE, "workers", [
        ("share.session.timeout.ms", SET, "6000")])]) == [(0, None, "workers")]
    [(error, message, _)] = incremental_alter(admin, [(GROUP_RESOURCE, "workers", [
        ("share.session.timeout.ms", SET, "5999")])])
    assert error == INVALID_CONFIG and "[6000, 60000]" in message, message
    # The session must outlast the heartbeat interval (reachable here: 6000 <= 15000).
    [(error, message, _)] = incremental_alter(admin, [(GROUP_RESOURCE, "workers", [
        ("share.heartbeat.interval.ms", SET, "6000")])])
    assert error == INVALID_CONFIG and "must be greater than" in message, message
    configs = describe_group_configs(admin, "workers")["configs"]
    assert configs["share.heartbeat.interval.ms"][:2] == ("5000", 5)


def test_group_configs_refuse_a_consumer_groups_id_and_an_empty_id(start_kgroupsd):
    broker, admin, topic_id = start(start_kgroupsd)
    joined = consumer_heartbeat(admin, "orders", "consumer-1", 0, ["jobs"], owned={},
                                rebalance_timeout_ms=30000)
    assert joined["error"] == 0, joined
    [(error, message, _)] = incremental_alter(admin, [(GROUP_RESOURCE, "orders", [
        ("share.delivery.count.limit", SET, "3")])])
    assert error == INVALID_REQUEST and "share groups only" in message, message
    assert describe_group_configs(admin, "orders")["error"] == INVALID_REQUEST
    [(error, _, _)] = incremental_alter(admin, [(GROUP_RESOURCE, "", [
        ("share.delivery.count.limit", SET, "3")])])
    assert error == INVALID_REQUEST
    groups = {g["group_id"]: g["type"] for g in http(broker, "GET", "/v1/groups")["groups"]}
    assert groups == {"orders": "consumer"}
