// SPDX-License-Identifier: Apache-2.0
//
// Benchmark: for a group of 2 node-rdkafka members (librdkafka 2.12.0) subscribing at the same
// moment to a 6-partition topic, the time from subscribe() to each member's first assignment
// and to the settled 3+3 split, with group.protocol=consumer (KIP-848) and classic; several
// runs each, medians printed. Each run is a new group on one kgroupsd per protocol; the
// members connect before the clock starts. Not part of scripts/test-clients; run it with
//   node tests/clients/node_rdkafka/bench_first_assignment.js [--runs N] [--heartbeat-ms N]
//        [-- kgroupsd flags]
// The first member is assigned at once with both protocols; the second member's partitions
// come once the first gave them up, which it learns with its next heartbeat: the heartbeat
// interval sets "both assigned".
// ($KGROUPSD picks the binary).
'use strict';

const Kafka = require('node-rdkafka');
const { startKgroupsd } = require('./kgroupsd');

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const brokerFlags = dashes >= 0 ? argv.slice(dashes + 1) : [];
const own = dashes >= 0 ? argv.slice(0, dashes) : argv;
const runsAt = own.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(own[runsAt + 1]) : 9;
// --heartbeat-ms N: classic members' heartbeat.interval.ms and kgroupsd's
// --group-consumer-heartbeat-interval-ms; by default librdkafka's 3000 and kgroupsd's 5000.
const heartbeatAt = own.indexOf('--heartbeat-ms');
const HEARTBEAT_MS = heartbeatAt >= 0 ? Number(own[heartbeatAt + 1]) : null;
const TIMEOUT_MS = 30000;
const TOPIC = 'bench-first-assignment';

const now = () => Number(process.hrtime.bigint()) / 1e6;
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

function connect(bootstrap, groupId, protocol) {
  const consumer = new Kafka.KafkaConsumer({
    'bootstrap.servers': bootstrap, 'group.id': groupId, 'group.protocol': protocol,
    'enable.auto.commit': false, rebalance_cb: true,
    ...(protocol === 'classic' && HEARTBEAT_MS ? { 'heartbeat.interval.ms': HEARTBEAT_MS } : {}),
  }, { 'auto.offset.reset': 'earliest' });
  return new Promise((resolve, reject) => {
    consumer.connect({ timeout: 10000 }, (error) => (error ? reject(error) : resolve(consumer)));
  });
}

// One run: ms from subscribe to each member's first assignment, and to the 3+3 split.
async function run(bootstrap, protocol, index) {
  const groupId = `bench-${protocol}-${index}`;
  const members = [await connect(bootstrap, groupId, protocol), await connect(bootstrap, groupId, protocol)];
  const state = members.map(() => ({ first: null, count: 0 }));
  let split = null;
  let started = 0;
  members.forEach((consumer, i) => {
    consumer.on('rebalance', () => {
      setImmediate(() => {
        let count;
        try {
          count = consumer.assignments().length;
        } catch {
          return; // closing
        }
        state[i].count = count;
        if (count > 0 && state[i].first === null) state[i].first = now() - started;
        if (split === null && state.every((s) => s.count === 3)) split = now() - started;
      });
    });
  });
  started = now();
  for (const consumer of members) {
    consumer.subscribe([TOPIC]);
    consumer.consume();
  }
  const deadline = Date.now() + TIMEOUT_MS;
  while (split === null) {
    if (Date.now() > deadline) throw new Error(`${protocol} run ${index}: no 3+3 split in ${TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(members.map((consumer) => new Promise((resolve) => consumer.disconnect(resolve))));
  const firsts = state.map((s) => s.first).sort((a, b) => a - b);
  return { first: firsts[0], second: firsts[1], split };
}

async function bench(protocol) {
  const heartbeat = HEARTBEAT_MS ? ['--group-consumer-heartbeat-interval-ms', String(HEARTBEAT_MS)] : [];
  const broker = await startKgroupsd(['--topic', `${TOPIC}:6`, ...heartbeat, ...brokerFlags]);
  try {
    const results = [];
    for (let i = 0; i < RUNS; i += 1) results.push(await run(broker.bootstrap, protocol, i));
    return results;
  } finally {
    await broker.stop();
  }
}

(async () => {
  console.log(`2 members, 6 partitions, ${RUNS} runs per protocol, heartbeat interval ` +
    `${HEARTBEAT_MS ? `${HEARTBEAT_MS} ms` : 'default (classic 3000 ms, consumer 5000 ms)'}, ` +
    `kgroupsd flags: ${brokerFlags.join(' ') || '(defaults)'}`);
  console.log('ms from subscribe() to:      first member assigned   both assigned   3+3 split   (medians; min-max of split)');
  for (const protocol of ['consumer', 'classic']) {
    const results = await bench(protocol);
    const f = (x) => x.toFixed(1).padStart(8);
    const splits = results.map((r) => r.split);
    console.log(`group.protocol=${protocol.padEnd(9)} ${f(median(results.map((r) => r.first)))}              ` +
      `${f(median(results.map((r) => r.second)))}       ${f(median(splits))}    ` +
      `(${Math.min(...splits).toFixed(1)}-${Math.max(...splits).toFixed(1)})`);
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
