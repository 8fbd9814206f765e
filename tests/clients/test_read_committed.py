# SPDX-License-Identifier: Apache-2.0
"""confluent-kafka (librdkafka 2.0.2) transactions against kgroupsd, read side: a
transactional producer commits and aborts; a read_committed consumer never sees aborted
records nor those of an open transaction (nor anything after it, the last stable offset
holds there), while a read_uncommitted consumer sees everything. Needs the write side of
transactions (InitProducerId with a transactional id, AddPartitionsToTxn, EndTxn): skipped
while kgroupsd does not advertise EndTxn."""
import time

import pytest
from confluent_kafka import OFFSET_BEGINNING, Consumer, Producer, TopicPartition
from kafka.protocol.admin import ApiVersionRequest

from raw_client import RawConnection

TIMEOUT_S = 30
END_TXN_KEY = 26


def require_transactions(broker):
    connection = RawConnection(broker.bootstrap)
    try:
        keys = {api[0] for api in connection.request(ApiVersionRequest[0]()).api_versions}
    finally:
        connection.close()
    if END_TXN_KEY not in keys:
        pytest.skip("kgroupsd serves no EndTxn: the write side of transactions is not here")


def transactional_producer(bootstrap, transactional_id):
    producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": transactional_id,
                         "transaction.timeout.ms": 60000})
    producer.init_transactions(TIMEOUT_S)
    return producer


def consumer(bootstrap, topic, isolation):
    reader = Consumer({"bootstrap.servers": bootstrap, "group.id": f"rc-{isolation}",
                       "enable.auto.commit": False, "isolation.level": isolation})
    reader.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
    return reader


def read_values(reader, until=None, quiet_s=1.5):
    """The values read once `until` has been read (if given) and nothing more arrived for
    `quiet_s`."""
    values = []
    deadline = time.monotonic() + TIMEOUT_S
    last_arrival = time.monotonic()
    while time.monotonic() < deadline:
        message = reader.poll(0.2)
        if message is not None and message.error() is None:
            values.append(message.value().decode())
            last_arrival = time.monotonic()
        elif (until is None or until in values) and time.monotonic() - last_arrival >= quiet_s:
            return values
    raise AssertionError(f"read timed out with {values}")


def test_aborted_records_are_invisible_to_read_committed_only(start_kgroupsd):
    broker = start_kgroupsd("--topic", "rc-abort:1")
    require_transactions(broker)
    producer = transactional_producer(broker.bootstrap, "rc-abort-tx")
    producer.begin_transaction()
    for i in range(3):
        producer.produce("rc-abort", value=f"aborted-{i}", partition=0)
    producer.flush(TIMEOUT_S)
    producer.abort_transaction(TIMEOUT_S)
    producer.begin_transaction()
    for i in range(3):
        producer.produce("rc-abort", value=f"committed-{i}", partition=0)
    producer.commit_transaction(TIMEOUT_S)

    committed = consumer(broker.bootstrap, "rc-abort", "read_committed")
    uncommitted = consumer(broker.bootstrap, "rc-abort", "read_uncommitted")
    try:
        assert read_values(committed, until="committed-2") == \
            ["committed-0", "committed-1", "committed-2"]
        assert read_values(uncommitted, until="committed-2") == \
            ["aborted-0", "aborted-1", "aborted-2", "committed-0", "committed-1", "committed-2"]
    finally:
        committed.close()
        uncommitted.close()


def test_an_open_transaction_holds_read_committed_until_it_commits(start_kgroupsd):
    broker = start_kgroupsd("--topic", "rc-open:1")
    require_transactions(broker)
    producer = transactional_producer(broker.bootstrap, "rc-open-tx")
    plain = Producer({"bootstrap.servers": broker.bootstrap})
    plain.produce("rc-open", value="plain-before", partition=0)
    assert plain.flush(TIMEOUT_S) == 0
    producer.begin_transaction()
    producer.produce("rc-open", value="pending", partition=0)
    producer.flush(TIMEOUT_S)
    # A plain record after the open transaction waits behind it for read_committed.
    plain.produce("rc-open", value="plain-after", partition=0)
    assert plain.flush(TIMEOUT_S) == 0

    committed = consumer(broker.bootstrap, "rc-open", "read_committed")
    uncommitted = consumer(broker.bootstrap, "rc-open", "read_uncommitted")
    try:
        assert read_values(committed, quiet_s=2) == ["plain-before"]
        assert read_values(uncommitted, until="plain-after") == \
            ["plain-before", "pending", "plain-after"]
        producer.commit_transaction(TIMEOUT_S)
        assert read_values(committed, until="plain-after") == ["pending", "plain-after"]
    finally:
        committed.close()
        uncommitted.close()
