# SPDX-License-Identifier: Apache-2.0
"""The transaction coordinator failing over with kgroupsd --brokers 3 and confluent-kafka
(librdkafka): a transactional id's coordinator is the leader of its __transaction_state
partition, and that partition's new leader loads the id's state from the log.

A transactional producer commits (and once aborts) transactions while the test stops the broker
coordinating its transactional id between two transactions and, once, inside one (after its
records are acknowledged, before the commit). Afterwards a read_committed consumer reads exactly
the committed records, once each; the coordinator_moved events name the partition; and
`kgroups transactions-log` decodes __transaction_state to the states the transactions went
through, in order (one partition of the topic, so the order is the log's)."""
import collections
import json

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

from cluster_checks import broker_action, events, leader_of, read_partitions, wait_until
from test_cli import run_cli

TIMEOUT_S = 30
TOPIC = "tx-failover-out"
PARTITIONS = 3
TRANSACTIONAL_ID = "tx-failover"
STATE_TOPIC = "__transaction_state"


@pytest.fixture
def cluster(start_kgroupsd):
    return start_kgroupsd("--brokers", "3", "--http", "127.0.0.1:0",
                          "--replica-lag-time-max-ms", "500",
                          "--transaction-state-log-num-partitions", "1")


def create_topic(broker):
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    admin.create_topics([NewTopic(TOPIC, PARTITIONS, 3)])[TOPIC].result(TIMEOUT_S)


def coordinator(broker):
    """The broker leading __transaction_state's one partition: the id's coordinator."""
    wait_until(lambda: leader_of(broker, STATE_TOPIC) >= 0, what="a transaction coordinator")
    return leader_of(broker, STATE_TOPIC)


def transaction_states(broker):
    """The records of __transaction_state for the id, decoded by the CLI: [(state, value)]."""
    first_address = broker.bootstrap.split(",")[0]  # the CLI takes one HOST:PORT
    result = run_cli("transactions-log", "--bootstrap-server", first_address, "--json")
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert all(record["type"] == "TransactionLog" for record in records), records
    return [record["value"] for record in records
            if record["transactional_id"] == TRANSACTIONAL_ID]


def collapse(states):
    """The states without repeats in a row (a transaction logs Ongoing again for each
    AddPartitionsToTxn that adds a partition)."""
    return [state for i, state in enumerate(states) if i == 0 or states[i - 1] != state]


# Each transaction: how it ends, and when the test stops the coordinator ("before" it begins,
# "inside" it: after its records are acknowledged, before it ends).
PLAN = [("commit", None), ("commit", "before"), ("commit", "inside"), ("abort", None),
        ("commit", "before")]


class CoordinatorStopper:
    """Stops the broker coordinating the id, starting the one stopped before (two of the three
    brokers run at every moment)."""

    def __init__(self, broker):
        self.broker = broker
        self.stopped = None

    def stop_coordinator(self):
        if self.stopped is not None:
            broker_action(self.broker, self.stopped, "start")
        self.stopped = coordinator(self.broker)
        broker_action(self.broker, self.stopped, "stop")


def test_transactions_commit_while_their_coordinator_moves(cluster):
    create_topic(cluster)
    producer = Producer({"bootstrap.servers": cluster.bootstrap,
                         "transactional.id": TRANSACTIONAL_ID,
                         "transaction.timeout.ms": 60000})
    producer.init_transactions(TIMEOUT_S)
    stopper = CoordinatorStopper(cluster)
    committed = []
    for step, (ending, stop) in enumerate(PLAN):
        if stop == "before":
            stopper.stop_coordinator()
        producer.begin_transaction()
        values = [f"{step}-{i}" for i in range(20)]
        for i, value in enumerate(values):
            producer.produce(TOPIC, key=str(i), value=value, partition=i % PARTITIONS)
        assert producer.flush(TIMEOUT_S) == 0
        if stop == "inside":
            stopper.stop_coordinator()  # the new coordinator loads the Ongoing transaction
        if ending == "commit":
            producer.commit_transaction(TIMEOUT_S)
            committed += values
        else:
            producer.abort_transaction(TIMEOUT_S)

    read = read_partitions(cluster.bootstrap, TOPIC, PARTITIONS, "tx-failover-reader")
    seen = collections.Counter(value.decode() for records in read.values()
                               for _, value in records)
    assert set(seen) == set(committed), sorted(set(seen) ^ set(committed))
    assert all(count == 1 for count in seen.values()), seen.most_common(3)

    moves = [event for event in events(cluster, "coordinator_moved")
             if "transaction_state_partition" in event]
    assert len(moves) >= 3, moves
    assert all(event["transaction_state_partition"] == 0 for event in moves)

    broker_action(cluster, stopper.stopped, "start")  # every broker runs for the reading
    values = transaction_states(cluster)
    assert len({value["producer_id"] for value in values}) == 1, values
    expected = ["Empty"]
    for ending, _ in PLAN:
        expected += (["Ongoing", "PrepareCommit", "CompleteCommit"] if ending == "commit"
                     else ["Ongoing", "PrepareAbort", "CompleteAbort"])
    assert collapse([value["state"] for value in values]) == expected, values
    for value in values:
        if value["state"] in ("PrepareCommit", "PrepareAbort"):
            assert value["partitions"] == [{"topic": TOPIC, "partitions": [0, 1, 2]}], value
