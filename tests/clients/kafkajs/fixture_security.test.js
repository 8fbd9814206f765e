// SPDX-License-Identifier: Apache-2.0
//
// A secured kgroups/broker as a kafkajs 2.2.4 suite uses it: over a SASL_SSL listener with
// the fixture's throwaway CA, a producer and a consumer configured by
// broker.kafkajsConfig({user, mechanism: 'PLAIN'}) write and read back records; OAUTHBEARER
// through the fixture's unsecured-JWS provider produces too; a wrong password is refused.
// Needs $KGROUPSD and $KGROUPS_CLI (for the certificates).
'use strict';

process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';

const test = require('node:test');
const assert = require('node:assert/strict');
const { createRequire } = require('node:module');
const path = require('node:path');
const { Kafka, logLevel } = require('kafkajs');

const bindingsNode = path.resolve(__dirname, '..', '..', '..', 'bindings', 'node');
const { Broker } = createRequire(path.join(bindingsNode, 'package.json'))('kgroups/broker');

const USERS = { alice: 'alice-secret', bob: 'bob-secret' };

function kafkaFor(broker, clientId, choice) {
  return new Kafka({ clientId, logLevel: logLevel.NOTHING, retry: { retries: 2 }, ...broker.kafkajsConfig(choice) });
}

test('kafkajs over SASL_SSL with PLAIN produces and consumes; OAUTHBEARER produces; a wrong password is refused', async (t) => {
  const broker = await Broker.start({
    topics: { orders: 1 },
    security: { listeners: ['PLAINTEXT', 'SASL_SSL'], users: USERS, superUsers: ['alice', 'bob'] },
  });
  t.after(() => broker.stop());
  const config = broker.kafkajsConfig({ user: 'alice', mechanism: 'PLAIN' });
  assert.deepEqual(config.brokers, broker.listeners.SASL_SSL.split(','));
  assert.equal(config.sasl.mechanism, 'plain');

  const producer = kafkaFor(broker, 'plain-producer', { user: 'alice', mechanism: 'PLAIN' }).producer();
  await producer.connect();
  const values = Array.from({ length: 10 }, (_, n) => `plain-${n}`);
  await producer.send({ topic: 'orders', messages: values.map((value) => ({ value })) });
  await producer.disconnect();

  const oauth = kafkaFor(broker, 'oauth-producer', { user: 'bob', mechanism: 'OAUTHBEARER' }).producer();
  await oauth.connect();
  await oauth.send({ topic: 'orders', messages: [{ value: 'oauth' }] });
  await oauth.disconnect();

  const consumer = kafkaFor(broker, 'reader', { user: 'bob', mechanism: 'PLAIN' }).consumer({ groupId: 'readers' });
  await consumer.connect();
  await consumer.subscribe({ topic: 'orders', fromBeginning: true });
  const read = [];
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`read ${read.length} of 11 records in 30 s`)), 30000);
    consumer.run({
      eachMessage: async ({ message }) => {
        read.push(message.value.toString());
        if (read.length === 11) {
          clearTimeout(timer);
          resolve();
        }
      },
    }).catch(reject);
  });
  await consumer.disconnect();
  assert.deepEqual(read, [...values, 'oauth']);

  const refused = kafkaFor(broker, 'wrong', { user: 'alice', mechanism: 'PLAIN', password: 'wrong' }).producer();
  await assert.rejects(refused.connect(), (error) => {
    assert.match(String(error.message), /SASL PLAIN authentication failed|Authentication failed/i);
    return true;
  });
  assert.equal((await broker.topic('orders')).partitions[0].end_offset, 11);
});
