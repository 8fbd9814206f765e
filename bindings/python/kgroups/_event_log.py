# SPDX-License-Identifier: Apache-2.0
"""Reading kgroupsd's recent events (docs/HTTP-API.md, "Events") as a list.

The broker keeps its last events; GET /v1/events/log answers them as JSON. A broker without
that route still streams them as server-sent events from GET /v1/events?since=ID: then the
stream is read until it stays silent for a moment (the backlog has been sent) and closed.
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from kgroups._control_client import BrokerError, ControlClient, is_read_timeout

# How long a silent event stream means "the backlog is over" (only without /v1/events/log).
_STREAM_IDLE_S = 0.3


def read_events(client: ControlClient, since: int | None, types: Iterable[str] | None,
                group: str | None) -> list[dict[str, Any]]:
    """The retained events after event id `since` (all retained if None), oldest first, of
    the given types and group only."""
    query = {"since": since, "group": group}
    try:
        answer = client.get("/v1/events/log", query)
        events = answer["events"] if isinstance(answer, dict) else answer
    except BrokerError as error:
        if error.status not in (404, 405):
            raise
        events = _read_stream_backlog(client, since, group)
    wanted = None if types is None else set(types)
    return [event for event in events
            if (wanted is None or event.get("type") in wanted)
            and (group is None or event.get("group_id") == group)
            and (since is None or event.get("id", 0) > since)]


def _read_stream_backlog(client: ControlClient, since: int | None,
                         group: str | None) -> list[dict[str, Any]]:
    url = client.url("/v1/events", {"since": 0 if since is None else since, "group": group})
    events = []
    data_lines: list[str] = []
    with client.open_stream(url, _STREAM_IDLE_S) as stream:
        while True:
            try:
                raw = stream.readline()
            except Exception as error:  # noqa: BLE001 - only a read timeout ends the backlog
                if is_read_timeout(error):
                    break
                raise
            if not raw:
                break
            line = raw.decode("utf-8").rstrip("\r\n")
            if line.startswith("data:"):
                data_lines.append(line[5:].lstrip(" "))
            elif not line and data_lines:
                events.append(json.loads("\n".join(data_lines)))
                data_lines = []
    return events
