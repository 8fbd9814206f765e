// SPDX-License-Identifier: Apache-2.0
//
// kafkajs 2.2.4 against kgroupsd --brokers 3 (docs/CLUSTER.md): an idempotent acks=all
// producer keeps writing to a topic of replication factor 3 and min.insync.replicas=2 while
// the test stops and starts the leader of its partitions every second for 20 s
// (KGROUPS_BOUNCE_SECONDS): every acknowledged record is in the log exactly once, at the
// offset acknowledged, in the order sent, and every election was clean. (The confluent-kafka
// version is test_cluster_failover.py's first test.)
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const { Kafka, logLevel } = require('kafkajs');
const { startKgroupsd } = require('./kgroupsd');
const { BOUNCE_MS, CLUSTER_FLAGS, bounceLeaders, checkBounced } = require('../cluster_checks');

const TOPIC = 'js-bounce';
const PARTITIONS = 3;
const BATCH = 10;
let broker;
let kafka;

test.before(async () => {
  broker = await startKgroupsd(CLUSTER_FLAGS);
  // A stopped leader refuses connections: retry soon and often, so that a send outlives the
  // election (under 1 s) instead of failing.
  kafka = new Kafka({
    clientId: 'kgroups-failover-test', brokers: broker.brokers, logLevel: logLevel.NOTHING,
    connectionTimeout: 1000, requestTimeout: 5000,
    retry: { initialRetryTime: 50, maxRetryTime: 500, retries: 40 },
  });
});

test.after(async () => {
  const code = await broker.stop();
  assert.equal(code, 0, `kgroupsd exited with ${code} on SIGTERM; log:\n${broker.log()}`);
});

// Reads one partition with kcat up to its high watermark: [{offset, value}].
function readPartition(partition) {
  const out = execFileSync('kcat', ['-b', broker.bootstrap, '-C', '-t', TOPIC, '-p', String(partition),
    '-o', 'beginning', '-e', '-q', '-f', '%o\t%s\n'], { encoding: 'utf8', timeout: 30000, maxBuffer: 1 << 26 });
  return out.split('\n').filter((line) => line).map((line) => {
    const [offset, value] = line.split('\t');
    return { offset: Number(offset), value };
  });
}

test('acknowledged acks=all writes survive leader bounces exactly once, in order', async (t) => {
  const admin = kafka.admin();
  await admin.connect();
  try {
    assert.equal(await admin.createTopics({
      topics: [{ topic: TOPIC, numPartitions: PARTITIONS, replicationFactor: 3,
        configEntries: [{ name: 'min.insync.replicas', value: '2' }] }],
    }), true);
  } finally {
    await admin.disconnect();
  }
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const acknowledged = []; // {partition, offset, sequence}
  const failed = [];
  // kafkajs 2.2.4 resolves send() without a partition whose leader moved, during the send's
  // retries, to a broker that had already answered for the send's other partitions: it never
  // sends that partition's records again (sendMessages.js asks only the brokers without a
  // response). Those records have no acknowledgment and are not counted as lost.
  const unanswered = [];
  let sent = 0;
  const bouncer = bounceLeaders(broker, TOPIC, PARTITIONS);
  const deadline = Date.now() + BOUNCE_MS;
  try {
    while (Date.now() < deadline) {
      // Message `sequence` goes to partition sequence % 3; a partition's messages of one send
      // take consecutive offsets from the base offset acknowledged, in the order given.
      const messages = Array.from({ length: BATCH }, (_, i) => {
        const sequence = sent + i;
        return { partition: sequence % PARTITIONS, key: String(sequence % 30), value: String(sequence) };
      });
      sent += BATCH;
      try {
        const metadata = await producer.send({ topic: TOPIC, acks: -1, messages });
        const base = new Map(metadata.map((record) => [record.partition, Number(record.baseOffset)]));
        const next = new Map();
        for (const message of messages) {
          if (!base.has(message.partition)) {
            unanswered.push(Number(message.value));
            continue;
          }
          const index = next.get(message.partition) ?? 0;
          next.set(message.partition, index + 1);
          acknowledged.push({ partition: message.partition, offset: base.get(message.partition) + index,
            sequence: Number(message.value) });
        }
      } catch (error) {
        failed.push(error);
      }
    }
  } finally {
    await bouncer.stop();
    await producer.disconnect();
  }
  assert.ok(bouncer.bounced.length >= BOUNCE_MS / 2000, `only ${bouncer.bounced.length} bounces`);
  assert.deepEqual(failed.map(String).slice(0, 3), []);
  assert.equal(acknowledged.length + unanswered.length, sent);
  assert.ok(acknowledged.length >= sent * 0.9, `only ${acknowledged.length} of ${sent} records acknowledged`);
  t.diagnostic(`${sent} records sent, ${acknowledged.length} acknowledged, ${unanswered.length} left ` +
    `unanswered by send(), ${bouncer.bounced.length} leaders bounced`);

  const stored = {};
  for (let partition = 0; partition < PARTITIONS; partition += 1) stored[partition] = readPartition(partition);
  await checkBounced(broker, stored, acknowledged);
});
