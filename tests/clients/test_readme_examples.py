# SPDX-License-Identifier: Apache-2.0
"""Runs README.md's Python consumer-group example against a fresh kgroupsd, then checks
what it printed and that the group's committed offsets cover every message it read."""
import os
import subprocess
import sys

from confluent_kafka import Consumer, TopicPartition

from readme_examples import readme_example

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
