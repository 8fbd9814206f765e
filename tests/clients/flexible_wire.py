# SPDX-License-Identifier: Apache-2.0
"""Hand-written encoding of Kafka's primitive types, flexible (KIP-482) forms included, for
tests that send request versions kafka-python has no structs for. Independent of kgroupsd's
generated codec on purpose: a test encoded by the code under test could not catch its bugs.

Writer builds a body field by field (or the functions uvarint, i8-i64, cstr, cbytes, carray
and TAGS build one value at a time); Reader takes one apart; exchange() sends a body over a
RawConnection with the request header its version needs (v2 when flexible: a tagged-field
section after the client id) and returns the response body after its header (v1 when
flexible: a tagged-field section after the correlation id); flexible_request() does that for
a flexible version and returns a Reader."""
import struct


# --- Encoding, one value at a time (flexible forms) --------------------------------------------

def uvarint(value):
    """An unsigned varint (LEB128), as compact lengths and tagged fields use."""
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def i8(value):
    return struct.pack(">b", value)


def i16(value):
    return struct.pack(">h", value)


def i32(value):
    return struct.pack(">i", value)


def i64(value):
    return struct.pack(">q", value)


def cstr(value):
    """A compact nullable string."""
    if value is None:
        return uvarint(0)
    raw = value.encode() if isinstance(value, str) else value
    return uvarint(len(raw) + 1) + raw


def cbytes(value):
    """Compact nullable bytes."""
    return uvarint(0) if value is None else uvarint(len(value) + 1) + value


def carray(items):
    """A compact array of already-encoded items."""
    return uvarint(len(items) + 1) + b"".join(items)


TAGS = uvarint(0)  # an empty tagged-field section


# --- Encoding, field by field, flexible or not --------------------------------------------------

class Writer:
    def __init__(self, flexible):
        self.flexible = flexible
        self.data = bytearray()

    def int8(self, value):
        self.data += struct.pack(">b", value)
        return self

    def int16(self, value):
        self.data += struct.pack(">h", value)
        return self

    def int32(self, value):
        self.data += struct.pack(">i", value)
        return self

    def int64(self, value):
        self.data += struct.pack(">q", value)
        return self

    def boolean(self, value):
        return self.int8(1 if value else 0)

    def uvarint(self, value):
        self.data += uvarint(value)
        return self

    def string(self, value):
        """A string, or null for None (nullable strings only)."""
        if value is None:
            return self.uvarint(0) if self.flexible else self.int16(-1)
        raw = value.encode() if isinstance(value, str) else value
        if self.flexible:
            self.uvarint(len(raw) + 1)
        else:
            self.int16(len(raw))
        self.data += raw
        return self

    def blob(self, raw):
        """A bytes field (int32 length, or compact length when flexible)."""
        if self.flexible:
            self.uvarint(len(raw) + 1)
        else:
            self.int32(len(raw))
        self.data += raw
        return self

    def uuid(self, value):
        assert len(value) == 16
        self.data += value
        return self

    def array(self, items, write_item):
        """An array of `items`, each written by write_item(writer, item); None is null."""
        if items is None:
            return self.uvarint(0) if self.flexible else self.int32(-1)
        if self.flexible:
            self.uvarint(len(items) + 1)
        else:
            self.int32(len(items))
        for item in items:
            write_item(self, item)
        return self

    def tags(self):
        """An empty tagged-field section (flexible versions only)."""
        if self.flexible:
            self.uvarint(0)
        return self

    def bytes(self):
        return bytes(self.data)


class Reader:
    def __init__(self, data, flexible):
        self.data = data
        self.flexible = flexible
        self.pos = 0

    def _take(self, count):
        assert self.pos + count <= len(self.data), "response shorter than its fields"
        chunk = self.data[self.pos:self.pos + count]
        self.pos += count
        return chunk

    def int8(self):
        return struct.unpack(">b", self._take(1))[0]

    def int16(self):
        return struct.unpack(">h", self._take(2))[0]

    def int32(self):
        return struct.unpack(">i", self._take(4))[0]

    def int64(self):
        return struct.unpack(">q", self._take(8))[0]

    def boolean(self):
        return self.int8() != 0

    def uvarint(self):
        value, shift = 0, 0
        while True:
            byte = self._take(1)[0]
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                return value
            shift += 7

    def string(self):
        """A string, or None for null."""
        if self.flexible:
            length = self.uvarint() - 1
        else:
            length = self.int16()
        if length < 0:
            return None
        return self._take(length).decode()

    def blob(self):
        length = self.uvarint() - 1 if self.flexible else self.int32()
        return None if length < 0 else bytes(self._take(length))

    def uuid(self):
        return bytes(self._take(16))

    def array(self, read_item):
        """A list of read_item(reader) results, or None for null."""
        count = self.uvarint() - 1 if self.flexible else self.int32()
        if count < 0:
            return None
        return [read_item(self) for _ in range(count)]

    def tags(self):
        """Skips a tagged-field section; returns {tag: raw bytes}."""
        if not self.flexible:
            return {}
        fields = {}
        for _ in range(self.uvarint()):
            tag = self.uvarint()
            fields[tag] = bytes(self._take(self.uvarint()))
        return fields

    def at_end(self):
        return self.pos == len(self.data)

    def end(self):
        assert self.at_end(), f"{len(self.data) - self.pos} bytes left over"

    def finish(self):
        """Reads a body's closing tagged-field section and checks nothing follows."""
        self.tags()
        self.end()

    # Short names for flexible versions, for tests that read field by field with closures:
    # carray() takes a reader function of no arguments.
    i8, i16, i32, i64 = int8, int16, int32, int64
    cstr = string
    cbytes = blob

    def take(self, count):
        return self._take(count)

    def carray(self, read_item):
        return self.array(lambda _reader: read_item())


def flexible_request(connection, api_key, version, body):
    """Sends `body` (a flexible version) and returns a Reader over the response body."""
    return Reader(exchange(connection, api_key, version, body, flexible=True), True)


def produce_one_batch(connection, topic, partition, records, version=9, acks=-1):
    """Produce (a flexible version, 9 and up) of `records` into one partition. Returns the
    partition's answer as a dict (index, error, base_offset, log_append_time,
    log_start_offset, record_errors, error_message) with the response's `topic` name and
    `throttle_ms`."""
    body = cstr(None) + i16(acks) + i32(5000) + carray([
        cstr(topic) + carray([i32(partition) + cbytes(records) + TAGS]) + TAGS]) + TAGS
    r = flexible_request(connection, 0, version, body)

    def partition_response():
        answer = dict(index=r.i32(), error=r.i16(), base_offset=r.i64(),
                      log_append_time=r.i64(), log_start_offset=r.i64(),
                      record_errors=r.carray(lambda: (r.i32(), r.cstr(), r.tags())),
                      error_message=r.cstr())
        r.tags()
        return answer

    def topic_response():
        name = r.cstr()
        partitions = r.carray(partition_response)
        r.tags()
        return name, partitions

    [(name, [answer])] = r.carray(topic_response)
    throttle_ms = r.i32()
    r.finish()
    return {**answer, "topic": name, "throttle_ms": throttle_ms}


def exchange(connection, api_key, version, body, flexible):
    """Sends `body` as request (api_key, version) on `connection` (a RawConnection) and
    returns the response body, its header removed."""
    connection.correlation_id += 1
    client_id = connection.client_id
    header = struct.pack(">hhih", api_key, version, connection.correlation_id,
                         len(client_id)) + client_id
    if flexible:
        header += b"\x00"
    connection.send_frame(header + body)
    correlation_id, rest = connection.receive()
    assert correlation_id == connection.correlation_id
    if flexible:
        assert rest[0] == 0, "response header v1 should carry no tagged fields"
        rest = rest[1:]
    return rest
