# SPDX-License-Identifier: Apache-2.0
"""Reading kgroupsd's recent events (docs/HTTP-API.md, "Events") as a list, from
GET /v1/events/log, which answers the events the broker kept as one JSON array."""

from __future__ import annotations

from typing import Any, Iterable

from kgroups._control_client import ControlClient


def read_events(client: ControlClient, since: int | None, types: Iterable[str] | None,
                group: str | None) -> list[dict[str, Any]]:
    """The kept events after event id `since` (all kept if None), oldest first, of the given
    types (all if None) and of `group` only (then topic events are left out)."""
    events = client.get("/v1/events/log", {"since": since, "group": group})
    wanted = None if types is None else set(types)
    return [event for event in events
            if (wanted is None or event.get("type") in wanted)
            and (group is None or event.get("group_id") == group)]
