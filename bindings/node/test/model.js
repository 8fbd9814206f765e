// SPDX-License-Identifier: Apache-2.0
//
// ModelTopic and modelPartitionFor: a small, straightforward pure-JS
// implementation of SPEC.md's model, options included (other partitioners,
// assignors, auto offset resets, lag and rebalance history), written from the
// spec alone: it calls nothing of the addon. It is the oracle of
// differential.test.js and the pure-JS baseline of bench/node_bench.mjs. Same
// API, argument checks, validation order and error classes as the package;
// messages are shorter. Single-threaded, like JS.
'use strict';

const { NotAssignedError, NoOffsetError } = require('kgroups');

const INT_MAX = 2147483647;
const DECIMAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;
const HISTORY_LIMIT = 1000; // rebalances kept per group

// SPEC.md "Options": each option's JS name and its choices, default first.
const OPTION_CHOICES = {
  partitioner: ['fnv1a', 'murmur2'],
  assignor: ['range', 'roundrobin', 'sticky', 'cooperative-sticky'],
  autoOffsetReset: ['earliest', 'latest', 'none'],
};

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

// Kafka's murmur2 (the Java client's Utils.murmur2) of the bytes, as the Java
// int it returns: seed 0x9747b28c, 4-byte little-endian blocks, then the tail
// bytes, then the final mix. Math.imul is Java's wrapping int multiply and
// >>> its unsigned shift.
function murmur2(bytes) {
  const m = 0x5bd1e995;
  const length = bytes.length;
  let h = 0x9747b28c ^ length;
  const tail = length - (length % 4);
  for (let i = 0; i < tail; i += 4) {
    let k = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  const left = length % 4;
  if (left === 3) h ^= bytes[tail + 2] << 16;
  if (left >= 2) h ^= bytes[tail + 1] << 8;
  if (left >= 1) h = Math.imul(h ^ bytes[tail], m);
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

function partitionOf(bytes, numPartitions, partitioner) {
  if (partitioner === 'murmur2') return (murmur2(bytes) & 0x7fffffff) % numPartitions;
  return fnv1a32(bytes) % numPartitions;
}

function checkChoice(value, name, what) {
  if (!OPTION_CHOICES[name].includes(value)) {
    throw new RangeError(`${what}: unknown ${name} ${JSON.stringify(value)}; choices: ${OPTION_CHOICES[name]}`);
  }
}

// Types of the options argument (TypeError); undefined, null and missing or
// undefined fields give the defaults. Values are checked later (checkChoice).
function optionsOf(options) {
  const result = Object.fromEntries(Object.entries(OPTION_CHOICES).map(([name, [first]]) => [name, first]));
  if (options === undefined || options === null) return result;
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError('Topic: options must be an object');
  }
  for (const key of Object.keys(options)) {
    if (!(key in OPTION_CHOICES)) throw new TypeError(`Topic: options has no field ${key}`);
  }
  for (const name of Object.keys(OPTION_CHOICES)) {
    const value = options[name];
    if (value === undefined) continue;
    checkString(value, `Topic: options.${name}`);
    result[name] = value;
  }
  return result;
}

// A byteString back as the JS string the engine would hand out.
function textOf(bytes) {
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function difference(list, minus) {
  return list.filter((item) => !minus.includes(item));
}

const ascending = (a, b) => a - b;

function checkPartitionCount(numPartitions, what) {
  checkNumber(numPartitions, what);
  checkSafeInteger(numPartitions, what);
  if (numPartitions < 1 || numPartitions > INT_MAX) {
    throw new RangeError(`${what} must be between 1 and ${INT_MAX}`);
  }
}

function modelPartitionFor(key, numPartitions, partitioner) {
  checkKeyValue(key, 'partitionFor: key');
  checkNumber(numPartitions, 'partitionFor: numPartitions');
  if (partitioner !== undefined) checkString(partitioner, 'partitionFor: partitioner');
  checkPartitionCount(numPartitions, 'partitionFor: numPartitions');
  if (partitioner !== undefined) checkChoice(partitioner, 'partitioner', 'partitionFor');
  return partitionOf(bytesOf(key), numPartitions, partitioner);
}

// The assignors of SPEC.md "Assignors": members sorted by id (bytewise), the
// previous assignment as a Map member -> partitions; each returns the new one.
const ASSIGNORS = {
  range(members, numPartitions) {
    const assignment = new Map();
    const perMember = Math.floor(numPartitions / Math.max(members.length, 1));
    const extra = numPartitions % Math.max(members.length, 1);
    let next = 0;
    members.forEach((member, index) => {
      const count = perMember + (index < extra ? 1 : 0);
      assignment.set(member, Array.from({ length: count }, (_, i) => next + i));
      next += count;
    });
    return assignment;
  },

  roundrobin(members, numPartitions) {
    const assignment = new Map(members.map((member) => [member, []]));
    for (let partition = 0; partition < numPartitions && members.length > 0; partition++) {
      assignment.get(members[partition % members.length]).push(partition);
    }
    return assignment;
  },

  sticky(members, numPartitions, previous) {
    const assignment = new Map();
    if (members.length === 0) return assignment;
    const owned = (member) => [...(previous.get(member) ?? [])].sort(ascending);
    // Larger shares to the members that owned the most before (ties: smaller id).
    const byOwned = [...members].sort((a, b) => owned(b).length - owned(a).length || (a < b ? -1 : 1));
    const share = new Map(byOwned.map((member, rank) => [
      member,
      Math.floor(numPartitions / members.length) + (rank < numPartitions % members.length ? 1 : 0),
    ]));
    for (const member of members) assignment.set(member, owned(member).slice(0, share.get(member)));
    const kept = new Set([...assignment.values()].flat());
    const leftover = Array.from({ length: numPartitions }, (_, p) => p).filter((p) => !kept.has(p));
    for (const member of members) {
      const partitions = assignment.get(member);
      while (partitions.length < share.get(member)) partitions.push(leftover.shift());
      partitions.sort(ascending);
    }
    return assignment;
  },
};
ASSIGNORS['cooperative-sticky'] = ASSIGNORS.sticky;

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
  #options; // { partitioner, assignor, autoOffsetReset }
  // byteString(group) -> { members, assignment, positions, committed, generation, history }
  #groups = new Map();

  constructor(numPartitions, options) {
    checkNumber(numPartitions, 'Topic: numPartitions');
    const chosen = optionsOf(options);
    checkPartitionCount(numPartitions, 'Topic: numPartitions');
    for (const name of Object.keys(OPTION_CHOICES)) checkChoice(chosen[name], name, 'Topic');
    this.#options = chosen;
    this.#logs = Array.from({ length: numPartitions }, () => []);
  }

  append(key, value) {
    checkKeyValue(key, 'append: key');
    checkKeyValue(value, 'append: value');
    const partition = partitionOf(bytesOf(key), this.#logs.length, this.#options.partitioner);
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
      state = {
        members: [],
        assignment: new Map(),
        positions: new Map(),
        committed: new Map(),
        generation: 0,
        history: [],
      };
      this.#groups.set(groupKey, state);
    }
    const member = byteString(consumerId);
    if (state.members.includes(member)) return;
    state.members.push(member);
    this.#rebalance(state, 'join', member);
  }

  leave(group, consumerId) {
    checkString(group, 'leave: group');
    checkString(consumerId, 'leave: consumerId');
    const state = this.#groups.get(byteString(group));
    const member = byteString(consumerId);
    if (!state || !state.members.includes(member)) return;
    state.members = state.members.filter((other) => other !== member);
    this.#rebalance(state, 'leave', member);
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
    if (maxRecords === 0) return [];
    const state = this.#groups.get(byteString(group));
    const member = byteString(consumerId);
    const assigned = state?.assignment.get(member) ?? [];
    // autoOffsetReset "none": a partition without a position takes the group's
    // committed offset now; if some have none, NoOffsetError and no change.
    const unpositioned = assigned.filter((partition) => !state.positions.get(member).has(partition));
    const noOffset = unpositioned.filter((partition) => !state.committed.has(partition));
    if (noOffset.length > 0) {
      throw new NoOffsetError(`poll: no committed offset for partitions ${noOffset}`, noOffset);
    }
    for (const partition of unpositioned) {
      state.positions.get(member).set(partition, state.committed.get(partition));
    }
    const records = [];
    for (const partition of assigned) {
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
        const position = state.positions.get(member).get(partition);
        if (position !== undefined) state.committed.set(partition, position);
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

  lag(group) {
    checkString(group, 'lag: group');
    const state = this.#groups.get(byteString(group));
    const lag = {};
    this.#logs.forEach((log, partition) => {
      lag[partition] = log.length - (state?.committed.get(partition) ?? 0);
    });
    return lag;
  }

  rebalances(group) {
    checkString(group, 'rebalances: group');
    const state = this.#groups.get(byteString(group));
    return structuredClone(state?.history ?? []);
  }

  // Drops the records and groups, as the addon's close() frees them. The model does not
  // check calls after close(): topic_close.test.js checks the addon's error.
  close() {
    this.#logs = Array.from({ length: this.#logs.length }, () => []);
    this.#groups = new Map();
  }

  #checkPartition(partition, what) {
    checkNumber(partition, what);
    checkSafeInteger(partition, what);
    if (partition < 0 || partition >= this.#logs.length) {
      throw new RangeError(`${what} ${partition} is out of range`);
    }
  }

  // The assignor's new assignment over the members sorted bytewise; then
  // positions: eagerly every partition starts again, cooperatively only those
  // new to their member. A partition starts from the committed offset, or as
  // autoOffsetReset says if the group never committed it (none: no position).
  #rebalance(state, cause, consumer) {
    state.members.sort();
    const previous = state.assignment;
    const previousPositions = state.positions;
    const { assignor, autoOffsetReset } = this.#options;
    const cooperative = assignor === 'cooperative-sticky';
    state.assignment = ASSIGNORS[assignor](state.members, this.#logs.length, previous);
    state.positions = new Map();
    const members = [];
    for (const member of state.members) {
      const now = state.assignment.get(member);
      const before = previous.get(member) ?? [];
      const positions = new Map();
      for (const partition of now) {
        if (cooperative && before.includes(partition)) {
          const kept = previousPositions.get(member).get(partition);
          if (kept !== undefined) positions.set(partition, kept);
        } else if (state.committed.has(partition)) {
          positions.set(partition, state.committed.get(partition));
        } else if (autoOffsetReset === 'earliest') {
          positions.set(partition, 0);
        } else if (autoOffsetReset === 'latest') {
          positions.set(partition, this.#logs[partition].length);
        }
      }
      state.positions.set(member, positions);
      members.push({
        id: textOf(member),
        assignment: [...now],
        revoked: cooperative ? difference(before, now) : [...before],
        assigned: cooperative ? difference(now, before) : [...now],
      });
    }
    state.generation += 1;
    state.history.push({ generation: state.generation, cause, consumer: textOf(consumer), members });
    if (state.history.length > HISTORY_LIMIT) state.history.shift();
  }
}

module.exports = { ModelTopic, modelPartitionFor, fnv1a32, murmur2, ASSIGNORS, OPTION_CHOICES };
