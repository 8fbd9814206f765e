# SPDX-License-Identifier: Apache-2.0
"""Reads the code blocks of README.md's "Kafka clients against kgroupsd", "Test set-up and
tear-down with an admin client" and "Testing your Kafka code with kgroups (pytest)" sections,
so the tests run exactly what the README shows."""
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
SECTION = "## Kafka clients against kgroupsd"
ADMIN_SECTION = "## Test set-up and tear-down with an admin client"
HARNESS_SECTION = "## Testing your Kafka code with kgroups (pytest)"
CLUSTER_SECTION = "## A three-broker cluster and a leader failover"
STORAGE_SECTION = "## Logs that survive a restart: `--log-dirs`"


def readme_example(language, heading=SECTION):
    """The first ```<language> block of the section under `heading`."""
    return readme_examples(language, heading)[0]


def readme_examples(language, heading):
    """Every ```<language> block of the section under `heading`, in order."""
    text = README.read_text()
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    section = text[start:end if end >= 0 else len(text)]
    blocks = re.findall(rf"```{language}\n(.*?)```", section, re.S)
    if not blocks:
        raise AssertionError(f"README.md's '{heading}' section has no ```{language} block")
    return blocks
