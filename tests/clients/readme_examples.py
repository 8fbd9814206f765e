# SPDX-License-Identifier: Apache-2.0
"""Reads the code blocks of README.md's "Kafka clients against kgroupsd" section, so the
tests run exactly what the README shows."""
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
SECTION = "## Kafka clients against kgroupsd"


def readme_example(language):
    """The first ```<language> block of the section."""
    text = README.read_text()
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    section = text[start:end if end >= 0 else len(text)]
    match = re.search(rf"```{language}\n(.*?)```", section, re.S)
    if match is None:
        raise AssertionError(f"README.md's '{SECTION}' section has no ```{language} block")
    return match.group(1)
