// SPDX-License-Identifier: Apache-2.0
//
// kgroups/broker with logDirs and kafkajs 2.2.4: the broker is killed (kill -9) and restarted
// on its log folder, and a consumer group resumes at the offset it committed, reading every
// record once (docs/STORAGE.md).
'use strict';

process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createRequire } = require('node:module');
const { Kafka, logLevel } = require('kafkajs');

const bindingsNode = path.resolve(__dirname, '..', '..', '..', 'bindings', 'node');
const { Broker } = createRequire(path.join(bindingsNode, 'package.json'))('kgroups/broker');

async function consumeUntil(kafka, groupId, count) {
  const consumer = kafka.consumer({ groupId, sessionTimeout: 6000, heartbeatInterval: 500 });
  await consumer.connect();
  await consumer.subscribe({ topic: 'orders', fromBeginning: true });
  const seen = [];
  await new Promise((resolve, reject) => {
    consumer.run({
      autoCommit: false,
      eachMessage: async ({ message }) => {
        if (seen.length >= count) return;
        seen.push(Number(message.offset));
        if (seen.length === count) {
          await consumer.commitOffsets([{ topic: 'orders', partition: 0,
            offset: String(Number(message.offset) + 1) }]);
          resolve();
        }
      },
    }).catch(reject);
  });
  await consumer.disconnect();
  return seen;
}

test('a group resumes at its committed offset after kill -9 and restart', { timeout: 120000 }, async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kgroups-logs-'));
  const broker = await Broker.start({ logDirs: folder, topics: { orders: 1 } });
  try {
    const kafka = () => new Kafka({ clientId: 'durable', brokers: broker.brokers, logLevel: logLevel.NOTHING });
    const producer = kafka().producer();
    await producer.connect();
    await producer.send({ topic: 'orders', messages: Array.from({ length: 10 }, (_, n) => ({ value: String(n) })) });
    await producer.disconnect();
    assert.deepEqual(await consumeUntil(kafka(), 'billing', 4), [0, 1, 2, 3]);

    await broker.kill();
    await broker.restart();
    assert.equal(broker.logDirs, folder);
    assert.deepEqual(await consumeUntil(kafka(), 'billing', 6), [4, 5, 6, 7, 8, 9]);
  } finally {
    await broker.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
