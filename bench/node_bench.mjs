// SPDX-License-Identifier: Apache-2.0
//
// Node binding benchmark: the kgroups addon against a straightforward pure-JS
// implementation of the same model (bindings/node/test/model.js, the oracle of
// the differential test) in one run. Measures appends/s, and records/s for
// poll + commit with maxRecords = 500 by 4 consumers of one group taking turns,
// for text and for byte keys/values, and for text values that are all distinct
// ("text, unique values": nothing repeats within a poll batch). Prints each
// figure and the addon/JS ratio.
//
//   node bench/node_bench.mjs [--records N] [--repeat R]
//
// Needs the addon built (scripts/test-node or `npm install` in bindings/node).
// Each figure is the best of R runs (default 3) after one warm-up run, in CPU
// time; the two implementations take turns.
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const { Topic } = require('../bindings/node/index.js');
const { ModelTopic } = require('../bindings/node/test/model.js');

const { values: options } = parseArgs({
  options: {
    records: { type: 'string', default: '200000' },
    repeat: { type: 'string', default: '3' },
  },
});
const RECORDS = Number(options.records);
const REPEAT = Number(options.repeat);
const PARTITIONS = 8;
const CONSUMERS = ['consumer-1', 'consumer-2', 'consumer-3', 'consumer-4'];
const MAX_RECORDS = 500;

// Keys and values: 1000 distinct keys (`user-42`), 64 distinct 100-byte values
// (or RECORDS distinct ones for 'text, unique values'), as strings or as Buffers.
function makeData(kind) {
  const keys = Array.from({ length: 1000 }, (_, i) => `user-${i}`);
  const distinctValues = kind === 'text, unique values' ? RECORDS : 64;
  const values = Array.from({ length: distinctValues }, (_, i) => `${i}:`.padEnd(100, 'abcdefghij'));
  if (kind !== 'bytes') return { keys, values };
  return { keys: keys.map((k) => Buffer.from(k)), values: values.map((v) => Buffer.from(v)) };
}

function appendAll(topic, { keys, values }) {
  for (let i = 0; i < RECORDS; i++) topic.append(keys[i % keys.length], values[i % values.length]);
}

// CPU seconds (user + system, all of the process's threads, garbage collection
// included) taken by fn for each implementation, best of REPEAT after a
// warm-up, each run on a fresh set-up, closed after it (Topic.close(); the pure-JS
// model drops its arrays). CPU time rather than wall time, so that
// waiting for a core on a loaded machine does not count. The implementations
// take turns, so that changes in machine load hit both alike.
function best(setUp, fn) {
  const seconds = { addon: Infinity, pureJs: Infinity };
  for (let run = 0; run <= REPEAT; run++) {
    for (const [name, TopicClass] of [['addon', Topic], ['pureJs', ModelTopic]]) {
      const state = setUp(TopicClass);
      const start = process.cpuUsage();
      const processed = fn(state);
      const { user, system } = process.cpuUsage(start);
      const elapsed = (user + system) / 1e6;
      state.close(); // as a test suite ends each test: the addon's memory goes back now
      if (processed !== RECORDS) throw new Error(`${name} processed ${processed} records, not ${RECORDS}`);
      if (run > 0) seconds[name] = Math.min(seconds[name], elapsed);
    }
  }
  return { addon: RECORDS / seconds.addon, pureJs: RECORDS / seconds.pureJs };
}

function appendRates(data) {
  return best(
    (TopicClass) => new TopicClass(PARTITIONS),
    (topic) => {
      appendAll(topic, data);
      let total = 0;
      for (let p = 0; p < PARTITIONS; p++) total += topic.endOffset(p);
      return total;
    },
  );
}

function pollCommitRates(data) {
  return best(
    (TopicClass) => {
      const topic = new TopicClass(PARTITIONS);
      appendAll(topic, data);
      for (const consumer of CONSUMERS) topic.join('bench', consumer);
      return topic;
    },
    (topic) => {
      let total = 0;
      for (let idleTurns = 0; idleTurns < CONSUMERS.length; ) {
        for (const consumer of CONSUMERS) {
          const records = topic.poll('bench', consumer, MAX_RECORDS);
          topic.commit('bench', consumer);
          total += records.length;
          idleTurns = records.length === 0 ? idleTurns + 1 : 0;
        }
      }
      return total;
    },
  );
}

const format = (rate) => `${(rate / 1e6).toFixed(2)} M/s`;
const rows = [];
for (const kind of ['text', 'text, unique values', 'bytes']) {
  const data = makeData(kind);
  for (const [label, measure] of [['append', appendRates], ['poll+commit (maxRecords=500)', pollCommitRates]]) {
    const { addon, pureJs } = measure(data);
    rows.push({ operation: `${label}, ${kind}`, addon, pureJs });
  }
}

console.log(`kgroups Node binding benchmark: ${RECORDS} records, ${PARTITIONS} partitions, ` +
  `${CONSUMERS.length} consumers, best of ${REPEAT} in CPU time; node ${process.version}`);
console.log('operation'.padEnd(58) + 'addon'.padStart(12) + 'pure JS'.padStart(12) + 'addon/JS'.padStart(10));
for (const { operation, addon, pureJs } of rows) {
  console.log(operation.padEnd(58) + format(addon).padStart(12) + format(pureJs).padStart(12) +
    `${(addon / pureJs).toFixed(2)}x`.padStart(10));
}

const why = {
  append: 'each call crosses Node-API and the engine copies both strings into its log as UTF-8, ' +
    'while pure JS keeps a reference',
  'poll+commit (maxRecords=500)': 'per record the addon hashes and compares the key and value bytes to find ' +
    'the JS string it handed out before (or makes one) and copies bytes out of the log, ' +
    'while pure JS hands out the objects it was given',
};
for (const { operation, addon, pureJs } of rows) {
  if (addon < pureJs) {
    const label = operation.slice(0, operation.indexOf(', '));
    console.log(`addon slower for ${operation}: ${why[label]} (docs/PERFORMANCE.md, "Node binding")`);
  }
}
