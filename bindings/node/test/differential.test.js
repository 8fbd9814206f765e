// SPDX-License-Identifier: Apache-2.0
//
// Randomized differential test: thousands of random calls, valid and invalid,
// on the package's Topic and on ModelTopic (model.js, the spec in plain JS),
// comparing every result and every error class, and the whole observable state
// (lag and rebalance history included) every few calls. The lab's topic runs
// under a few seeds, then every combination of options (SPEC.md "Options")
// under one seed each. Seeded: a failure names its seed and step to replay.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Topic, NotAssignedError, NoOffsetError, partitionFor } = require('kgroups');
const { ModelTopic, modelPartitionFor, OPTION_CHOICES } = require('./model.js');
const { random } = require('./seeded_random.js');

const SEEDS = [1, 2, 3, 4, 5, 6];
const STEPS_PER_SEED = 2500;
const STEPS_PER_OPTIONS = 1200;
const BAD_OPTIONS = ['sticky', 5, [], { assignor: 5 }, { assignor: 'nope' }, { partitioner: 'crc' },
  { autoOffsetReset: 'smallest' }, { autoOffsetReset: null }, { auto_offset_reset: 'none' }];


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
    if (error instanceof NoOffsetError) return { error: 'NoOffsetError', partitions: error.partitions };
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

// Options as a caller may spell them: every field given, some left out or
// undefined (the default), all as `chosen` says.
function spell(chosen, chance) {
  const options = {};
  for (const [name, value] of Object.entries(chosen)) {
    if (value === OPTION_CHOICES[name][0] && chance(0.5)) {
      if (chance(0.5)) options[name] = undefined;
    } else {
      options[name] = value;
    }
  }
  return options;
}

// chosen: undefined for the lab's topic built without options, or the value
// of every option.
function runSeed(seed, steps, chosen) {
  const rand = random(seed);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const int = (low, high) => low + Math.floor(rand() * (high - low + 1));
  const chance = (p) => rand() < p;

  const numPartitions = int(1, 7);
  const options = chosen && spell(chosen, chance);
  const real = chosen ? new Topic(numPartitions, options) : new Topic(numPartitions);
  const model = chosen ? new ModelTopic(numPartitions, options) : new ModelTopic(numPartitions);
  const partitioner = () => (chance(0.1) ? pick([undefined, 'crc', 5, null]) : pick(OPTION_CHOICES.partitioner));
  const newTopicOptions = () => {
    if (chance(0.3)) return pick(BAD_OPTIONS);
    return spell(Object.fromEntries(Object.entries(OPTION_CHOICES).map(([name, list]) => [name, pick(list)])), chance);
  };

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
  // Offsets for a commit by `consumer`; often for exactly its own partitions,
  // so that groups under autoOffsetReset "none" get offsets to start from.
  const offsets = (group, consumer) => {
    if (chance(0.25)) return pick([undefined, null]);
    if (chance(0.05)) return pick(BAD_OFFSETS);
    const result = chance(0.1) ? Object.create(null) : {};
    if (typeof group === 'string' && typeof consumer === 'string' && chance(0.4)) {
      for (const p of model.assignment(group, consumer)) result[p] = int(0, model.endOffset(p));
      return result;
    }
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
    [10, () => {
      const [group, consumer] = [name(GROUPS), name(CONSUMERS)];
      return ['commit', [group, consumer, offsets(group, consumer)]];
    }],
    [4, () => ['assignment', [name(GROUPS), name(CONSUMERS)]]],
    [4, () => ['committed', [name(GROUPS), partition()]]],
    [3, () => ['endOffset', [partition()]]],
    [2, () => ['partitionFor', [keyOrValue(), chance(0.1) ? pick([0, -1, 2.5, '3']) : int(1, 50)]]],
    [2, () => ['partitionFor', [keyOrValue(), chance(0.1) ? pick([0, -1, 2.5, '3']) : int(1, 50), partitioner()]]],
    [2, () => ['lag', [name(GROUPS)]]],
    [1, () => ['rebalances', [name(GROUPS)]]],
    [1, () => ['newTopic', [chance(0.1) ? pick([0, '3', 2.5]) : int(1, 7), newTopicOptions()]]],
  ];
  const totalWeight = operations.reduce((sum, [weight]) => sum + weight, 0);
  const counts = { value: 0, error: 0, noOffset: 0, polled: 0 };

  // The calls that are not methods of the topic under test.
  const realCalls = { partitionFor, newTopic: (...args) => state(new Topic(...args), 0) };
  const modelCalls = { partitionFor: modelPartitionFor, newTopic: (...args) => state(new ModelTopic(...args), 0) };

  for (let step = 0; step < steps; step++) {
    let roll = rand() * totalWeight;
    const [, make] = operations.find(([weight]) => (roll -= weight) < 0);
    const [method, args] = make();
    const where = `seed ${seed}, options ${describe(options)}, step ${step}: ${method}(${args.map(describe).join(', ')})`;
    const expected = outcome(() => (modelCalls[method] ?? model[method].bind(model))(...args));
    const actual = outcome(() => (realCalls[method] ?? real[method].bind(real))(...args));
    assert.deepStrictEqual(actual, expected, where);
    counts[expected.error ? 'error' : 'value'] += 1;
    if (expected.error === 'NoOffsetError') counts.noOffset += 1;
    if (method === 'poll' && expected.value) counts.polled += expected.value.length;
    if (step % 50 === 49 || step === steps - 1) {
      const withHistory = { history: step % 500 === 499 || step === steps - 1 };
      assert.deepStrictEqual(state(real, numPartitions, withHistory), state(model, numPartitions, withHistory), where);
    }
  }
  return counts;
}

// Everything observable; the rebalance histories only with `history` (copying
// them every few steps would cost more than the calls under test).
function state(topic, numPartitions, { history = false } = {}) {
  const partitions = Array.from({ length: numPartitions }, (_, p) => p);
  return {
    endOffsets: partitions.map((p) => topic.endOffset(p)),
    groups: GROUPS.map((group) => ({
      committed: partitions.map((p) => topic.committed(group, p)),
      assignments: CONSUMERS.map((consumer) => topic.assignment(group, consumer)),
      lag: topic.lag(group),
      ...(history && { rebalances: topic.rebalances(group) }),
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
    const counts = runSeed(seed, STEPS_PER_SEED);
    // The mix must exercise both paths, or the comparison proves little.
    assert.ok(counts.value > STEPS_PER_SEED / 2, `successful calls: ${counts.value}`);
    assert.ok(counts.error > STEPS_PER_SEED / 50, `failing calls: ${counts.error}`);
  });
}

// Every combination of options, one seed each.
let optionsSeed = 100;
for (const partitioner of OPTION_CHOICES.partitioner) {
  for (const assignor of OPTION_CHOICES.assignor) {
    for (const autoOffsetReset of OPTION_CHOICES.autoOffsetReset) {
      const seed = optionsSeed++;
      test(`random calls agree with the pure-JS model (${partitioner}, ${assignor}, ${autoOffsetReset}; seed ${seed})`, () => {
        const counts = runSeed(seed, STEPS_PER_OPTIONS, { partitioner, assignor, autoOffsetReset });
        assert.ok(counts.value > STEPS_PER_OPTIONS / 2, `successful calls: ${counts.value}`);
        assert.ok(counts.error > STEPS_PER_OPTIONS / 50, `failing calls: ${counts.error}`);
        assert.ok(counts.polled > 0, 'some records were polled');
        if (autoOffsetReset === 'none') assert.ok(counts.noOffset > 0, 'some poll raised NoOffsetError');
      });
    }
  }
}
