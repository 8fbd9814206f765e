// SPDX-License-Identifier: Apache-2.0
//
// ModelTopic and modelPartitionFor: a small, straightforward pure-JS
// implementation of SPEC.md's model, written from the spec alone. It is the
// oracle of differential.test.js and the pure-JS baseline of
// bench/node_bench.mjs. Same API, argument checks, validation order and error
// classes as the package; messages are shorter. Single-threaded, like JS.
'use strict';

const { NotAssignedError } = require('kgroups');

const INT_MAX = 2147483647;
const DECIMAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;

function checkString(value, what) {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string`);
}

function checkNumber(value, what) {
  if (typeof value !== 'number') throw new TypeError(`${what} must be a number`);
}

function isUint8Array(value) {
  return ArrayBuffer.isView(value) && value[Symbol.toStringTag] === 'Uint8Array';
}

function checkKeyValue(value, what) {
  if (typeof value !== 'string' && !isUint8Array(value)) {
    throw new TypeError(`${what} must be a string or a Uint8Array`);
  }
}

function checkSafeInteger(value, what) {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be a safe integer`);
}

// A string's UTF-8 bytes as a "binary" string (one char per byte), so that
// equality and < compare bytes, as SPEC.md asks for group and consumer names.
function byteString(text) {
  return Buffer.from(text, 'utf8').toString('latin1');
}

function bytesOf(keyOrValue) {
  return typeof keyOrValue === 'string' ? Buffer.from(keyOrValue, 'utf8') : keyOrValue;
}

function fnv1a32(bytes) {
  let hash = 2166136261;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 16777619) >>> 0;
  return hash;
}

function checkPartitionCount(numPartitions, what) {
  checkNumber(numPartitions, what);
  checkSafeInteger(numPartitions, what);
  if (numPartitions < 1 || numPartitions > INT_MAX) {
    throw new RangeError(`${what} must be between 1 and ${INT_MAX}`);
  }
}

function modelPartitionFor(key, numPartitions) {
  checkKeyValue(key, 'partitionFor: key');
  checkPartitionCount(numPartitions, 'partitionFor: numPartitions');
  return fnv1a32(bytesOf(key)) % numPartitions;
}

// What the topic keeps of a key or value: strings as the engine would hand
// them back (lone surrogates become U+FFFD), bytes as a private copy.
function stored(keyOrValue) {
  if (typeof keyOrValue !== 'string') return Buffer.from(keyOrValue);
  return keyOrValue.isWellFormed() ? keyOrValue : Buffer.from(keyOrValue, 'utf8').toString('utf8');
}

function handedOut(keyOrValue) {
  return typeof keyOrValue === 'string' ? keyOrValue : Buffer.from(keyOrValue);
}

class ModelTopic {
  #logs; // per partition: array of { key, value }
  #groups = new Map(); // byteString(group) -> { members, assignment, positions, committed }

  constructor(numPartitions) {
    checkPartitionCount(numPartitions, 'Topic: numPartitions');
    this.#logs = Array.from({ length: numPartitions }, () => []);
  }

  append(key, value) {
    checkKeyValue(key, 'append: key');
    checkKeyValue(value, 'append: value');
    const partition = fnv1a32(bytesOf(key)) % this.#logs.length;
    const log = this.#logs[partition];
    log.push({ key: stored(key), value: stored(value) });
    return [partition, log.length - 1];
  }

  endOffset(partition) {
    this.#checkPartition(partition, 'endOffset: partition');
    return this.#logs[partition].length;
  }

  join(group, consumerId) {
    checkString(group, 'join: group');
    checkString(consumerId, 'join: consumerId');
    const groupKey = byteString(group);
    let state = this.#groups.get(groupKey);
    if (!state) {
      state = { members: [], assignment: new Map(), positions: new Map(), committed: new Map() };
      this.#groups.set(groupKey, state);
    }
    const member = byteString(consumerId);
    if (state.members.includes(member)) return;
    state.members.push(member);
    this.#rebalance(state);
  }

  leave(group, consumerId) {
    checkString(group, 'leave: group');
    checkString(consumerId, 'leave: consumerId');
    const state = this.#groups.get(byteString(group));
    const member = byteString(consumerId);
    if (!state || !state.members.includes(member)) return;
    state.members = state.members.filter((other) => other !== member);
    this.#rebalance(state);
  }

  assignment(group, consumerId) {
    checkString(group, 'assignment: group');
    checkString(consumerId, 'assignment: consumerId');
    const state = this.#groups.get(byteString(group));
    return [...(state?.assignment.get(byteString(consumerId)) ?? [])];
  }

  poll(group, consumerId, maxRecords = 100) {
    checkString(group, 'poll: group');
    checkString(consumerId, 'poll: consumerId');
    checkNumber(maxRecords, 'poll: maxRecords');
    checkSafeInteger(maxRecords, 'poll: maxRecords');
    if (maxRecords < 0) throw new RangeError('poll: maxRecords must be 0 or more');
    const state = this.#groups.get(byteString(group));
    const member = byteString(consumerId);
    const records = [];
    for (const partition of state?.assignment.get(member) ?? []) {
      const positions = state.positions.get(member);
      const log = this.#logs[partition];
      let position = positions.get(partition);
      while (records.length < maxRecords && position < log.length) {
        const { key, value } = log[position];
        records.push({ partition, offset: position, key: handedOut(key), value: handedOut(value) });
        position += 1;
      }
      positions.set(partition, position);
    }
    return records;
  }

  commit(group, consumerId, offsets) {
    checkString(group, 'commit: group');
    checkString(consumerId, 'commit: consumerId');
    const state = this.#groups.get(byteString(group));
    const member = byteString(consumerId);
    const assigned = state?.assignment.get(member) ?? [];
    if (offsets === undefined || offsets === null) {
      for (const partition of assigned) {
        state.committed.set(partition, state.positions.get(member).get(partition));
      }
      return;
    }
    const prototype = typeof offsets === 'object' ? Object.getPrototypeOf(offsets) : undefined;
    if (prototype !== null && prototype !== Object.prototype) {
      throw new TypeError('commit: offsets must be a plain object');
    }
    const entries = Object.entries(offsets);
    for (const [, offset] of entries) checkNumber(offset, 'commit: offset');
    for (const [key, offset] of entries) {
      if (!DECIMAL_INTEGER.test(key)) throw new RangeError(`commit: key ${key} is no partition`);
      checkSafeInteger(offset, 'commit: offset');
    }
    for (const [key] of entries) {
      const partition = Number(key);
      if (!assigned.includes(partition)) {
        throw new NotAssignedError(`commit: partition ${partition} is not assigned`, partition);
      }
    }
    for (const [key, offset] of entries) {
      if (offset < 0 || offset > this.#logs[Number(key)].length) {
        throw new RangeError(`commit: offset ${offset} is out of range`);
      }
    }
    for (const [key, offset] of entries) state.committed.set(Number(key), offset);
  }

  committed(group, partition) {
    checkString(group, 'committed: group');
    this.#checkPartition(partition, 'committed: partition');
    return this.#groups.get(byteString(group))?.committed.get(partition) ?? 0;
  }

  #checkPartition(partition, what) {
    checkNumber(partition, what);
    checkSafeInteger(partition, what);
    if (partition < 0 || partition >= this.#logs.length) {
      throw new RangeError(`${what} ${partition} is out of range`);
    }
  }

  // Range assignor over members sorted bytewise, then every position reset to
  // the committed offset (eager rebalance).
  #rebalance(state) {
    state.members.sort();
    state.assignment = new Map();
    state.positions = new Map();
    const numPartitions = this.#logs.length;
    const perMember = Math.floor(numPartitions / Math.max(state.members.length, 1));
    const extra = numPartitions % Math.max(state.members.length, 1);
    let next = 0;
    state.members.forEach((member, index) => {
      const count = perMember + (index < extra ? 1 : 0);
      const partitions = Array.from({ length: count }, (_, i) => next + i);
      next += count;
      state.assignment.set(member, partitions);
      state.positions.set(
        member,
        new Map(partitions.map((partition) => [partition, state.committed.get(partition) ?? 0])),
      );
    });
  }
}

module.exports = { ModelTopic, modelPartitionFor, fnv1a32 };
