# SPDX-License-Identifier: Apache-2.0
"""Reads the code blocks of README.md's "Kafka clients against kgroupsd" and "Test set-up and
tear-down with an admin client" sections, so the tests run exactly what the README shows."""
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
SECTION = "## Kafka clients against kgroupsd"
ADMIN_SECTION = "## Test set-up and tear-down with an admin client"


def readme_example(language, heading=SECTION):
    """The first ```<language> block of the section under `heading`."""
    text = README.read_text()
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    section = text[start:end if end >= 0 else len(text)]
    match = re.search(rf"```{language}\n(.*?)```", section, re.S)
    if match is None:
        raise AssertionError(f"README.md's '{heading}' section has no ```{language} block")
    return match.group(1)
