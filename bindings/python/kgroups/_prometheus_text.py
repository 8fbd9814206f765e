# SPDX-License-Identifier: Apache-2.0
"""Reading samples out of Prometheus' text exposition format (GET /metrics)."""

from __future__ import annotations

import re

_SAMPLE = re.compile(r"^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\S+)?$")
_LABEL = re.compile(r'\s*([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?')


def parse_samples(text: str) -> list[tuple[str, dict[str, str], float]]:
    """Every sample line as (name, labels, value); comments and blank lines are skipped."""
    samples = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = _SAMPLE.match(line)
        if match is None:
            raise ValueError(f"not a Prometheus sample line: {line!r}")
        name, label_text, value = match.groups()
        labels = {key: _unescape(raw) for key, raw in _LABEL.findall(label_text or "")}
        samples.append((name, labels, float(value)))
    return samples


def metric_families(text: str) -> set[str]:
    """The metric names the text declares (# TYPE lines) or has samples of."""
    names = {line.split()[2] for line in text.splitlines()
             if line.startswith("# TYPE ") and len(line.split()) >= 3}
    return names | {name for name, _, _ in parse_samples(text)}


def _unescape(raw: str) -> str:
    return re.sub(r"\\(.)", lambda match: "\n" if match.group(1) == "n" else match.group(1), raw)
