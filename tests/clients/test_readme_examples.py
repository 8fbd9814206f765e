# SPDX-License-Identifier: Apache-2.0
"""Runs README.md's Python examples against a fresh kgroupsd: the consumer group (then checks
what it printed and that the group's committed offsets cover every message it read), and the
pytest fixture that creates a topic with configs before a test and deletes it after (then
checks that its test passed and the topic is gone), and the pytest tests of "Testing your
Kafka code with kgroups" with the kgroups_broker fixture (each must pass; they start their own
kgroupsd, from $KGROUPSD, with the kgroups package on PYTHONPATH as scripts/test-clients sets)."""
import json
import os
import subprocess
import sys

from confluent_kafka import Consumer, TopicPartition
from confluent_kafka.admin import AdminClient

from readme_examples import (ADMIN_SECTION, CLUSTER_SECTION, HARNESS_SECTION, STORAGE_SECTION,
                             readme_example, readme_examples)

PARTITIONS = 6


def test_readme_python_consumer_group_example(kgroupsd, tmp_path):
    script = tmp_path / "readme_example.py"
    script.write_text(readme_example("python"))
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                            timeout=60, env={**os.environ, "KAFKA_BOOTSTRAP": kgroupsd.bootstrap})
    assert result.returncode == 0, result.stderr + "\nkgroupsd log:\n" + kgroupsd.log()
    assert result.stdout.strip() == "['order-0', 'order-1', 'order-2']"

    reader = Consumer({"bootstrap.servers": kgroupsd.bootstrap, "group.id": "billing"})
    try:
        committed = reader.committed([TopicPartition("orders", p) for p in range(PARTITIONS)],
                                     timeout=10)
    finally:
        reader.close()
    assert sum(max(tp.offset, 0) for tp in committed) == 3


def test_readme_admin_set_up_and_tear_down_example(kgroupsd, tmp_path):
    test_file = tmp_path / "test_readme_orders.py"
    test_file.write_text(readme_example("python", ADMIN_SECTION))
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={**os.environ, "KAFKA_BOOTSTRAP": kgroupsd.bootstrap})
    assert result.returncode == 0, result.stdout + result.stderr + "\nkgroupsd log:\n" + kgroupsd.log()
    assert "1 passed" in result.stdout, result.stdout

    # The fixture deleted its topic after the test.
    topics = AdminClient({"bootstrap.servers": kgroupsd.bootstrap}).list_topics(timeout=10).topics
    assert not [name for name in topics if name.startswith("orders-")], sorted(topics)


def test_readme_pytest_harness_examples_pass(tmp_path):
    blocks = readme_examples("python", HARNESS_SECTION)
    assert len(blocks) == 2, "the section's two examples: a fault, and the manual clock"
    for number, block in enumerate(blocks):
        assert "kgroups_broker" in block and "assert" in block
        (tmp_path / f"test_readme_harness_{number}.py").write_text(block)
    # The source tree has no installed entry point: the plugin is loaded by name, as README says.
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "-p", "kgroups.pytest_plugin", str(tmp_path)],
        capture_output=True, text=True, timeout=180, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 passed" in result.stdout, result.stdout


def test_readme_three_broker_failover_example(tmp_path):
    """README's cluster example: the leader stops, an acks=all write is acknowledged by the new
    leader, and the ISR shrank to the two brokers left."""
    script = tmp_path / "readme_cluster.py"
    script.write_text(readme_example("python", CLUSTER_SECTION))
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                            timeout=90)
    assert result.returncode == 0, result.stderr
    old, arrow, new, *isr = result.stdout.split()
    assert arrow == "->" and old != new
    assert len(json.loads(" ".join(isr))) == 2


def test_readme_log_dirs_example_resumes_a_group_after_kill_9(tmp_path):
    """README's --log-dirs example: the broker is killed and restarted on its folder, and the
    group resumes at its committed offset."""
    script = tmp_path / "readme_log_dirs.py"
    script.write_text(readme_example("python", STORAGE_SECTION))
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                            timeout=90)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "resumed at offset 4 value 4"
