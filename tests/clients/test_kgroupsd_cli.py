# SPDX-License-Identifier: Apache-2.0
"""kgroupsd's command line: ready line, --advertise, --topic, --default-partitions,
--no-auto-create, --max-message-bytes, bad arguments, and clean shutdown on SIGINT."""
import signal
import subprocess

from kafka.protocol.metadata import MetadataRequest
from kafka.protocol.produce import ProduceRequest

from kgroupsd_process import kgroupsd_binary
from raw_client import RawConnection, record_batch


def metadata(bootstrap, topics, version=1):
    connection = RawConnection(bootstrap)
    try:
        return connection.request(MetadataRequest[version](topics=topics))
    finally:
        connection.close()


def test_ready_line_names_the_bound_port_and_advertise_overrides_metadata(start_kgroupsd):
    plain = start_kgroupsd()
    host, port = plain.bootstrap.rsplit(":", 1)
    assert host == "127.0.0.1" and int(port) > 0
    brokers = metadata(plain.bootstrap, []).brokers
    assert [tuple(b) for b in brokers] == [(0, "127.0.0.1", int(port), None)]

    advertised = start_kgroupsd("--advertise", "kafka.example:19092")
    response = metadata(advertised.bootstrap, [])
    assert [tuple(b)[:3] for b in response.brokers] == [(0, "kafka.example", 19092)]
    assert response.controller_id == 0


def test_seed_topics_and_default_partitions(start_kgroupsd):
    broker = start_kgroupsd("--topic", "a:2", "--topic", "b:5", "--default-partitions", "3")
    response = metadata(broker.bootstrap, ["a", "b", "auto"])
    counts = {name: len(partitions) for error, name, internal, partitions in response.topics}
    assert counts == {"a": 2, "b": 5, "auto": 3}


def test_no_auto_create_refuses_unknown_topics(start_kgroupsd):
    broker = start_kgroupsd("--no-auto-create", "--topic", "known:1")
    response = metadata(broker.bootstrap, ["known", "unknown"])
    errors = {name: error for error, name, internal, partitions in response.topics}
    assert errors == {"known": 0, "unknown": 3}
    everything = metadata(broker.bootstrap, None)
    assert [name for _, name, _, _ in everything.topics] == ["known"]


def test_max_message_bytes_refuses_larger_batches(start_kgroupsd):
    broker = start_kgroupsd("--max-message-bytes", "2048", "--topic", "small:1")
    connection = RawConnection(broker.bootstrap)
    for value, expected in ((b"x" * 4000, 10), (b"x" * 100, 0)):  # MESSAGE_TOO_LARGE, then fine
        response = connection.request(ProduceRequest[3](
            transactional_id=None, required_acks=1, timeout=1000,
            topics=[("small", [(0, record_batch([(b"k", value)]))])]))
        assert response.topics[0][1][0][1] == expected
    connection.close()


def test_bad_arguments_exit_non_zero_with_a_message():
    local = ["--listen", "127.0.0.1:0"]
    for args, message in ((["--listen", "nonsense"], "HOST:PORT"),
                          (["--listen", "127.0.0.1:99999"], "port must be"),
                          ([*local, "--topic", "bad name:3"], "seed topic"),
                          ([*local, "--topic", "t:0"], "NAME:PARTITIONS"),
                          ([*local, "--default-partitions", "0"], "default-partitions")):
        result = subprocess.run([str(kgroupsd_binary()), *args],
                                capture_output=True, text=True, timeout=10)
        assert result.returncode != 0, args
        assert message in result.stderr + result.stdout, (args, result.stderr)
        assert "listening" not in result.stdout


def test_sigint_shuts_down_cleanly_with_open_connections(start_kgroupsd):
    broker = start_kgroupsd()
    connection = RawConnection(broker.bootstrap)
    metadata(broker.bootstrap, ["x"])
    broker.process.send_signal(signal.SIGINT)
    assert broker.process.wait(timeout=10) == 0
    assert "shutting down" in broker.log()
    connection.close()
