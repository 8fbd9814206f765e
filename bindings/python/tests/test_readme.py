# SPDX-License-Identifier: Apache-2.0
"""The Python example in README.md's "## Python" section runs and its asserts hold."""

import re

from support import REPO_ROOT


def python_section_code():
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^## Python\n(.*?)(?=^## |\Z)", readme, re.S | re.M)
    assert section, "README.md needs a '## Python' section"
    blocks = re.findall(r"^```python\n(.*?)^```", section.group(1), re.S | re.M)
    assert len(blocks) == 1, "the Python section has exactly one python code block"
    return blocks[0]


def test_readme_python_example_runs(capsys):
    code = python_section_code()
    assert "assert" in code, "the example checks its own results"
    exec(compile(code, "README.md (## Python)", "exec"), {"__name__": "readme_example"})
    # The example prints the NotAssignedError it catches.
    assert "is not assigned to consumer" in capsys.readouterr().out
