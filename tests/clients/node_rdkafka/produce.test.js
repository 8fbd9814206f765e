// SPDX-License-Identifier: Apache-2.0
//
// node-rdkafka 3.6.1 (librdkafka 2.12.0) against kgroupsd: keyed messages produced to
// chosen partitions (uncompressed, gzip, snappy, lz4, zstd) are read back by partition and
// offset, key and value intact. (librdkafka compresses with zstd only for Produce v7+ and
// Fetch v10+, which kgroupsd serves.)
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const Kafka = require('node-rdkafka');
const { startKgroupsd } = require('./kgroupsd');
const { TIMEOUT_MS, produce } = require('./helpers');

const PARTITIONS = 6;
let broker;

test.before(async () => {
  broker = await startKgroupsd(['--topic', 'rdk-none:6', '--topic', 'rdk-gzip:6', '--topic', 'rdk-snappy:6',
    '--topic', 'rdk-lz4:6', '--topic', 'rdk-zstd:6']);
});

test.after(async () => {
  const code = await broker.stop();
  assert.equal(code, 0, `kgroupsd exited with ${code} on SIGTERM; log:\n${broker.log()}`);
});

// Reads partitions 0-5 of `topic` from offset 0 (assign, no group) until `count` messages.
function readBack(topic, count) {
  return new Promise((resolve, reject) => {
    const consumer = new Kafka.KafkaConsumer({
      'bootstrap.servers': broker.bootstrap, 'group.id': `${topic}-reader`, 'enable.auto.commit': false,
      'fetch.wait.max.ms': 100,
    }, {});
    const rows = [];
    const timer = setTimeout(() => {
      consumer.disconnect();
      reject(new Error(`read ${rows.length} of ${count} messages in ${TIMEOUT_MS} ms; log:\n${broker.log()}`));
    }, TIMEOUT_MS);
    consumer.on('data', (message) => {
      rows.push({
        partition: message.partition, offset: message.offset,
        key: message.key.toString(), value: message.value.toString(),
      });
      if (rows.length === count) {
        clearTimeout(timer);
        consumer.disconnect(() => resolve(rows));
      }
    });
    consumer.on('ready', () => {
      consumer.assign(Array.from({ length: PARTITIONS }, (_, partition) => ({ topic, partition, offset: 0 })));
      consumer.consume();
    });
    consumer.connect({ timeout: 10000 }, (error) => {
      if (error) {
        clearTimeout(timer);
        reject(error);
      }
    });
  });
}

for (const codec of ['none', 'gzip', 'snappy', 'lz4', 'zstd']) {
  test(`keyed messages (compression ${codec}) are read back by partition and offset`, async () => {
    const topic = `rdk-${codec}`;
    const messages = Array.from({ length: 60 }, (_, i) => ({
      partition: i % PARTITIONS, key: `key-${i}`, value: `value-${i}-${'x'.repeat(i)}`,
    }));
    const reports = await produce(broker.bootstrap, topic, messages, { 'compression.codec': codec });
    // Each partition got offsets 0-9 in the order produced.
    for (let i = 0; i < messages.length; i += 1) {
      assert.deepEqual(reports[i], { ...messages[i], offset: Math.floor(i / PARTITIONS) });
    }
    const rows = await readBack(topic, messages.length);
    const byPlace = new Map(rows.map((row) => [`${row.partition}:${row.offset}`, row]));
    assert.equal(byPlace.size, messages.length, 'an offset was read twice');
    for (const report of reports) assert.deepEqual(byPlace.get(`${report.partition}:${report.offset}`), report);
  });
}
