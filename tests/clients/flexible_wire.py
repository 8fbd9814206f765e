# SPDX-License-Identifier: Apache-2.0
"""Hand-written encoding of Kafka's primitive types, flexible (KIP-482) forms included, for
tests that send request versions kafka-python has no structs for. Independent of kgroupsd's
generated codec on purpose: a test encoded by the code under test could not catch its bugs.

Writer builds a body field by field; Reader takes one apart; exchange() sends a body over a
RawConnection with the request header its version needs (v2 when flexible: a tagged-field
section after the client id) and returns the response body after its header (v1 when
flexible: a tagged-field section after the correlation id)."""
import struct


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
        while value >= 0x80:
            self.data.append((value & 0x7F) | 0x80)
            value >>= 7
        self.data.append(value)
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
