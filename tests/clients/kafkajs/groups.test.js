// SPDX-License-Identifier: Apache-2.0
//
// kafkajs 2.2.4 consumer groups against kgroupsd: a group of one commits and a new
// member resumes from the committed offsets reading nothing twice; two members split a
// 6-partition topic with no overlap and no gap; a clean leave (disconnect) rebalances at
// once, without waiting for the session timeout; a crashed member's partitions replay from
// its last commit; a member with no assignor in common gets INCONSISTENT_GROUP_PROTOCOL.
'use strict';

process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';

const test = require('node:test');
const assert = require('node:assert/strict');
const { AssignerProtocol, Kafka, logLevel } = require('kafkajs');
const { startKgroupsd } = require('./kgroupsd');

const PARTITIONS = 6;
const TIMEOUT_MS = 30000;
let broker;
let kafka;

test.before(async () => {
  broker = await startKgroupsd(['--group-min-session-timeout-ms', '1000']);
  kafka = new Kafka({ clientId: 'kgroups-groups-test', brokers: broker.brokers, logLevel: logLevel.NOTHING });
});

test.after(async () => {
  const code = await broker.stop();
  assert.equal(code, 0, `kgroupsd exited with ${code} on SIGTERM; log:\n${broker.log()}`);
});

async function createTopic(topic) {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS }], waitForLeaders: false });
  } finally {
    await admin.disconnect();
  }
}

// Sends `count` messages, message i to partition i % 6; returns the set of "partition:value".
async function produce(topic, count) {
  const producer = kafka.producer();
  await producer.connect();
  try {
    const messages = [];
    for (let i = 0; i < count; i += 1) messages.push({ partition: i % PARTITIONS, key: `k${i}`, value: `v${i}` });
    await producer.send({ topic, messages });
  } finally {
    await producer.disconnect();
  }
  return new Set(Array.from({ length: count }, (_, i) => `${i % PARTITIONS}:v${i}`));
}

async function until(condition, what) {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; log:\n${broker.log()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// A running member: rows it read ({partition, offset, value}) and its current assignment.
// Its session timeout is long, so that a loaded machine cannot make a live member miss a
// heartbeat and be replaced; only the crash test's dead member (its own process) uses 3 s.
async function startMember(groupId, topic, { sessionTimeout = 30000, limit = Infinity } = {}) {
  // kafkajs heartbeats between fetches, so a fetch must not wait longer than the session.
  const consumer = kafka.consumer({
    groupId, sessionTimeout, heartbeatInterval: 300, rebalanceTimeout: 10000, maxWaitTimeInMs: 100,
  });
  const member = { consumer, rows: [], partitions: new Set() };
  consumer.on(consumer.events.GROUP_JOIN, (event) => {
    member.partitions = new Set(event.payload.memberAssignment[topic] || []);
  });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachMessage: async ({ partition, message }) => {
      if (member.rows.length < limit) {
        member.rows.push({ partition, offset: Number(message.offset), value: message.value.toString() });
      }
    },
  });
  return member;
}

test('a group of one commits and a new member resumes from the committed offsets', async () => {
  const topic = 'js-resume';
  const sent = await produce(topic, 60);
  const first = await startMember('js-resume-group', topic, { limit: 36 });
  await until(() => first.rows.length === 36, 'the first member to read 36 messages');
  const next = new Map();
  for (const row of first.rows) next.set(row.partition, Math.max(next.get(row.partition) ?? 0, row.offset + 1));
  await first.consumer.commitOffsets([...next].map(([partition, offset]) => ({ topic, partition, offset: String(offset) })));
  await first.consumer.disconnect();
  const second = await startMember('js-resume-group', topic);
  await until(() => second.rows.length >= 24, 'the second member to read the rest');
  await new Promise((resolve) => setTimeout(resolve, 1000)); // anything read twice shows up now
  await second.consumer.disconnect();
  const values = [...first.rows, ...second.rows].map((row) => `${row.partition}:${row.value}`);
  assert.equal(values.length, 60, 'a message was read twice or lost');
  assert.deepEqual(new Set(values), sent);
});

test('two members split a 6-partition topic with no overlap and no gap', async () => {
  const topic = 'js-split';
  await createTopic(topic);
  const members = [await startMember('js-split-group', topic), await startMember('js-split-group', topic)];
  await until(() => members.every((m) => m.partitions.size > 0) &&
    members[0].partitions.size + members[1].partitions.size === PARTITIONS, 'both members to get partitions');
  const [a, b] = members.map((m) => m.partitions);
  assert.deepEqual(new Set([...a, ...b]), new Set([0, 1, 2, 3, 4, 5]));
  const sent = await produce(topic, 120);
  await until(() => members[0].rows.length + members[1].rows.length >= 120, 'every message to be read');
  await new Promise((resolve) => setTimeout(resolve, 500));
  for (const member of members) await member.consumer.disconnect();
  for (const member of members) {
    for (const row of member.rows) assert.ok(member.partitions.has(row.partition), 'read outside its assignment');
  }
  const values = [...members[0].rows, ...members[1].rows].map((row) => `${row.partition}:${row.value}`);
  assert.equal(values.length, 120, 'a message was read twice');
  assert.deepEqual(new Set(values), sent);
});

test('a clean leave rebalances at once, without waiting for the session timeout', async () => {
  const topic = 'js-leave';
  await createTopic(topic);
  const members = [await startMember('js-leave-group', topic), await startMember('js-leave-group', topic)];
  await until(() => members.every((m) => m.partitions.size > 0), 'both members to get partitions');
  await members[1].consumer.disconnect(); // sends LeaveGroup
  const started = Date.now();
  await until(() => members[0].partitions.size === PARTITIONS, 'the survivor to get every partition');
  const elapsedMs = Date.now() - started;
  await members[0].consumer.disconnect();
  assert.ok(elapsedMs < 10000, `the survivor got every partition only after ${elapsedMs} ms`);
});

// A member in its own process that commits offset 4 on every partition, says so, and stays.
const CRASHING_MEMBER = `
const { Kafka, logLevel } = require('kafkajs');
const [bootstrap, topic, groupId] = process.argv.slice(1);
const kafka = new Kafka({ clientId: 'crashing', brokers: bootstrap.split(','), logLevel: logLevel.NOTHING });
const consumer = kafka.consumer({ groupId, sessionTimeout: 3000, heartbeatInterval: 300, maxWaitTimeInMs: 100 });
let partitions = 0;
let committed = false;
consumer.on(consumer.events.GROUP_JOIN, (event) => {
  partitions = (event.payload.memberAssignment[topic] || []).length;
});
// kafkajs ignores commitOffsets until the consumer runs, so commit from eachMessage.
const eachMessage = async () => {
  if (committed || partitions !== 6) return;
  committed = true;
  await consumer.commitOffsets([0, 1, 2, 3, 4, 5].map((partition) => ({ topic, partition, offset: '4' })));
  process.stdout.write('committed\\n');
};
(async () => {
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({ autoCommit: false, eachMessage });
})();
`;

test('a crashed member\'s partitions are replayed from its last commit after the session timeout', async () => {
  const { spawn } = require('node:child_process');
  const topic = 'js-crash';
  const sent = await produce(topic, 60);
  const child = spawn(process.execPath, ['-e', CRASHING_MEMBER, broker.bootstrap, topic, 'js-crash-group'], {
    cwd: __dirname, stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => { output += chunk; });
  try {
    await until(() => output.includes('committed'), 'the member to commit');
  } finally {
    child.kill('SIGKILL'); // no LeaveGroup
  }
  const survivor = await startMember('js-crash-group', topic);
  await until(() => survivor.rows.length >= 36, 'the survivor to replay the dead member\'s partitions');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await survivor.consumer.disconnect();
  // Offsets 0-3 of each partition were committed: not read again; 4-9 are replayed.
  const read = survivor.rows.map((row) => `${row.partition}:${row.offset}`).sort();
  const expected = [];
  for (let p = 0; p < PARTITIONS; p += 1) for (let o = 4; o < 10; o += 1) expected.push(`${p}:${o}`);
  assert.deepEqual(read, expected.sort());
  for (const row of survivor.rows) assert.ok(sent.has(`${row.partition}:${row.value}`));
  assert.match(broker.log(), /sent no heartbeat within its session timeout of 3000 ms/);
});

// An assignor that no other member of a kafkajs group offers (kafkajs's default is
// RoundRobinAssigner); it gives every partition to the leader.
const OnlyLeaderAssigner = () => ({
  name: 'OnlyLeaderAssigner',
  version: 1,
  async assign({ members, topics }) {
    const [leader] = members.map((member) => member.memberId).sort();
    return [{
      memberId: leader,
      memberAssignment: AssignerProtocol.MemberAssignment.encode({
        version: 1,
        assignment: Object.fromEntries(topics.map((topic) => [topic, [0, 1, 2, 3, 4, 5]])),
      }),
    }];
  },
  protocol({ topics }) {
    return { name: 'OnlyLeaderAssigner', metadata: AssignerProtocol.MemberMetadata.encode({ version: 1, topics }) };
  },
});

test('a member whose assignors have nothing in common with the group gets INCONSISTENT_GROUP_PROTOCOL', async () => {
  const topic = 'js-mixed';
  await createTopic(topic);
  const first = await startMember('js-mixed-group', topic);
  await until(() => first.partitions.size === PARTITIONS, 'the first member to get every partition');
  const other = kafka.consumer({ groupId: 'js-mixed-group', partitionAssigners: [OnlyLeaderAssigner],
    retry: { retries: 0 } });
  let crash = null;
  other.on(other.events.CRASH, (event) => { crash = crash ?? event.payload.error; });
  await other.connect();
  await other.subscribe({ topic, fromBeginning: true });
  await other.run({ eachMessage: async () => {} }).catch((error) => { crash = crash ?? error; });
  await until(() => crash !== null, 'the second member to be refused');
  await other.disconnect();
  assert.equal(crash.type, 'INCONSISTENT_GROUP_PROTOCOL', String(crash));
  // The group and its member are unharmed.
  assert.equal(first.partitions.size, PARTITIONS);
  await first.consumer.disconnect();
});
