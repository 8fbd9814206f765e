// SPDX-License-Identifier: Apache-2.0
//
// kafkajs 2.2.4 transactions against kgroupsd. Exactly-once: a
// consume-transform-produce loop (exactly_once_loop.js, its own process) is SIGKILLed with
// some transactions committed and one open, then restarted with the same transactional.id,
// which fences the old one and aborts its open transaction; the output topic, read
// read_committed, then holds every input exactly once, and read_uncommitted also shows the
// aborted copy. Also: an aborted transaction's records are invisible to read_committed and
// visible to read_uncommitted, with a control marker after each transaction in the log; a
// read_committed consumer stops at an open transaction (the last stable offset) until it
// commits; a second producer with the same transactional.id fences a live first one, and one
// idle between transactions once the second has begun its first transaction.
'use strict';

process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { Kafka, logLevel } = require('kafkajs');
const { startKgroupsd } = require('./kgroupsd');

const TIMEOUT_MS = 60000;
const TEST = { timeout: 180000 };
let broker;
let kafka;
let admin;
let readers = 0;

test.before(async () => {
  broker = await startKgroupsd(['--group-min-session-timeout-ms', '1000']);
  kafka = new Kafka({ clientId: 'kgroups-txn-test', brokers: broker.brokers, logLevel: logLevel.NOTHING });
  admin = kafka.admin();
  await admin.connect();
});

test.after(async () => {
  await admin.disconnect();
  const code = await broker.stop();
  assert.equal(code, 0, `kgroupsd exited with ${code} on SIGTERM; log:\n${broker.log()}`);
});

async function until(condition, what, timeoutMs = TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; log:\n${broker.log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A consumer of its own group reading `topic` from the start, read_committed unless told;
// `rows` fills with {partition, offset, value} as messages arrive.
async function startReader(topic, { readUncommitted = false } = {}) {
  readers += 1;
  const consumer = kafka.consumer({
    groupId: `js-txn-reader-${readers}`, readUncommitted, maxWaitTimeInMs: 100, allowAutoTopicCreation: false,
  });
  const reader = { consumer, rows: [] };
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      reader.rows.push({ partition, offset: Number(message.offset), value: message.value.toString() });
    },
  });
  return reader;
}

// Reads until `count` messages arrived, then `settleMs` more; returns the rows.
async function readTopic(topic, count, { readUncommitted = false, settleMs = 1000 } = {}) {
  const reader = await startReader(topic, { readUncommitted });
  try {
    await until(() => reader.rows.length >= count, `${count} messages from ${topic} (${readUncommitted ? 'read_uncommitted' : 'read_committed'}), got ${reader.rows.length}`);
    await sleep(settleMs);
  } finally {
    await reader.consumer.disconnect();
  }
  return reader.rows;
}

const values = (rows) => rows.map((row) => row.value);
const sorted = (list) => [...list].sort();

function transactionalProducer(transactionalId) {
  return kafka.producer({ transactionalId, idempotent: true, maxInFlightRequests: 1, transactionTimeout: 60000 });
}

// Sends the values to partition 0 in one transaction, then commits or aborts it.
async function inTransaction(producer, topic, list, end) {
  const transaction = await producer.transaction();
  await transaction.send({ topic, acks: -1, messages: list.map((value) => ({ partition: 0, value })) });
  await transaction[end]();
}

// The exactly-once loop as a child process; `lines` collects its stdout lines.
function startLoop(args) {
  const child = spawn(process.execPath, [path.join(__dirname, 'exactly_once_loop.js'), broker.bootstrap, ...args], {
    cwd: __dirname, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const loop = { child, lines: [], stderr: '', exit: null };
  let partial = '';
  child.stdout.on('data', (chunk) => {
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop();
    loop.lines.push(...parts);
  });
  child.stderr.on('data', (chunk) => { loop.stderr += chunk; });
  loop.exited = new Promise((resolve) => child.on('exit', (code, signal) => {
    loop.exit = code ?? signal;
    resolve(loop.exit);
  }));
  return loop;
}

function assertRunning(loop) {
  assert.equal(loop.exit, null, `the loop exited (${loop.exit}): ${loop.stderr}`);
}

const countOf = (loop, word) => loop.lines.filter((line) => line.startsWith(`${word} `))
  .reduce((sum, line) => sum + Number(line.split(' ')[1]), 0);

test('a consume-transform-produce loop killed with a transaction open and restarted writes every input exactly once', TEST, async () => {
  const input = 'js-eos-input';
  const output = 'js-eos-output';
  const groupId = 'js-eos-loop';
  const transactionalId = 'js-eos-loop-txn';
  const PARTITIONS = 6;
  const PER_PARTITION = 20;
  await admin.createTopics({ topics: [{ topic: input, numPartitions: PARTITIONS }, { topic: output, numPartitions: PARTITIONS }] });
  const producer = kafka.producer();
  await producer.connect();
  const messages = [];
  for (let p = 0; p < PARTITIONS; p += 1) {
    for (let i = 0; i < PER_PARTITION; i += 1) messages.push({ partition: p, key: `k${i}`, value: `in-${p}-${i}` });
  }
  await producer.send({ topic: input, acks: -1, messages });
  await producer.disconnect();
  const expected = sorted(messages.map((m) => `${m.partition}:${m.value.toUpperCase()}`));

  // First run: 5 transactions committed, a sixth left open, then SIGKILL.
  const first = startLoop([input, output, groupId, transactionalId, '5']);
  let openCount;
  try {
    await until(() => { assertRunning(first); return countOf(first, 'open') > 0; }, 'the loop to open its sixth transaction');
    openCount = countOf(first, 'open');
  } finally {
    first.child.kill('SIGKILL');
    await first.exited;
  }
  const committedBefore = countOf(first, 'committed');
  assert.equal(first.lines.filter((line) => line.startsWith('committed ')).length, 5);

  // While the open transaction stands, read_committed sees the committed outputs only.
  const before = await readTopic(output, committedBefore, { settleMs: 1500 });
  assert.equal(before.length, committedBefore, 'read_committed showed records of an open transaction');

  // Second run with the same transactional.id: fences the first, aborts its transaction,
  // resumes from the transactionally committed offsets and processes the rest.
  const second = startLoop([input, output, groupId, transactionalId, '-1']);
  let rows;
  try {
    const reader = await startReader(output);
    try {
      await until(() => { assertRunning(second); return reader.rows.length >= expected.length; },
        `all ${expected.length} outputs read_committed, got ${reader.rows.length}`);
      await sleep(1500); // a duplicate would show up now
      rows = reader.rows;
    } finally {
      await reader.consumer.disconnect();
    }
  } finally {
    second.child.kill('SIGKILL');
    await second.exited;
  }
  assert.deepEqual(sorted(rows.map((row) => `${row.partition}:${row.value}`)), expected);
  assert.equal(committedBefore + countOf(second, 'committed'), expected.length, 'transactions committed in all');

  // The input offsets were committed through the transactions: all of the input.
  const [{ partitions }] = await admin.fetchOffsets({ groupId, topics: [input] });
  assert.deepEqual(partitions.map((p) => Number(p.offset)), Array(PARTITIONS).fill(PER_PARTITION));

  // read_uncommitted also sees the aborted transaction's copy of one chunk.
  const everything = await readTopic(output, expected.length + openCount, { readUncommitted: true });
  assert.equal(everything.length, expected.length + openCount);
  assert.deepEqual(new Set(everything.map((row) => `${row.partition}:${row.value}`)), new Set(expected));
});

test('an aborted transaction is invisible to read_committed and visible to read_uncommitted', TEST, async () => {
  const topic = 'js-txn-abort';
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
  const producer = transactionalProducer('js-txn-abort-producer');
  await producer.connect();
  try {
    await inTransaction(producer, topic, ['a0', 'a1', 'a2'], 'commit');
    await inTransaction(producer, topic, ['b0', 'b1', 'b2'], 'abort');
    await inTransaction(producer, topic, ['c0', 'c1', 'c2'], 'commit');
  } finally {
    await producer.disconnect();
  }
  // Each transaction's end is a control record in the log: a 0-2, marker 3, b 4-6, marker 7,
  // c 8-10, marker 11.
  const [{ high }] = await admin.fetchTopicOffsets(topic);
  assert.equal(high, '12');

  const committed = await readTopic(topic, 6);
  assert.deepEqual(committed.map((row) => [row.offset, row.value]),
    [[0, 'a0'], [1, 'a1'], [2, 'a2'], [8, 'c0'], [9, 'c1'], [10, 'c2']]);
  const uncommitted = await readTopic(topic, 9, { readUncommitted: true });
  assert.deepEqual(values(uncommitted), ['a0', 'a1', 'a2', 'b0', 'b1', 'b2', 'c0', 'c1', 'c2']);
});

test('read_committed stops at an open transaction until it commits; read_uncommitted does not', TEST, async () => {
  const topic = 'js-txn-open';
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
  const transactional = transactionalProducer('js-txn-open-producer');
  const plain = kafka.producer();
  await transactional.connect();
  await plain.connect();
  try {
    const transaction = await transactional.transaction();
    await transaction.send({ topic, acks: -1, messages: ['t0', 't1', 't2'].map((value) => ({ partition: 0, value })) });
    // Written after the open transaction's records: behind the last stable offset too.
    await plain.send({ topic, acks: -1, messages: ['p0', 'p1'].map((value) => ({ partition: 0, value })) });

    const uncommitted = await readTopic(topic, 5, { readUncommitted: true });
    assert.deepEqual(values(uncommitted), ['t0', 't1', 't2', 'p0', 'p1']);

    const reader = await startReader(topic);
    try {
      await sleep(2000);
      assert.deepEqual(values(reader.rows), [], 'read_committed read past an open transaction');
      await transaction.commit();
      await until(() => reader.rows.length >= 5, 'the committed transaction and what follows it');
      await sleep(500);
      assert.deepEqual(values(reader.rows), ['t0', 't1', 't2', 'p0', 'p1']);
    } finally {
      await reader.consumer.disconnect();
    }
  } finally {
    await transactional.disconnect();
    await plain.disconnect();
  }
});

test('a producer fenced between transactions cannot run another one', TEST, async () => {
  const topic = 'js-txn-fence-idle';
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
  const old = transactionalProducer('js-txn-fence-idle-producer');
  const current = transactionalProducer('js-txn-fence-idle-producer');
  await old.connect();
  try {
    await inTransaction(old, topic, ['a0'], 'commit');
    await inTransaction(old, topic, ['a1'], 'commit');
    // kafkajs's connect() asks for an idempotent producer id only (no transactional id), as
    // against Kafka: that fences nothing, and the old producer's transaction still commits.
    await current.connect();
    await inTransaction(old, topic, ['a2'], 'commit');
    // The new producer's first transaction sends InitProducerId with the transactional id:
    // the epoch moves on, and the old producer, idle between transactions, is fenced.
    await inTransaction(current, topic, ['b0'], 'commit');
    await assert.rejects(inTransaction(old, topic, ['zombie'], 'commit'), (error) => {
      assert.ok(['INVALID_PRODUCER_EPOCH', 'PRODUCER_FENCED'].includes(error.type), `${error.type}: ${error.message}`);
      return true;
    });
    await inTransaction(current, topic, ['b1'], 'commit');
  } finally {
    await old.disconnect();
    await current.disconnect();
  }
  const committed = await readTopic(topic, 5);
  assert.deepEqual(values(committed), ['a0', 'a1', 'a2', 'b0', 'b1']);
});

test('a producer with the same transactional.id fences a live one and aborts its transaction', TEST, async () => {
  const topic = 'js-txn-fence';
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
  const old = transactionalProducer('js-txn-fence-producer');
  const current = transactionalProducer('js-txn-fence-producer');
  await old.connect();
  await current.connect();
  try {
    const zombie = await old.transaction();
    await zombie.send({ topic, acks: -1, messages: ['z0', 'z1'].map((value) => ({ partition: 0, value })) });
    // InitProducerId for the same id: a new epoch, and the old transaction is aborted.
    await inTransaction(current, topic, ['n0', 'n1'], 'commit');
    await assert.rejects(zombie.commit(), (error) => {
      assert.ok(['INVALID_PRODUCER_EPOCH', 'PRODUCER_FENCED'].includes(error.type), `${error.type}: ${error.message}`);
      return true;
    });
  } finally {
    await old.disconnect();
    await current.disconnect();
  }
  const committed = await readTopic(topic, 2);
  assert.deepEqual(values(committed), ['n0', 'n1']);
  const uncommitted = await readTopic(topic, 4, { readUncommitted: true });
  assert.deepEqual(values(uncommitted), ['z0', 'z1', 'n0', 'n1']);
});
