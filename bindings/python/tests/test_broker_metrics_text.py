# SPDX-License-Identifier: Apache-2.0
"""Broker.metric()'s reading of Prometheus' text format (what GET /metrics answers)."""

import pytest

from kgroups._prometheus_text import metric_families, parse_samples

TEXT = r"""# HELP kgroupsd_requests_total Requests by API.
# TYPE kgroupsd_requests_total counter
kgroupsd_requests_total{api="Produce"} 12
kgroupsd_requests_total{api="Fetch",version="12"} 3.5
# TYPE kgroupsd_faults_injected_total counter
kgroupsd_connections 2 1764645000123
kgroupsd_group_lag{group="a \"quoted\" g\\1\nx",topic="orders",partition="0"} 7
"""


def test_samples_keep_their_labels_and_values():
    samples = parse_samples(TEXT)
    assert samples[0] == ("kgroupsd_requests_total", {"api": "Produce"}, 12.0)
    assert samples[1] == ("kgroupsd_requests_total", {"api": "Fetch", "version": "12"}, 3.5)
    assert samples[2] == ("kgroupsd_connections", {}, 2.0)  # a timestamp is ignored


def test_label_values_are_unescaped():
    (lag,) = [s for s in parse_samples(TEXT) if s[0] == "kgroupsd_group_lag"]
    assert lag[1] == {"group": 'a "quoted" g\\1\nx', "topic": "orders", "partition": "0"}


def test_families_include_declared_metrics_without_samples():
    assert "kgroupsd_faults_injected_total" in metric_families(TEXT)
    assert "kgroupsd_connections" in metric_families(TEXT)
    assert "kgroupsd_absent" not in metric_families(TEXT)


def test_a_line_that_is_not_a_sample_is_an_error():
    with pytest.raises(ValueError, match="not a Prometheus sample line"):
        parse_samples("kgroupsd_requests_total{api=\"Produce\"}\n")
