# SPDX-License-Identifier: Apache-2.0
"""SPEC.md's share-group rules (SG1..SG15), written as plainly as possible in Python from
SPEC.md, for the randomized differential test of kgroups' share groups
(test_share_differential.py). Dicts of records by offset, members by id, one loop per rule.
Only what the share groups need of a topic: append (one partition per record, chosen by
the caller), end_offset, and consumer-group names (join) for SG1. Errors are raised as
kgroups raises them (ValueError, IndexError, TypeError, NotAcquiredError), before anything
changes."""

AVAILABLE, ACQUIRED, ACKNOWLEDGED, ARCHIVED = "available", "acquired", "acknowledged", "archived"
TYPES = ("accept", "release", "reject")
INT64_MAX = 2**63 - 1


class NotAcquiredError(Exception):
    def __init__(self, message, partition, offset):
        super().__init__(message)
        self.partition = partition
        self.offset = offset


def java_hash(member):
    """Java's String.hashCode: over UTF-16 code units, as a signed 32-bit int."""
    units = member.encode("utf-16-be")
    h = 0
    for i in range(0, len(units), 2):
        h = (h * 31 + int.from_bytes(units[i:i + 2], "big")) & 0xFFFFFFFF
    return h - 2**32 if h >= 2**31 else h


def require(value, kind, name):
    if not isinstance(value, kind):
        raise TypeError(f"{name} must be {kind.__name__}")


def check_options(share_auto_offset_reset="latest", record_lock_duration_ms=30000,
                  delivery_count_limit=5, partition_max_record_locks=2000):
    """SG14: types first (str, then ints; bool is no int), then values in this order."""
    if not isinstance(share_auto_offset_reset, str):
        raise TypeError("share_auto_offset_reset")
    for value in (record_lock_duration_ms, delivery_count_limit, partition_max_record_locks):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError("an int option")
    if share_auto_offset_reset not in ("latest", "earliest"):
        raise ValueError("share_auto_offset_reset")
    if not 1 <= record_lock_duration_ms <= INT64_MAX:
        raise ValueError("record_lock_duration_ms")
    if not 2 <= delivery_count_limit <= 10:
        raise ValueError("delivery_count_limit")
    if not 100 <= partition_max_record_locks <= 10000:
        raise ValueError("partition_max_record_locks")


class Record:
    def __init__(self):
        self.state = AVAILABLE
        self.member = None
        self.deadline = 0
        self.delivery_count = 0


class Share:
    def __init__(self, start):
        self.start = start
        self.end = start  # the first offset never acquired
        self.records = {}  # offset -> Record, every offset in start..end-1
        self.deliveries = 0
        self.redeliveries = 0


class Group:
    def __init__(self):
        self.members = {}  # id -> ascending partitions
        self.shares = {}  # partition -> Share, made when first assigned


class ShareTopic:
    def __init__(self, num_partitions, share_auto_offset_reset="latest",
                 record_lock_duration_ms=30000, delivery_count_limit=5,
                 partition_max_record_locks=2000):
        self.num_partitions = num_partitions
        self.latest = share_auto_offset_reset == "latest"
        self.lock_ms = record_lock_duration_ms
        self.limit = delivery_count_limit
        self.max_locks = partition_max_record_locks
        self.logs = [[] for _ in range(num_partitions)]
        self.consumer_groups = set()
        self.groups = {}
        self.now = 0

    # ---- the topic, as much as share groups need ----
    def append_to(self, partition, key, value):
        self.logs[partition].append((key, value))

    def end_offset(self, partition):
        return len(self.logs[partition])

    def join(self, group, member):
        if group in self.groups:
            raise ValueError("a share group's name")
        self.consumer_groups.add(group)

    # ---- SG1, SG2, SG3 ----
    def share_join(self, group, member):
        require(group, str, "group")
        require(member, str, "member_id")
        if group in self.consumer_groups:
            raise ValueError("a consumer group's name")
        entry = self.groups.setdefault(group, Group())
        if member in entry.members:
            return
        entry.members[member] = []
        self._reassign(entry)

    def share_leave(self, group, member):
        require(group, str, "group")
        require(member, str, "member_id")
        entry = self.groups.get(group)
        if entry is None or member not in entry.members:
            return
        for share in entry.shares.values():
            for record in share.records.values():
                if record.state == ACQUIRED and record.member == member:
                    self._release(record)
            self._advance_start(share)
        del entry.members[member]
        self._reassign(entry)

    def share_assignment(self, group, member):
        require(group, str, "group")
        require(member, str, "member_id")
        entry = self.groups.get(group)
        return list(entry.members.get(member, [])) if entry else []

    def _reassign(self, entry):
        n = self.num_partitions
        ids = sorted(entry.members)
        new = {member: [abs(java_hash(member)) % n] for member in ids}
        hashed = {partitions[0] for partitions in new.values()}
        held = {p for partitions in entry.members.values() for p in partitions}
        turn = 0
        for p in range(n):
            if p in hashed or p in held or not ids:
                continue
            new[ids[turn]].append(p)
            turn = (turn + 1) % len(ids)
        for member in ids:
            new[member] = sorted(set(new[member]) | set(entry.members[member]))
            for p in new[member]:
                if p not in entry.shares:
                    entry.shares[p] = Share(self.end_offset(p) if self.latest else 0)
        entry.members = new

    # ---- SG4, SG5, SG13 ----
    def share_poll(self, group, member, max_records=100):
        require(group, str, "group")
        require(member, str, "member_id")
        require(max_records, int, "max_records")
        if max_records < 0:
            raise ValueError("max_records")
        entry = self.groups.get(group)
        if entry is None or member not in entry.members:
            raise ValueError("not a member")
        out = []
        remaining = max_records
        for p in entry.members[member]:
            share = entry.shares[p]
            for offset in sorted(share.records):
                if remaining == 0:
                    break
                if share.records[offset].state == AVAILABLE:
                    self._take(share, p, offset, member, out)
                    remaining -= 1
            while (remaining > 0 and share.end < self.end_offset(p)
                   and share.end - share.start < self.max_locks):
                share.records[share.end] = Record()
                share.end += 1
                self._take(share, p, share.end - 1, member, out)
                remaining -= 1
        return out

    def _take(self, share, partition, offset, member, out):
        record = share.records[offset]
        if record.delivery_count > 0:
            share.redeliveries += 1
        share.deliveries += 1
        record.delivery_count += 1
        record.state = ACQUIRED
        record.member = member
        record.deadline = self.now + self.lock_ms
        key, value = self.logs[partition][offset]
        out.append({"partition": partition, "offset": offset, "key": key, "value": value,
                    "delivery_count": record.delivery_count})

    # ---- SG6, SG7, SG8, SG11, SG12 ----
    def acknowledge(self, group, member, records=None, type=None):
        require(group, str, "group")
        require(member, str, "member_id")
        if type is None:
            if not isinstance(records, str):
                raise TypeError("missing type")
            records, type = None, records
        require(type, str, "type")
        if records is not None:
            if isinstance(records, (str, bytes, dict)):
                raise TypeError("records")
            records = list(records)
            for pair in records:
                if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                    raise TypeError("pair")
                for number in pair:
                    require(number, int, "partition/offset")
        if type not in TYPES:
            raise ValueError("type")
        entry = self.groups.get(group)
        if records is None:
            if entry is not None:
                for share in entry.shares.values():
                    for record in share.records.values():
                        if record.state == ACQUIRED and record.member == member:
                            self._settle(record, type)
                    self._advance_start(share)
            return
        for partition, offset in records:
            record = self._find(entry, partition, offset)
            if record is None or record.state != ACQUIRED or record.member != member:
                raise NotAcquiredError("not held", partition, offset)
        for partition, offset in records:
            share = entry.shares[partition]
            record = share.records.get(offset)
            if record is None or record.state != ACQUIRED or record.member != member:
                continue  # named twice: acknowledged at its first mention
            self._settle(record, type)
            self._advance_start(share)

    @staticmethod
    def _find(entry, partition, offset):
        if entry is None or partition not in entry.shares:
            return None
        return entry.shares[partition].records.get(offset)

    def _release(self, record):
        record.member = None
        record.state = ARCHIVED if record.delivery_count >= self.limit else AVAILABLE

    def _settle(self, record, type):
        if type == "release":
            self._release(record)
        else:
            record.state = ACKNOWLEDGED if type == "accept" else ARCHIVED
            record.member = None

    @staticmethod
    def _advance_start(share):
        while share.start in share.records and share.records[share.start].state in (
                ACKNOWLEDGED, ARCHIVED):
            del share.records[share.start]
            share.start += 1

    # ---- SG9 ----
    def advance_clock(self, ms):
        require(ms, int, "ms")
        if ms < 0 or self.now + ms > INT64_MAX - self.lock_ms:
            raise ValueError("ms")
        self.now += ms
        for entry in self.groups.values():
            for share in entry.shares.values():
                for record in share.records.values():
                    if record.state == ACQUIRED and record.deadline <= self.now:
                        self._release(record)
                self._advance_start(share)

    def clock(self):
        return self.now

    # ---- SG3, SG12 ----
    def share_partition_state(self, group, partition):
        require(group, str, "group")
        require(partition, int, "partition")
        if not 0 <= partition < self.num_partitions:
            raise IndexError("partition")
        entry = self.groups.get(group)
        share = entry.shares.get(partition) if entry else None
        if share is None:
            start = self.end_offset(partition) if self.latest else 0
            return {"start_offset": start, "end_offset": start, "available": 0, "acquired": 0,
                    "acknowledged": 0, "archived": 0, "deliveries": 0, "redeliveries": 0}
        states = [record.state for record in share.records.values()]
        return {"start_offset": share.start, "end_offset": share.end,
                "available": states.count(AVAILABLE), "acquired": states.count(ACQUIRED),
                "acknowledged": states.count(ACKNOWLEDGED), "archived": states.count(ARCHIVED),
                "deliveries": share.deliveries, "redeliveries": share.redeliveries}

    def share_start_offset(self, group, partition):
        return self.share_partition_state(group, partition)["start_offset"]

    def held(self, group, member):
        """(partition, offset) of every record the member holds now."""
        entry = self.groups.get(group)
        if entry is None:
            return []
        return [(p, offset) for p, share in sorted(entry.shares.items())
                for offset, record in sorted(share.records.items())
                if record.state == ACQUIRED and record.member == member]
