# SPDX-License-Identifier: Apache-2.0
"""Fetch long polling: a fetch waits for min_bytes up to max_wait_ms, wakes as soon as a
produce appends, and never holds up other connections."""
import threading
import time

from kafka.protocol.admin import ApiVersionRequest
from kafka.protocol.fetch import FetchRequest
from kafka.protocol.produce import ProduceRequest

from raw_client import RawConnection, record_batch


def fetch_request(topic, partition, offset, max_wait_ms, min_bytes=1):
    return FetchRequest[4](replica_id=-1, max_wait_time=max_wait_ms, min_bytes=min_bytes,
                           max_bytes=1 << 20, isolation_level=0,
                           topics=[(topic, [(partition, offset, 1 << 20)])])


def produce(connection, topic, partition, records):
    response = connection.request(ProduceRequest[3](
        transactional_id=None, required_acks=1, timeout=1000,
        topics=[(topic, [(partition, record_batch(records))])]))
    [(name, [(index, error, base_offset, log_append_time)])] = response.topics
    assert error == 0
    return base_offset


def test_empty_fetch_waits_for_max_wait(start_kgroupsd):
    broker = start_kgroupsd("--topic", "lp:1")
    connection = RawConnection(broker.bootstrap)
    started = time.monotonic()
    response = connection.request(fetch_request("lp", 0, 0, max_wait_ms=400))
    waited = time.monotonic() - started
    assert 0.35 <= waited < 3, waited
    [(name, [(partition, error, high_watermark, last_stable, aborted, records)])] = response.topics
    assert (error, high_watermark, records) == (0, 0, b"")
    connection.close()


def test_produce_wakes_a_waiting_fetch_and_other_connections_are_not_blocked(start_kgroupsd):
    broker = start_kgroupsd("--topic", "lp:1")
    fetcher = RawConnection(broker.bootstrap)
    other = RawConnection(broker.bootstrap)
    result = {}

    def fetch():
        started = time.monotonic()
        result["response"] = fetcher.request(fetch_request("lp", 0, 0, max_wait_ms=8000))
        result["done"] = time.monotonic()
        result["started"] = started

    thread = threading.Thread(target=fetch)
    thread.start()
    time.sleep(0.3)
    # While the fetch waits, another connection is served at once.
    before = time.monotonic()
    assert other.request(ApiVersionRequest[0]()).error_code == 0
    assert time.monotonic() - before < 1
    assert "response" not in result
    produced_at = time.monotonic()
    assert produce(other, "lp", 0, [(b"k", b"woken")]) == 0
    thread.join(timeout=10)
    assert not thread.is_alive()
    assert result["done"] - produced_at < 1.5, "the fetch was not woken by the produce"
    [(name, [(partition, error, high_watermark, last_stable, aborted, records)])] = \
        result["response"].topics
    # read_uncommitted: no aborted list (null, as Kafka answers).
    assert (error, high_watermark, last_stable, aborted) == (0, 1, 1, None)
    assert b"woken" in records
    fetcher.close()
    other.close()


def test_min_bytes_keeps_waiting_until_enough_is_there(start_kgroupsd):
    broker = start_kgroupsd("--topic", "lp:1")
    producer = RawConnection(broker.bootstrap)
    fetcher = RawConnection(broker.bootstrap)
    one_batch = len(record_batch([(b"k", b"x" * 100)]))
    fetcher.send(fetch_request("lp", 0, 0, max_wait_ms=5000, min_bytes=one_batch * 3))
    produce(producer, "lp", 0, [(b"k", b"x" * 100)])
    fetcher.sock.settimeout(0.5)
    try:
        fetcher.sock.recv(1, 2)  # MSG_PEEK: nothing yet, one batch is below min_bytes
        answered_early = True
    except TimeoutError:
        answered_early = False
    assert not answered_early
    fetcher.sock.settimeout(10)
    produce(producer, "lp", 0, [(b"k", b"y" * 100)])
    produce(producer, "lp", 0, [(b"k", b"z" * 100)])
    correlation_id, body = fetcher.receive()
    assert body.count(b"x" * 100) == 1 and body.count(b"z" * 100) == 1
    fetcher.close()
    producer.close()


def test_fetch_past_the_end_is_out_of_range(start_kgroupsd):
    broker = start_kgroupsd("--topic", "lp:1")
    connection = RawConnection(broker.bootstrap)
    response = connection.request(fetch_request("lp", 0, 5, max_wait_ms=5000))
    [(name, [(partition, error, *_)])] = response.topics
    assert error == 1  # OFFSET_OUT_OF_RANGE, at once
    response = connection.request(fetch_request("nope", 0, 0, max_wait_ms=5000))
    [(name, [(partition, error, *_)])] = response.topics
    assert error == 3  # UNKNOWN_TOPIC_OR_PARTITION
    connection.close()
