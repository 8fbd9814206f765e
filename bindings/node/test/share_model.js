// SPDX-License-Identifier: Apache-2.0
//
// ShareModel: SPEC.md's share-group rules (SG1..SG15) written as plainly as possible in
// JavaScript, for share_differential.test.js: Maps of records by offset, members by id,
// one loop per rule. Only what share groups need of a topic: appendTo (the caller picks
// the partition), endOffset, and consumer-group names (join) for SG1. Errors are thrown
// as the package throws them (TypeError, RangeError, NotAcquiredError), before anything
// changes.
'use strict';

const { NotAcquiredError } = require('kgroups');

const AVAILABLE = 'available';
const ACQUIRED = 'acquired';
const ACKNOWLEDGED = 'acknowledged';
const ARCHIVED = 'archived';
const TYPES = ['accept', 'release', 'reject'];
const INT64_MAX = 2n ** 63n - 1n;

// Java's String.hashCode over UTF-16 code units, as a signed 32-bit int.
function javaHash(id) {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (Math.imul(hash, 31) + id.charCodeAt(i)) | 0;
  return hash;
}

// Members sorted bytewise by UTF-8, as SPEC.md sorts ids.
function byUtf8(a, b) {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

function requireString(value, what) {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string`);
}

function requireSafeInteger(value, what) {
  if (typeof value !== 'number') throw new TypeError(`${what} must be a number`);
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be a safe integer`);
}

class ShareModel {
  constructor(numPartitions, options = {}) {
    this.numPartitions = numPartitions;
    this.latest = (options.shareAutoOffsetReset ?? 'latest') === 'latest';
    this.lockMs = options.recordLockDurationMs ?? 30000;
    this.limit = options.deliveryCountLimit ?? 5;
    this.maxLocks = options.partitionMaxRecordLocks ?? 2000;
    this.logs = Array.from({ length: numPartitions }, () => []);
    this.consumerGroups = new Set();
    this.groups = new Map(); // name -> { members: Map(id -> partitions), shares: Map(p -> share) }
    this.now = 0;
  }

  appendTo(partition, key, value) {
    this.logs[partition].push([key, value]);
  }

  endOffset(partition) {
    return this.logs[partition].length;
  }

  join(group) {
    if (this.groups.has(group)) throw new RangeError("a share group's name");
    this.consumerGroups.add(group);
  }

  // SG1, SG2, SG3.
  shareJoin(group, member) {
    requireString(group, 'group');
    requireString(member, 'memberId');
    if (this.consumerGroups.has(group)) throw new RangeError("a consumer group's name");
    if (!this.groups.has(group)) this.groups.set(group, { members: new Map(), shares: new Map() });
    const entry = this.groups.get(group);
    if (entry.members.has(member)) return;
    entry.members.set(member, []);
    this.#reassign(entry);
  }

  shareLeave(group, member) {
    requireString(group, 'group');
    requireString(member, 'memberId');
    const entry = this.groups.get(group);
    if (!entry || !entry.members.has(member)) return;
    for (const share of entry.shares.values()) {
      for (const record of share.records.values()) {
        if (record.state === ACQUIRED && record.member === member) this.#release(record);
      }
      advanceStart(share);
    }
    entry.members.delete(member);
    this.#reassign(entry);
  }

  shareAssignment(group, member) {
    requireString(group, 'group');
    requireString(member, 'memberId');
    return [...(this.groups.get(group)?.members.get(member) ?? [])];
  }

  #reassign(entry) {
    const n = this.numPartitions;
    const ids = [...entry.members.keys()].sort(byUtf8);
    const next = new Map(ids.map((id) => [id, [Math.abs(javaHash(id) % n)]]));
    const hashed = new Set([...next.values()].map((partitions) => partitions[0]));
    const held = new Set([...entry.members.values()].flat());
    let turn = 0;
    for (let p = 0; p < n && ids.length > 0; p++) {
      if (hashed.has(p) || held.has(p)) continue;
      next.get(ids[turn]).push(p);
      turn = (turn + 1) % ids.length;
    }
    for (const id of ids) {
      const partitions = [...new Set([...next.get(id), ...entry.members.get(id)])].sort((a, b) => a - b);
      next.set(id, partitions);
      for (const p of partitions) {
        if (!entry.shares.has(p)) {
          const start = this.latest ? this.endOffset(p) : 0;
          entry.shares.set(p, { start, end: start, records: new Map(), deliveries: 0, redeliveries: 0 });
        }
      }
    }
    entry.members = next;
  }

  // SG4, SG5, SG13.
  sharePoll(group, member, maxRecords = 100) {
    requireString(group, 'group');
    requireString(member, 'memberId');
    if (typeof maxRecords !== 'number') throw new TypeError('maxRecords must be a number');
    requireSafeInteger(maxRecords, 'maxRecords');
    if (maxRecords < 0) throw new RangeError('maxRecords');
    const entry = this.groups.get(group);
    if (!entry || !entry.members.has(member)) throw new RangeError('not a member');
    const out = [];
    let remaining = maxRecords;
    for (const p of entry.members.get(member)) {
      const share = entry.shares.get(p);
      for (const offset of [...share.records.keys()].sort((a, b) => a - b)) {
        if (remaining === 0) break;
        if (share.records.get(offset).state !== AVAILABLE) continue;
        this.#take(share, p, offset, member, out);
        remaining -= 1;
      }
      while (remaining > 0 && share.end < this.endOffset(p) && share.end - share.start < this.maxLocks) {
        share.records.set(share.end, { state: AVAILABLE, member: null, deadline: 0, deliveryCount: 0 });
        share.end += 1;
        this.#take(share, p, share.end - 1, member, out);
        remaining -= 1;
      }
    }
    return out;
  }

  #take(share, partition, offset, member, out) {
    const record = share.records.get(offset);
    if (record.deliveryCount > 0) share.redeliveries += 1;
    share.deliveries += 1;
    record.deliveryCount += 1;
    record.state = ACQUIRED;
    record.member = member;
    record.deadline = this.now + this.lockMs;
    const [key, value] = this.logs[partition][offset];
    out.push({ partition, offset, key, value, deliveryCount: record.deliveryCount });
  }

  // SG6, SG7, SG8, SG11, SG12.
  acknowledge(group, member, records, type) {
    requireString(group, 'group');
    requireString(member, 'memberId');
    if (typeof records === 'string' && type === undefined) [records, type] = [undefined, records];
    if (typeof type !== 'string') throw new TypeError('type must be a string');
    const implicit = records === undefined || records === null;
    if (!implicit) {
      if (!Array.isArray(records)) throw new TypeError('records must be an array');
      for (const pair of records) {
        const ok = Array.isArray(pair) && pair.length === 2 && pair.every((x) => typeof x === 'number');
        if (!ok) throw new TypeError('each record is a [partition, offset] pair');
      }
    }
    if (!TYPES.includes(type)) throw new RangeError('unknown type');
    if (!implicit) {
      for (const [partition, offset] of records) {
        requireSafeInteger(partition, 'partition');
        requireSafeInteger(offset, 'offset');
      }
    }
    const entry = this.groups.get(group);
    if (implicit) {
      if (!entry) return;
      for (const share of entry.shares.values()) {
        for (const record of share.records.values()) {
          if (record.state === ACQUIRED && record.member === member) this.#settle(record, type);
        }
        advanceStart(share);
      }
      return;
    }
    for (const [partition, offset] of records) {
      const record = entry?.shares.get(partition)?.records.get(offset);
      if (!record || record.state !== ACQUIRED || record.member !== member) {
        throw new NotAcquiredError('not held', partition, offset);
      }
    }
    for (const [partition, offset] of records) {
      const share = entry.shares.get(partition);
      const record = share.records.get(offset);
      if (!record || record.state !== ACQUIRED || record.member !== member) continue; // named twice
      this.#settle(record, type);
      advanceStart(share);
    }
  }

  #release(record) {
    record.member = null;
    record.state = record.deliveryCount >= this.limit ? ARCHIVED : AVAILABLE;
  }

  #settle(record, type) {
    if (type === 'release') {
      this.#release(record);
      return;
    }
    record.state = type === 'accept' ? ACKNOWLEDGED : ARCHIVED;
    record.member = null;
  }

  // SG9.
  advanceClock(ms) {
    requireSafeInteger(ms, 'ms');
    if (ms < 0 || BigInt(this.now) + BigInt(ms) > INT64_MAX - BigInt(this.lockMs)) {
      throw new RangeError('ms');
    }
    this.now += ms;
    for (const entry of this.groups.values()) {
      for (const share of entry.shares.values()) {
        for (const record of share.records.values()) {
          if (record.state === ACQUIRED && record.deadline <= this.now) this.#release(record);
        }
        advanceStart(share);
      }
    }
  }

  clock() {
    return this.now;
  }

  // SG3, SG12.
  sharePartitionState(group, partition) {
    requireString(group, 'group');
    requireSafeInteger(partition, 'partition');
    if (partition < 0 || partition >= this.numPartitions) throw new RangeError('partition');
    const share = this.groups.get(group)?.shares.get(partition);
    if (!share) {
      const start = this.latest ? this.endOffset(partition) : 0;
      return { startOffset: start, endOffset: start, available: 0, acquired: 0, acknowledged: 0,
        archived: 0, deliveries: 0, redeliveries: 0 };
    }
    const states = [...share.records.values()].map((record) => record.state);
    const count = (state) => states.filter((s) => s === state).length;
    return { startOffset: share.start, endOffset: share.end, available: count(AVAILABLE),
      acquired: count(ACQUIRED), acknowledged: count(ACKNOWLEDGED), archived: count(ARCHIVED),
      deliveries: share.deliveries, redeliveries: share.redeliveries };
  }

  shareStartOffset(group, partition) {
    return this.sharePartitionState(group, partition).startOffset;
  }

  // [partition, offset] of every record the member holds now.
  held(group, member) {
    const result = [];
    const entry = this.groups.get(group);
    if (!entry) return result;
    for (const [p, share] of [...entry.shares].sort((a, b) => a[0] - b[0])) {
      for (const [offset, record] of [...share.records].sort((a, b) => a[0] - b[0])) {
        if (record.state === ACQUIRED && record.member === member) result.push([p, offset]);
      }
    }
    return result;
  }
}

function advanceStart(share) {
  while (share.records.has(share.start) &&
         [ACKNOWLEDGED, ARCHIVED].includes(share.records.get(share.start).state)) {
    share.records.delete(share.start);
    share.start += 1;
  }
}

module.exports = { ShareModel, javaHash };
