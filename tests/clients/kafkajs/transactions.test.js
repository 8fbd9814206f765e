// SPDX-License-Identifier: Apache-2.0
//
// kafkajs 2.2.4 transactional and idempotent producers against kgroupsd: an idempotent
// producer's records are stored once; a transaction with sendOffsets commits its records
// (plus one commit marker) and the group's offset; an aborted one leaves an abort marker and
// no offset. Whether read_committed consumers skip aborted records is the read side's test.
'use strict';

process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Kafka, logLevel } = require('kafkajs');
const { startKgroupsd } = require('./kgroupsd');

let broker;
let kafka;

test.before(async () => {
  broker = await startKgroupsd(['--topic', 'out:1', '--topic', 'in:1', '--topic', 'idem:1']);
  kafka = new Kafka({ clientId: 'kgroups-txn-test', brokers: broker.brokers, logLevel: logLevel.NOTHING });
});

test.after(async () => {
  const code = await broker.stop();
  assert.equal(code, 0, `kgroupsd exited with ${code} on SIGTERM; log:\n${broker.log()}`);
});

async function highWatermark(topic) {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [partition] = await admin.fetchTopicOffsets(topic);
    return Number(partition.high);
  } finally {
    await admin.disconnect();
  }
}

async function committedOffset(groupId, topic) {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [answer] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return Number(answer.partitions[0].offset);
  } finally {
    await admin.disconnect();
  }
}

test('idempotent producer stores each record once', async () => {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  for (let i = 0; i < 5; i++) {
    await producer.send({ topic: 'idem', acks: -1, messages: [{ partition: 0, value: `v${i}` }] });
  }
  await producer.disconnect();
  assert.equal(await highWatermark('idem'), 5);
});

test('a transaction commits records, a marker and the group offset', async () => {
  const producer = kafka.producer({ transactionalId: 'kafkajs-txn', maxInFlightRequests: 1, idempotent: true });
  await producer.connect();
  const transaction = await producer.transaction();
  await transaction.send({ topic: 'out', messages: [{ partition: 0, value: 'a' }, { partition: 0, value: 'b' }] });
  await transaction.sendOffsets({ consumerGroupId: 'kafkajs-eos', topics: [{ topic: 'in', partitions: [{ partition: 0, offset: '11' }] }] });
  await transaction.commit();
  assert.equal(await highWatermark('out'), 3);
  assert.equal(await committedOffset('kafkajs-eos', 'in'), 11);

  const aborted = await producer.transaction();
  await aborted.send({ topic: 'out', messages: [{ partition: 0, value: 'gone' }] });
  await aborted.sendOffsets({ consumerGroupId: 'kafkajs-eos', topics: [{ topic: 'in', partitions: [{ partition: 0, offset: '12' }] }] });
  await aborted.abort();
  assert.equal(await highWatermark('out'), 5);
  assert.equal(await committedOffset('kafkajs-eos', 'in'), 11);
  await producer.disconnect();
});
