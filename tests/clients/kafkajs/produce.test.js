// SPDX-License-Identifier: Apache-2.0
//
// kafkajs 2.2.4 against kgroupsd: the producer sends keyed messages (plain and gzip) and gets
// dense per-partition offsets back; kcat reads every message back by partition and offset;
// the admin client creates topics and reads offsets with fetchTopicOffsets. (kafkajs
// consumers always join a group, so kafkajs consumes in groups.test.js.)
'use strict';

process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';

const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const { Kafka, CompressionTypes, Partitioners, logLevel } = require('kafkajs');
const { startKgroupsd } = require('./kgroupsd');

const SIX_PARTITIONS = [0, 1, 2, 3, 4, 5].map((partitionId) => ({ partitionId, leader: 0 }));
const partitioner = Partitioners.DefaultPartitioner();
let broker;
let kafka;

test.before(async () => {
  broker = await startKgroupsd();
  kafka = new Kafka({ clientId: 'kgroups-test', brokers: broker.brokers, logLevel: logLevel.NOTHING });
});

test.after(async () => {
  const code = await broker.stop();
  assert.equal(code, 0, `kgroupsd exited with ${code} on SIGTERM; log:\n${broker.log()}`);
});

// Reads one partition with kcat: [{partition, offset, key, value}].
function readPartition(topic, partition) {
  const out = execFileSync('kcat', ['-b', broker.bootstrap, '-C', '-t', topic, '-p', String(partition),
    '-o', 'beginning', '-e', '-q', '-f', '%p\t%o\t%k\t%s\n'], { encoding: 'utf8', timeout: 30000 });
  return out.split('\n').filter((line) => line).map((line) => {
    const [p, o, key, value] = line.split('\t');
    return { partition: Number(p), offset: Number(o), key, value };
  });
}

async function produceAndCheck(topic, compression) {
  const producer = kafka.producer();
  await producer.connect();
  const sent = new Map(); // partition -> [{key, value}] in offset order
  try {
    for (let round = 0; round < 4; round += 1) {
      const messages = [];
      for (let i = 0; i < 50; i += 1) {
        messages.push({ key: `js-key-${i % 7}`, value: `js-value-${round}-${i}` });
      }
      const metadata = await producer.send({ topic, acks: -1, compression, messages });
      // kafkajs partitions each message itself (murmur2 of the key, over the 6 partitions
      // Metadata gave it); the broker gives each partition's batch the next offset.
      const byPartition = new Map();
      for (const message of messages) {
        const partition = partitioner({ topic, partitionMetadata: SIX_PARTITIONS, message });
        if (!byPartition.has(partition)) byPartition.set(partition, []);
        byPartition.get(partition).push(message);
      }
      assert.equal(metadata.length, byPartition.size);
      for (const record of metadata) {
        assert.equal(record.errorCode, 0);
        const already = sent.get(record.partition) || [];
        assert.equal(Number(record.baseOffset), already.length, `partition ${record.partition}`);
        sent.set(record.partition, already.concat(byPartition.get(record.partition)));
      }
    }
  } finally {
    await producer.disconnect();
  }
  for (let partition = 0; partition < 6; partition += 1) {
    const want = (sent.get(partition) || []).map((m, offset) => ({ partition, offset, key: m.key, value: m.value }));
    assert.deepEqual(readPartition(topic, partition), want, `partition ${partition}`);
  }
  return sent;
}

test('producer sends keyed messages that read back by partition and offset', async () => {
  await produceAndCheck('js-plain', CompressionTypes.None);
});

test('gzip batches read back the same', async () => {
  await produceAndCheck('js-gzip', CompressionTypes.GZIP);
});

test('admin creates a topic and fetchTopicOffsets gives each partition its end offset', async () => {
  const admin = kafka.admin();
  await admin.connect();
  try {
    assert.equal(await admin.createTopics({ topics: [{ topic: 'js-admin', numPartitions: 3 }] }), true);
    assert.equal(await admin.createTopics({ topics: [{ topic: 'js-admin', numPartitions: 3 }] }), false);
    const { topics } = await admin.fetchTopicMetadata({ topics: ['js-admin'] });
    assert.equal(topics[0].partitions.length, 3);

    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: 'js-admin', messages: [
      { partition: 0, value: 'a' }, { partition: 0, value: 'b' }, { partition: 2, value: 'c' }] });
    await producer.disconnect();

    const offsets = await admin.fetchTopicOffsets('js-admin');
    const byPartition = Object.fromEntries(offsets.map((o) => [o.partition, o]));
    assert.deepEqual(
      [0, 1, 2].map((p) => [byPartition[p].low, byPartition[p].high, byPartition[p].offset]),
      [['0', '2', '2'], ['0', '0', '0'], ['0', '1', '1']]);
  } finally {
    await admin.disconnect();
  }
});
