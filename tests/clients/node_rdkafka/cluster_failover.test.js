// SPDX-License-Identifier: Apache-2.0
//
// node-rdkafka 3.6.1 (librdkafka 2.12.0) against kgroupsd --brokers 3 (docs/CLUSTER.md): an
// idempotent acks=all producer keeps writing to a topic of replication factor 3 and
// min.insync.replicas=2 while the test stops and starts the leader of its partitions every
// second for 20 s (KGROUPS_BOUNCE_SECONDS): every acknowledged record is in the log exactly
// once, at the offset acknowledged, in the order sent, and every election was clean. (The
// confluent-kafka version is test_cluster_failover.py's first test.)
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const Kafka = require('node-rdkafka');
const { startKgroupsd } = require('./kgroupsd');
const { TIMEOUT_MS, until } = require('./helpers');
const { BOUNCE_MS, CLUSTER_FLAGS, sleep, bounceLeaders, checkBounced, partitions } = require('../cluster_checks');

const TOPIC = 'rdk-bounce';
const PARTITIONS = 3;
let broker;

test.before(async () => {
  broker = await startKgroupsd(CLUSTER_FLAGS);
});

test.after(async () => {
  const code = await broker.stop();
  assert.equal(code, 0, `kgroupsd exited with ${code} on SIGTERM; log:\n${broker.log()}`);
});

function createTopic() {
  const admin = Kafka.AdminClient.create({ 'bootstrap.servers': broker.bootstrap });
  return new Promise((resolve, reject) => {
    admin.createTopic({
      topic: TOPIC, num_partitions: PARTITIONS, replication_factor: 3,
      config: { 'min.insync.replicas': '2' },
    }, 10000, (error) => {
      admin.disconnect();
      if (error) reject(error); else resolve();
    });
  });
}

// Reads every partition from offset 0 up to its high watermark: {partition: [{offset, value}]}.
async function readAll() {
  const ends = (await partitions(broker, TOPIC)).map((partition) => partition.high_watermark);
  const stored = Object.fromEntries(ends.map((_, partition) => [partition, []]));
  const consumer = new Kafka.KafkaConsumer({
    'bootstrap.servers': broker.bootstrap, 'group.id': `${TOPIC}-reader`, 'enable.auto.commit': false,
    'fetch.wait.max.ms': 100,
  }, {});
  const done = () => ends.every((end, partition) => {
    const records = stored[partition];
    return end === 0 || (records.length > 0 && records[records.length - 1].offset >= end - 1);
  });
  consumer.on('data', (message) => {
    stored[message.partition].push({ offset: message.offset, value: message.value.toString() });
  });
  await new Promise((resolve, reject) => {
    consumer.connect({ timeout: 10000 }, (error) => (error ? reject(error) : resolve()));
  });
  try {
    consumer.assign(ends.map((_, partition) => ({ topic: TOPIC, partition, offset: 0 })));
    consumer.consume();
    await until(done, 'every partition read up to its high watermark', {
      log: () => `high watermarks ${ends}, read ${ends.map((_, p) => stored[p].length)}`,
    });
  } finally {
    await new Promise((resolve) => consumer.disconnect(resolve));
  }
  return stored;
}

test('acknowledged acks=all writes survive leader bounces exactly once, in order', async (t) => {
  await createTopic();
  const producer = new Kafka.Producer({
    'bootstrap.servers': broker.bootstrap, dr_cb: true, 'enable.idempotence': true, acks: 'all',
    'linger.ms': 5, 'message.timeout.ms': 60000, 'request.timeout.ms': 5000,
  });
  const acknowledged = []; // {partition, offset, sequence}
  const failed = [];
  producer.setPollInterval(10);
  producer.on('delivery-report', (error, report) => {
    if (error) failed.push(String(error));
    else acknowledged.push({ partition: report.partition, offset: report.offset, sequence: report.opaque });
  });
  await new Promise((resolve, reject) => {
    producer.connect({ timeout: 10000 }, (error) => (error ? reject(error) : resolve()));
  });
  let sent = 0;
  const bouncer = bounceLeaders(broker, TOPIC, PARTITIONS);
  const deadline = Date.now() + BOUNCE_MS;
  try {
    while (Date.now() < deadline) {
      // Keyed: librdkafka's partitioner spreads them over the 3 partitions. The opaque carries
      // the sequence number to the delivery report.
      for (let i = 0; i < 10; i += 1) {
        producer.produce(TOPIC, null, Buffer.from(String(sent)), String(sent % 30), null, sent);
        sent += 1;
      }
      await sleep(2);
    }
  } finally {
    await bouncer.stop();
  }
  await new Promise((resolve, reject) => producer.flush(60000, (error) => (error ? reject(error) : resolve())));
  await until(() => acknowledged.length + failed.length === sent, 'every delivery report', { timeoutMs: TIMEOUT_MS });
  await new Promise((resolve) => producer.disconnect(resolve));
  assert.ok(bouncer.bounced.length >= BOUNCE_MS / 2000, `only ${bouncer.bounced.length} bounces`);
  assert.deepEqual(failed.slice(0, 3), []);
  assert.equal(acknowledged.length, sent);
  t.diagnostic(`${sent} records sent and acknowledged, ${bouncer.bounced.length} leaders bounced`);

  await checkBounced(broker, await readAll(), acknowledged);
});
