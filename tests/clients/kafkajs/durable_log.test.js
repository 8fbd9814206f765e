// SPDX-License-Identifier: Apache-2.0
//
// kgroups/broker with logDirs and kafkajs 2.2.4: the broker is killed (kill -9), or stopped,
// and restarted on its log folder and its ports, and a consumer group resumes at the offset
// it committed, reading every record once (docs/STORAGE.md). Also the fixture itself:
// restart() on the same ports, without logDirs an empty broker, and its refusals.
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
const { Broker, kgroupsdArgs } = createRequire(path.join(bindingsNode, 'package.json'))('kgroups/broker');

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
        seen.push([Number(message.offset), message.value.toString()]);
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

function numbered(from, to) {
  return Array.from({ length: to - from }, (_, n) => [from + n, String(from + n)]);
}

for (const how of ['kill', 'stop']) {
  test(`a group resumes at its committed offset after ${how === 'kill' ? 'kill -9' : 'a clean stop'} and restart`,
    { timeout: 120000 }, async () => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kgroups-logs-'));
      const broker = await Broker.start({ logDirs: folder, logFlushIntervalMessages: 1, topics: { orders: 1 } });
      try {
        assert.equal(broker.logDirs, folder);
        const kafka = () => new Kafka({ clientId: 'durable', brokers: broker.brokers, logLevel: logLevel.NOTHING });
        const producer = kafka().producer();
        await producer.connect();
        await producer.send({ topic: 'orders', messages: numbered(0, 10).map(([, value]) => ({ value })) });
        await producer.disconnect();
        assert.deepEqual(await consumeUntil(kafka(), 'billing', 4), numbered(0, 4));
        const addresses = [broker.brokers, broker.httpUrl];
        const topicId = (await broker.topic('orders')).id;

        assert.equal(await broker[how](), how === 'kill' ? 'SIGKILL' : 0);
        await broker.restart();

        assert.deepEqual([broker.brokers, broker.httpUrl], addresses);
        assert.equal((await broker.topic('orders')).id, topicId);
        assert.deepEqual(await consumeUntil(kafka(), 'billing', 6), numbered(4, 10));
      } finally {
        await broker.stop();
        fs.rmSync(folder, { recursive: true, force: true });
      }
    });
}

test('restart() refuses a running broker; without logDirs the restarted broker is empty', { timeout: 60000 }, async () => {
  const broker = await Broker.start({ topics: { scratch: 1 } });
  try {
    assert.equal(broker.logDirs, null);
    await assert.rejects(broker.restart(), /needs a stopped broker/);
    const kafka = new Kafka({ clientId: 'scratch', brokers: broker.brokers, logLevel: logLevel.NOTHING });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: 'scratch', messages: [{ value: 'gone' }] });
    await producer.disconnect();
    const port = broker.port;
    assert.equal(await broker.kill(), 'SIGKILL');
    assert.equal(await broker.kill(), 'SIGKILL');
    await broker.restart();
    assert.equal(broker.port, port);
    const [partition] = (await broker.topic('scratch')).partitions;
    assert.equal(partition.log_end_offset, 0);
  } finally {
    await broker.stop();
  }
});

test('the log options become kgroupsd flags', () => {
  const args = kgroupsdArgs({ logDirs: '/data/logs', logFlushIntervalMessages: 1, logFlushIntervalMs: 500 });
  assert.deepEqual(args.slice(args.indexOf('--log-dirs')),
    ['--log-dirs', '/data/logs', '--log-flush-interval-messages', '1', '--log-flush-interval-ms', '500']);
  assert.ok(!kgroupsdArgs({}).some((arg) => arg.startsWith('--log')));
  assert.throws(() => kgroupsdArgs({ logFlushIntervalMs: -1 }), /logFlushIntervalMs must be an integer >= 0/);
  assert.throws(() => kgroupsdArgs({ logDirs: '' }), /logDirs must be the path of a folder/);
});
