# SPDX-License-Identifier: Apache-2.0
"""The Python examples in README.md's "## Python" and "## Beyond the lab" sections (and its
"### Share groups" part) run and their asserts hold."""

import re

import pytest

from support import REPO_ROOT


def section_code(title, level="##"):
    """The one python block of the README section whose title starts with `title`, up to
    the next heading of level 2 or 3."""
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    heading = r"^" + level + " " + re.escape(title) + r"[^\n]*\n"
    section = re.search(heading + r"(.*?)(?=^###? |\Z)", readme, re.S | re.M)
    assert section, f"README.md needs a '{level} {title}' section"
    blocks = re.findall(r"^```python\n(.*?)^```", section.group(1), re.S | re.M)
    assert len(blocks) == 1, f"the {title} section has exactly one python code block"
    return blocks[0]


def python_section_code():
    return section_code("Python")


def test_readme_python_example_runs(capsys):
    code = python_section_code()
    assert "assert" in code, "the example checks its own results"
    exec(compile(code, "README.md (## Python)", "exec"), {"__name__": "readme_example"})
    # The example prints the NotAssignedError it catches.
    assert "is not assigned to consumer" in capsys.readouterr().out


def test_readme_options_example_runs():
    code = section_code("Beyond the lab")
    assert "assert" in code, "the example checks its own results"
    exec(compile(code, "README.md (## Beyond the lab)", "exec"), {"__name__": "readme_example"})


def test_readme_share_groups_example_runs():
    code = section_code("Share groups", level="###")
    assert "share_poll" in code and "NotAcquiredError" in code
    exec(compile(code, "README.md (### Share groups)", "exec"), {"__name__": "readme_example"})


def test_readme_share_groups_example_fails_when_an_assertion_in_it_is_wrong():
    code = section_code("Share groups", level="###").replace(
        'share_start_offset("payments", 0) == 4', 'share_start_offset("payments", 0) == 3')
    with pytest.raises(AssertionError):
        exec(compile(code, "README.md (### Share groups)", "exec"), {"__name__": "readme_example"})
