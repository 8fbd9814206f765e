# SPDX-License-Identifier: Apache-2.0
"""JSON over HTTP to kgroupsd's control endpoint (docs/HTTP-API.md), with urllib only.

Every answer outside 2xx becomes a BrokerError carrying the server's status and message.
Requests never go through a proxy (the endpoint is on loopback) and each has a timeout.
Safe to use from several threads: every request opens its own connection.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Mapping, Sequence


class BrokerError(Exception):
    """kgroupsd refused a request or could not be reached; `status` is the HTTP status (None
    when there was no answer) and `message` the server's explanation."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(f"{message} (HTTP {status})" if status is not None else message)
        self.status = status
        self.message = message


BrokerError.__module__ = "kgroups"  # raised to users as kgroups.BrokerError


class ControlClient:
    """Talks to the control endpoint at `base_url` ("http://127.0.0.1:PORT").
    `describe_failure()` adds context (e.g. kgroupsd's exit and log) to connection errors."""

    def __init__(self, base_url: str, timeout_s: float,
                 describe_failure: Callable[[], str] = lambda: "") -> None:
        self.base_url = base_url
        self.timeout_s = timeout_s
        self._describe_failure = describe_failure
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def url(self, path: str, query: Mapping[str, Any] | None = None) -> str:
        """The absolute URL of `path` with the query's non-None items."""
        items = {key: value for key, value in (query or {}).items() if value is not None}
        return self.base_url + path + ("?" + urllib.parse.urlencode(items) if items else "")

    def get(self, path: str, query: Mapping[str, Any] | None = None) -> Any:
        return self._json(self.request("GET", self.url(path, query)))

    def post(self, path: str, body: Mapping[str, Any] | Sequence[Any]) -> Any:
        return self._json(self.request("POST", self.url(path), body))

    def delete(self, path: str) -> Any:
        return self._json(self.request("DELETE", self.url(path)))

    def text(self, path: str) -> str:
        return self.request("GET", self.url(path)).decode("utf-8")

    def request(self, method: str, url: str,
                body: Mapping[str, Any] | Sequence[Any] | None = None) -> bytes:
        """The answer's body. Raises BrokerError for a non-2xx answer or no answer."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(url, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with self._opener.open(request, timeout=self.timeout_s) as response:
                return response.read()
        except urllib.error.HTTPError as error:
            raise _error_from_answer(error.code, error.read(), method, url) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise BrokerError(f"{method} {url} got no answer ({reason})"
                              f"{self._describe_failure()}") from None

    @staticmethod
    def _json(body: bytes) -> Any:
        return json.loads(body) if body.strip() else None


def _error_from_answer(status: int, body: bytes, method: str, url: str) -> BrokerError:
    """The server's `{"error": {"status": ..., "message": ...}}`, or the raw body if not JSON."""
    try:
        message = json.loads(body)["error"]["message"]
    except (ValueError, KeyError, TypeError):
        message = body.decode("utf-8", "replace").strip() or "no message"
    return BrokerError(f"{method} {urllib.parse.urlsplit(url).path}: {message}", status)

