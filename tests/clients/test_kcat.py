# SPDX-License-Identifier: Apache-2.0
"""kcat (librdkafka 2.0.2) against kgroupsd: produce keyed messages, read them back by
partition assignment (-C -p/-o), and check keys, values, partitions and offsets."""
import subprocess
import zlib

import pytest

PARTITIONS = 6  # kgroupsd's default for auto-created topics
TIMEOUT_S = 30


def kcat(*args, stdin=None):
    result = subprocess.run(["kcat", *args], input=stdin, capture_output=True,
                            timeout=TIMEOUT_S, text=True)
    assert result.returncode == 0, f"kcat {' '.join(args)} failed:\n{result.stderr}"
    return result.stdout


def produce(bootstrap, topic, messages, *extra):
    lines = "".join(f"{key}:{value}\n" for key, value in messages)
    kcat("-b", bootstrap, "-P", "-t", topic, "-K:", *extra, stdin=lines)


def read_partition(bootstrap, topic, partition, offset="beginning", count=None):
    args = ["-b", bootstrap, "-C", "-t", topic, "-p", str(partition), "-o", str(offset), "-e",
            "-q", "-f", "%p\t%o\t%k\t%s\n"]
    if count is not None:
        args += ["-c", str(count)]
    rows = []
    for line in kcat(*args).splitlines():
        part, off, key, value = line.split("\t")
        rows.append((int(part), int(off), key, value))
    return rows


def expected_partition(key):
    # librdkafka's default partitioner (consistent_random): CRC-32 of the key mod partitions.
    return zlib.crc32(key.encode()) % PARTITIONS


def keyed_messages(count, prefix):
    return [(f"{prefix}-key-{i % 13}", f"{prefix}-value-{i}") for i in range(count)]


def check_read_back(bootstrap, topic, messages):
    """Every message comes back exactly once, in its key's partition, with dense offsets from
    0 in produce order."""
    by_partition = {p: [] for p in range(PARTITIONS)}
    for key, value in messages:
        by_partition[expected_partition(key)].append((key, value))
    for partition in range(PARTITIONS):
        rows = read_partition(bootstrap, topic, partition)
        want = [(partition, offset, key, value)
                for offset, (key, value) in enumerate(by_partition[partition])]
        assert rows == want, f"partition {partition}"


@pytest.mark.parametrize("acks", ["-1", "1", "0"])
def test_produce_and_read_back_by_partition(kgroupsd, acks):
    messages = keyed_messages(200, f"acks{acks}")
    produce(kgroupsd.bootstrap, "kcat-plain", messages, "-X", f"acks={acks}")
    check_read_back(kgroupsd.bootstrap, "kcat-plain", messages)


def test_gzip_batches_are_stored_compressed_and_read_back(start_kgroupsd):
    broker = start_kgroupsd("--verbose")
    # librdkafka sends a batch uncompressed when gzip would make it larger, which happens to
    # a batch of one short record (it sends such batches first, before linger fills them on a
    # busy machine). Values this repetitive shrink under gzip even alone.
    messages = [(key, value + "-" + "abc" * 60) for key, value in keyed_messages(300, "gz")]
    produce(broker.bootstrap, "kcat-gzip", messages, "-z", "gzip")
    check_read_back(broker.bootstrap, "kcat-gzip", messages)
    # The broker saw gzip batches (kcat silently sends uncompressed ones when the broker's
    # Produce range lacks v0), and nothing uncompressed.
    log = broker.log()
    assert "records, gzip" in log
    assert "records, uncompressed" not in log


def test_read_from_an_offset_inside_a_compressed_batch(kgroupsd):
    messages = [("same-key", f"v{i}") for i in range(50)]  # one partition, a few batches
    produce(kgroupsd.bootstrap, "kcat-offsets", messages, "-z", "gzip")
    partition = expected_partition("same-key")
    rows = read_partition(kgroupsd.bootstrap, "kcat-offsets", partition, offset=17, count=3)
    assert rows == [(partition, 17, "same-key", "v17"), (partition, 18, "same-key", "v18"),
                    (partition, 19, "same-key", "v19")]
    tail = read_partition(kgroupsd.bootstrap, "kcat-offsets", partition, offset=-2)
    assert tail == [(partition, 48, "same-key", "v48"), (partition, 49, "same-key", "v49")]


def test_metadata_lists_seeded_topics_and_names_the_controller(start_kgroupsd):
    broker = start_kgroupsd("--topic", "seeded:3", "--topic", "other:1")
    listing = kcat("-b", broker.bootstrap, "-L")
    assert f"broker 0 at {broker.bootstrap} (controller)" in listing
    assert 'topic "seeded" with 3 partitions' in listing
    assert 'topic "other" with 1 partitions' in listing


def test_produce_to_an_explicit_partition_of_a_seeded_topic(start_kgroupsd):
    broker = start_kgroupsd("--topic", "seeded:3")
    produce(broker.bootstrap, "seeded", [("a", "1"), ("b", "2")], "-p", "2")
    assert read_partition(broker.bootstrap, "seeded", 2) == [(2, 0, "a", "1"), (2, 1, "b", "2")]
    assert read_partition(broker.bootstrap, "seeded", 0) == []
