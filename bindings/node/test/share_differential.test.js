// SPDX-License-Identifier: Apache-2.0
//
// Randomized differential test of share groups: thousands of random calls, valid and
// invalid, on the package's Topic and on ShareModel (share_model.js, SPEC.md's share-group
// rules in plain JS): several members on shared partitions, acknowledgements of records
// held, not held and named twice, clock moves across lock deadlines, leaves. Every result
// and error class (NotAcquiredError with its partition and offset) must match, and the
// whole observable state every few calls. Seeded: a failure names its seed and step.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Topic, NotAcquiredError, partitionFor } = require('kgroups');
const { ShareModel, javaHash } = require('./share_model.js');
const { random } = require('./seeded_random.js');

const GROUPS = ['queue', 'jobs', 'billing']; // billing is sometimes a consumer group's name
const MEMBERS = ['A', 'B', 'C', 'D', 'member-1', 'é'];
const TYPES = ['accept', 'release', 'reject'];
const BAD_TYPES = ['gap', 'Accept', '', 1, null];
const BAD_RECORDS = ['x', 5, [[0]], [[0, '1']], [[0, 1, 2]], { 0: 1 }, [[0, 2.5]], [[NaN, 0]]];
const ODD_PARTITIONS = [2 ** 31, -(2 ** 31) - 1, 2 ** 40, -1];

function outcome(call) {
  try {
    return { value: normalize(call()) };
  } catch (error) {
    if (error instanceof NotAcquiredError) {
      return { error: 'NotAcquiredError', partition: error.partition, offset: error.offset };
    }
    for (const errorClass of [TypeError, RangeError]) {
      if (error instanceof errorClass) return { error: errorClass.name };
    }
    throw error;
  }
}

// Uint8Arrays as tagged byte lists, so deepEqual compares kinds too.
function normalize(value) {
  if (value instanceof Uint8Array) return { bytes: [...value] };
  if (Array.isArray(value)) return value.map(normalize);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]));
  }
  return value;
}

function keyFor(partition, numPartitions) {
  for (let i = 0; ; i++) if (partitionFor(`share-key${i}`, numPartitions) === partition) return `share-key${i}`;
}

function observableState(topic, numPartitions) {
  const partitions = [...Array(numPartitions).keys()];
  return {
    ends: partitions.map((p) => topic.endOffset(p)),
    assignments: GROUPS.flatMap((g) => MEMBERS.map((m) => topic.shareAssignment(g, m))),
    states: GROUPS.flatMap((g) => partitions.map((p) => topic.sharePartitionState(g, p))),
    clock: topic.clock(),
  };
}

function draw(rand, model) {
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const n = model.numPartitions;
  const group = rand() < 0.02 ? pick([1, null]) : pick(GROUPS);
  const member = rand() < 0.02 ? pick([Buffer.from('A'), 2]) : pick(MEMBERS);
  const partition = () => (rand() < 0.03 ? pick([...ODD_PARTITIONS, n, 1.5, '0']) : Math.floor(rand() * n));
  const type = () => (rand() < 0.03 ? pick(BAD_TYPES) : pick(TYPES));
  const records = () => {
    if (rand() < 0.02) return pick(BAD_RECORDS);
    const held = typeof group === 'string' ? model.held(group, member) : [];
    const others = MEMBERS.filter((m) => m !== member)
      .flatMap((m) => (typeof group === 'string' ? model.held(group, m) : []));
    const picked = held.filter(() => rand() < 0.5);
    if (others.length > 0 && rand() < 0.2) picked.splice(Math.floor(rand() * (picked.length + 1)), 0, pick(others));
    if (rand() < 0.1) picked.push([partition(), pick([0, 1, 5, -1])]);
    if (picked.length > 0 && rand() < 0.1) picked.push(picked[0]); // named twice
    return picked;
  };
  const r = rand() * 100;
  if (r < 20) return ['append', [Math.floor(rand() * n), pick(['v', Uint8Array.of(0, 118), ''])]];
  if (r < 26) return ['shareJoin', [group, member]];
  if (r < 29) return ['shareLeave', [group, member]];
  if (r < 32) return ['shareAssignment', [group, member]];
  if (r < 52) {
    if (rand() < 0.3) return ['sharePoll', [group, member]];
    return ['sharePoll', [group, member, pick([0, 1, 2, 3, 5, 10, 100, -1, 2 ** 40, 1.5, '1'])]];
  }
  if (r < 72) return ['acknowledge', [group, member, records(), type()]];
  if (r < 77) return rand() < 0.5 ? ['acknowledge', [group, member, type()]] : ['acknowledge', [group, member, null, type()]];
  if (r < 85) {
    const lock = model.lockMs;
    return ['advanceClock', [pick([0, 1, lock - 1, lock, lock + 1, Math.floor(lock / 2), 3 * lock, -1, 2 ** 53, 2.5, '1'])]];
  }
  if (r < 92) return ['sharePartitionState', [group, partition()]];
  if (r < 97) return ['shareStartOffset', [group, partition()]];
  return ['join', ['billing', 'consumer']];
}

function run(seed, numPartitions, options, steps) {
  const rand = random(seed);
  const model = new ShareModel(numPartitions, options);
  const topic = new Topic(numPartitions, options);
  const counts = { errors: 0, notAcquired: 0, redelivered: 0 };
  for (let step = 0; step < steps; step++) {
    const [op, args] = draw(rand, model);
    const where = `seed ${seed} step ${step}: ${op}(${JSON.stringify(args)})`;
    let expected;
    let actual;
    if (op === 'append') {
      const [partition, value] = args;
      const key = keyFor(partition, numPartitions);
      model.appendTo(partition, key, value);
      actual = { value: topic.append(key, value)[0] };
      expected = { value: partition };
    } else {
      expected = outcome(() => model[op](...args));
      actual = outcome(() => topic[op](...args));
    }
    assert.deepEqual(actual, expected, where);
    if (expected.error) counts.errors += 1;
    if (expected.error === 'NotAcquiredError') counts.notAcquired += 1;
    if (op === 'sharePoll' && expected.value) {
      counts.redelivered += expected.value.filter((r) => r.deliveryCount > 1).length;
    }
    if (step % 25 === 0) assert.deepEqual(observableState(topic, numPartitions), observableState(model, numPartitions), where);
  }
  assert.deepEqual(observableState(topic, numPartitions), observableState(model, numPartitions));
  return counts;
}

for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
  const rand = random(9000 + seed);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const options = {
    shareAutoOffsetReset: seed % 2 === 0 ? 'latest' : 'earliest',
    recordLockDurationMs: pick([1, 100, 30000]),
    deliveryCountLimit: pick([2, 3, 5, 10]),
    partitionMaxRecordLocks: 100,
  };
  const numPartitions = pick([1, 2, 3, 5]);
  test(`random share-group calls match the model: seed ${seed}, ${numPartitions} partitions, ${JSON.stringify(options)}`, () => {
    const counts = run(seed, numPartitions, options, 1500);
    assert.ok(counts.errors > 20, 'the random calls exercise the error paths');
    assert.ok(counts.notAcquired > 5, 'and acknowledgements of records not held');
    assert.ok(counts.redelivered > 5, 'and redeliveries');
  });
}

test('the model hashes member ids as Java does', () => {
  assert.equal(javaHash('A'), 65);
  assert.equal(javaHash('Aa'), 2112);
  assert.equal(javaHash('BB'), 2112);
  assert.equal(javaHash('hello'), 99162322);
  assert.equal(javaHash('polygenelubricants'), -(2 ** 31));
  assert.equal(javaHash('\u{10000}'), 0xd800 * 31 + 0xdc00);
});

// SG14 as the model states it: types first (TypeError), then values (RangeError).
function checkOptions(options) {
  const { shareAutoOffsetReset: reset, recordLockDurationMs: lock, deliveryCountLimit: limit,
    partitionMaxRecordLocks: locks } = options;
  if (reset !== undefined && typeof reset !== 'string') throw new TypeError('shareAutoOffsetReset');
  for (const value of [lock, limit, locks]) {
    if (value !== undefined && typeof value !== 'number') throw new TypeError('a number option');
  }
  const inRange = (value, min, max) => value === undefined || (Number.isSafeInteger(value) && value >= min && value <= max);
  if (reset !== undefined && !['latest', 'earliest'].includes(reset)) throw new RangeError('shareAutoOffsetReset');
  if (!inRange(lock, 1, Number.MAX_SAFE_INTEGER)) throw new RangeError('recordLockDurationMs');
  if (!inRange(limit, 2, 10)) throw new RangeError('deliveryCountLimit');
  if (!inRange(locks, 100, 10000)) throw new RangeError('partitionMaxRecordLocks');
}

test('construction with random share options matches the model', () => {
  const rand = random(77);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const choices = {
    shareAutoOffsetReset: ['latest', 'earliest', 'none', '', 'Latest', 1, null, undefined],
    recordLockDurationMs: [1, 30000, 2 ** 53 - 1, 0, -1, 2 ** 53, 1.5, '5', true, NaN, undefined],
    deliveryCountLimit: [2, 5, 10, 1, 11, -(2 ** 40), 2 ** 40, 3.5, null, false, undefined],
    partitionMaxRecordLocks: [100, 2000, 10000, 99, 10001, 2 ** 31, '100', Infinity, undefined],
  };
  const seen = new Set();
  for (let i = 0; i < 500; i++) {
    const options = {};
    for (const [name, values] of Object.entries(choices)) if (rand() < 0.6) options[name] = pick(values);
    const expected = outcome(() => checkOptions(options));
    const actual = outcome(() => {
      new Topic(1, options);
    });
    assert.deepEqual(actual, expected, `new Topic(1, ${JSON.stringify(options)})`);
    seen.add(expected.error ?? 'ok');
  }
  assert.deepEqual([...seen].sort(), ['RangeError', 'TypeError', 'ok']);
});
