# SPDX-License-Identifier: Apache-2.0
"""A raw Kafka connection for tests that need exact control of the bytes on the wire: it
frames requests (int32 size, request header v1) and reads size-prefixed responses. Request
and response bodies are encoded and decoded with kafka-python's protocol structs, i.e. a real
client's codec. Every socket read is bounded by a timeout. Also record batches built by
kafka-python (record_batch) or framed around raw record bytes (batch_around)."""
import io
import socket
import struct

from kafka.record.default_records import DefaultRecordBatchBuilder
from kafka.record.util import calc_crc32c


class RawConnection:
    def __init__(self, bootstrap, timeout_s=10, source_host=None, client_id=b"raw-test",
                 receive_buffer_bytes=None):
        """`source_host` binds the local end (e.g. "127.0.0.2", to connect from another
        loopback address); `client_id` goes in every request header; `receive_buffer_bytes`
        shrinks the socket's receive buffer before connecting (a client that reads nothing
        then leaves the broker's responses queued after a few kilobytes)."""
        host, port = bootstrap.rsplit(":", 1)
        if receive_buffer_bytes is None:
            source = None if source_host is None else (source_host, 0)
            self.sock = socket.create_connection((host, int(port)), timeout=timeout_s,
                                                 source_address=source)
        else:
            self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer_bytes)
            self.sock.settimeout(timeout_s)
            if source_host is not None:
                self.sock.bind((source_host, 0))
            self.sock.connect((host, int(port)))
        self.correlation_id = 0
        self.client_id = client_id

    def close(self):
        self.sock.close()

    def send_frame(self, payload):
        self.sock.sendall(struct.pack(">i", len(payload)) + payload)

    def send(self, request, api_key=None, api_version=None, body=None):
        """Sends `request` (a kafka-python Request struct) or a raw `body` with the given key
        and version; returns the correlation id used."""
        self.correlation_id += 1
        self.send_frame(self.frame_payload(request, api_key, api_version, body))
        return self.correlation_id

    def frame_payload(self, request, api_key=None, api_version=None, body=None):
        """The request header and body send() would frame, for the current correlation id."""
        key = request.API_KEY if api_key is None else api_key
        version = request.API_VERSION if api_version is None else api_version
        client_id = self.client_id
        header = struct.pack(">hhih", key, version, self.correlation_id, len(client_id)) + client_id
        return header + (request.encode() if body is None else body)

    def _read_exactly(self, count):
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise ConnectionError(f"closed after {len(data)} of {count} bytes")
            data += chunk
        return data

    def pipelined(self, request, count):
        """`count` framed copies of `request` with consecutive correlation ids, as one bytes
        object to send at once (the responses are not read)."""
        frames = []
        for _ in range(count):
            self.correlation_id += 1
            payload = self.frame_payload(request)
            frames.append(struct.pack(">i", len(payload)) + payload)
        return b"".join(frames)

    def receive(self):
        """Returns (correlation_id, body bytes) of the next response."""
        (size,) = struct.unpack(">i", self._read_exactly(4))
        frame = self._read_exactly(size)
        (correlation_id,) = struct.unpack(">i", frame[:4])
        return correlation_id, frame[4:]

    def request(self, request):
        """Sends `request` and decodes its response with its RESPONSE_TYPE."""
        sent = self.send(request)
        correlation_id, body = self.receive()
        assert correlation_id == sent
        return request.RESPONSE_TYPE.decode(io.BytesIO(body))

    def is_closed_by_peer(self, timeout_s=5):
        """True once the broker has closed the connection (EOF or reset) within the timeout."""
        self.sock.settimeout(timeout_s)
        try:
            while True:
                if not self.sock.recv(65536):
                    return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except socket.timeout:
            return False


def record_batch(records, compression=0):
    """A magic-2 batch built by kafka-python: records are (key, value) bytes pairs."""
    builder = DefaultRecordBatchBuilder(magic=2, compression_type=compression, is_transactional=False,
                                        producer_id=-1, producer_epoch=-1, base_sequence=-1,
                                        batch_size=1 << 20)
    for offset, (key, value) in enumerate(records):
        builder.append(offset, timestamp=1000 + offset, key=key, value=value, headers=[])
    return bytes(builder.build())


def batch_around(records_section, record_count, attributes=0, producer_id=-1,
                 base_sequence=-1, last_offset_delta=None, max_timestamp=1000):
    """A magic-2 batch around `records_section` with a valid CRC, whatever the fields say."""
    if last_offset_delta is None:
        last_offset_delta = record_count - 1
    after_crc = struct.pack(">hiqqqhii", attributes, last_offset_delta, 1000, max_timestamp,
                            producer_id, 0 if producer_id >= 0 else -1, base_sequence,
                            record_count) + records_section
    crc = calc_crc32c(after_crc)
    body = struct.pack(">ibI", -1, 2, crc) + after_crc  # leader epoch, magic, crc
    return struct.pack(">qi", 0, len(body)) + body
