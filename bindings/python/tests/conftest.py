# SPDX-License-Identifier: Apache-2.0
"""Shared fixtures of the kgroups Python suite.

The suite tests the kgroups package found on sys.path: the build tree's copy
(scripts/test-python sets PYTHONPATH) or an installed one. The source folder
bindings/python/kgroups alone has no native module and cannot be tested.
"""

from __future__ import annotations

import pytest

try:
    import kgroups
except ImportError as error:
    raise ImportError(
        f"cannot import kgroups with its native module ({error}); build it with "
        "scripts/test-python, or put the build tree's bindings/python on PYTHONPATH"
    ) from error


@pytest.fixture
def topic() -> kgroups.Topic:
    return kgroups.Topic(6)
