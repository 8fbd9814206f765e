// SPDX-License-Identifier: Apache-2.0
//
// Randomized differential test: thousands of random calls, valid and invalid,
// on the package's Topic and on ModelTopic (model.js, the spec in plain JS),
// comparing every result and every error class, and the whole observable state
// every few calls. Seeded: a failure names its seed and step to replay.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Topic, NotAssignedError, partitionFor } = require('kgroups');
const { ModelTopic, modelPartitionFor } = require('./model.js');

const SEEDS = [1, 2, 3, 4, 5, 6];
const STEPS_PER_SEED = 2500;

// mulberry32: a small deterministic PRNG.
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GROUPS = ['billing', 'analytics', '', 'é'];
const CONSUMERS = ['A', 'B', 'C', 'a', '', '\uFFFF', '\u{10000}', 'Ä'];
const TEXT_KEYS = ['', 'a', 'foobar', 'k1', 'k2', 'k3', 'é', '🙂', 'x'.repeat(300)];
const BAD_VALUES = [undefined, null, 7, true, {}, [1], new Int8Array(1), 1n];
const BAD_NUMBERS = ['1', null, true, [], {}, 1n];
const NOT_SAFE = [2.5, NaN, Infinity, -0.5, 2 ** 53];
const BAD_OFFSETS = [[0], new Map([[0, 0]]), 'x', 5, true, { x: 0 }, { 0: '1' }, { '01': 0 },
  { 0: 2.5 }, { '-0': 0 }, { 0: null }];

// The result of a call as plain data: a value (Uint8Arrays as tagged byte
// lists) or the class of the error it threw.
function outcome(call) {
  try {
    return { value: normalize(call()) };
  } catch (error) {
    for (const errorClass of [NotAssignedError, TypeError, RangeError]) {
      if (error instanceof errorClass) return { error: errorClass.name };
    }
    throw error;
  }
}

function normalize(value) {
  if (value instanceof Uint8Array) return { bytes: [...value] };
  if (Array.isArray(value)) return value.map(normalize);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]));
  }
  return value;
}

function runSeed(seed) {
  const rand = random(seed);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const int = (low, high) => low + Math.floor(rand() * (high - low + 1));
  const chance = (p) => rand() < p;

  const numPartitions = int(1, 7);
  const real = new Topic(numPartitions);
  const model = new ModelTopic(numPartitions);

  const keyOrValue = () => {
    if (chance(0.03)) return pick(BAD_VALUES);
    if (chance(0.3)) return Uint8Array.from({ length: int(0, 4) }, () => int(0, 255));
    return pick(TEXT_KEYS);
  };
  const name = (list) => (chance(0.02) ? pick(BAD_VALUES) : pick(list));
  const partition = () => {
    if (chance(0.03)) return pick(BAD_NUMBERS);
    if (chance(0.03)) return pick(NOT_SAFE);
    if (chance(0.02)) return pick([2 ** 31, -(2 ** 31) - 1, 2 ** 40]);
    return int(-1, numPartitions);
  };
  const maxRecords = () => {
    if (chance(0.15)) return undefined;
    if (chance(0.03)) return pick(BAD_NUMBERS);
    if (chance(0.03)) return pick(NOT_SAFE);
    if (chance(0.03)) return pick([-1, -(2 ** 40), 2 ** 40]);
    return int(0, 8);
  };
  const offsets = () => {
    if (chance(0.25)) return pick([undefined, null]);
    if (chance(0.05)) return pick(BAD_OFFSETS);
    const result = chance(0.1) ? Object.create(null) : {};
    for (let i = int(0, 3); i > 0; i--) {
      const p = chance(0.1) ? pick([-1, numPartitions, 99, 2 ** 33]) : int(0, numPartitions - 1);
      const end = model.endOffset(Math.min(Math.max(p, 0), numPartitions - 1));
      result[p] = chance(0.1) ? pick([-1, end + 1]) : int(0, end);
    }
    return result;
  };

  const operations = [
    [20, () => { const args = [keyOrValue(), keyOrValue()]; return [`append`, args]; }],
    [8, () => ['join', [name(GROUPS), name(CONSUMERS)]]],
    [4, () => ['leave', [name(GROUPS), name(CONSUMERS)]]],
    [14, () => ['poll', [name(GROUPS), name(CONSUMERS), maxRecords()]]],
    [10, () => ['commit', [name(GROUPS), name(CONSUMERS), offsets()]]],
    [4, () => ['assignment', [name(GROUPS), name(CONSUMERS)]]],
    [4, () => ['committed', [name(GROUPS), partition()]]],
    [3, () => ['endOffset', [partition()]]],
    [2, () => ['partitionFor', [keyOrValue(), chance(0.1) ? pick([0, -1, 2.5, '3']) : int(1, 50)]]],
  ];
  const totalWeight = operations.reduce((sum, [weight]) => sum + weight, 0);
  const counts = { value: 0, error: 0 };

  for (let step = 0; step < STEPS_PER_SEED; step++) {
    let roll = rand() * totalWeight;
    const [, make] = operations.find(([weight]) => (roll -= weight) < 0);
    const [method, args] = make();
    const where = `seed ${seed}, step ${step}: ${method}(${args.map(describe).join(', ')})`;
    const expected =
      method === 'partitionFor'
        ? outcome(() => modelPartitionFor(...args))
        : outcome(() => model[method](...args));
    const actual =
      method === 'partitionFor' ? outcome(() => partitionFor(...args)) : outcome(() => real[method](...args));
    assert.deepStrictEqual(actual, expected, where);
    counts[expected.error ? 'error' : 'value'] += 1;
    if (step % 50 === 49) assert.deepStrictEqual(state(real, numPartitions), state(model, numPartitions), where);
  }
  return counts;
}

function state(topic, numPartitions) {
  const partitions = Array.from({ length: numPartitions }, (_, p) => p);
  return {
    endOffsets: partitions.map((p) => topic.endOffset(p)),
    groups: GROUPS.map((group) => ({
      committed: partitions.map((p) => topic.committed(group, p)),
      assignments: CONSUMERS.map((consumer) => topic.assignment(group, consumer)),
    })),
  };
}

function describe(value) {
  if (value instanceof Map) return 'Map';
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}[${[...value]}]`;
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return JSON.stringify(value.length > 20 ? `${value.slice(0, 20)}…` : value);
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${k}: ${describe(v)}`).join(', ')}}`;
  }
  return String(value);
}

for (const seed of SEEDS) {
  test(`random calls agree with the pure-JS model (seed ${seed})`, () => {
    const counts = runSeed(seed);
    // The mix must exercise both paths, or the comparison proves little.
    assert.ok(counts.value > STEPS_PER_SEED / 2, `successful calls: ${counts.value}`);
    assert.ok(counts.error > STEPS_PER_SEED / 50, `failing calls: ${counts.error}`);
  });
}
