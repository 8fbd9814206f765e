# SPDX-License-Identifier: Apache-2.0
"""What every attack test checks: the broker answers a probe connection within a bound (once
afterwards, or all along with a Probe thread), and stays within its memory budget. Also
frames with a chosen client id (the raw client always sends "raw-test")."""
import struct
import threading
import time

from kafka.protocol.admin import ApiVersionRequest

from raw_client import RawConnection

PROBE_BOUND_S = 1.0


def probe_seconds(bootstrap):
    """Seconds a fresh connection takes to get an ApiVersions answer."""
    started = time.monotonic()
    connection = RawConnection(bootstrap, timeout_s=10)
    try:
        assert connection.request(ApiVersionRequest[0]()).error_code == 0
    finally:
        connection.close()
    return time.monotonic() - started


def assert_responsive(broker, bound_s=PROBE_BOUND_S):
    seconds = probe_seconds(broker.bootstrap)
    assert seconds < bound_s, f"probe answered after {seconds:.2f} s"


def assert_within_budget(broker, budget_mib):
    peak = broker.peak_rss_mib()
    assert peak <= budget_mib, f"peak RSS {peak:.0f} MiB over the {budget_mib} MiB budget"


def send_with_client_id(connection, request, client_id):
    """Sends `request` with the header's client id set to `client_id` (bytes)."""
    connection.correlation_id += 1
    header = struct.pack(">hhih", request.API_KEY, request.API_VERSION, connection.correlation_id,
                         len(client_id)) + client_id
    connection.send_frame(header + request.encode())
    return connection.correlation_id


class Probe:
    """Asks ApiVersions on a fresh connection every 0.1 s; keeps the slowest answer."""

    def __init__(self, bootstrap):
        self.bootstrap = bootstrap
        self.slowest = 0.0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run)
        self.thread.start()

    def run(self):
        while not self.stop.is_set():
            self.slowest = max(self.slowest, probe_seconds(self.bootstrap))
            time.sleep(0.1)

    def finish(self):
        self.stop.set()
        self.thread.join()
        return self.slowest
