// SPDX-License-Identifier: Apache-2.0
//
// One kafkajs group member in a process of its own, so a test can kill it (SIGKILL: no
// LeaveGroup, the coordinator expires it after its session timeout). It joins GROUP on TOPIC
// at BOOTSTRAP as client CLIENT_ID with SESSION_TIMEOUT_MS, prints "joined MEMBER_ID" on each
// join, reads TOPIC from the beginning and commits what it read after each batch (kafkajs's
// auto-commit).
// Usage: node kafkajs_member.js BOOTSTRAP TOPIC GROUP CLIENT_ID SESSION_TIMEOUT_MS
'use strict';

const path = require('node:path');

const { Kafka, logLevel } = require(path.join(__dirname, '..', 'clients', 'kafkajs', 'node_modules', 'kafkajs'));

const [bootstrap, topic, groupId, clientId, sessionTimeout] = process.argv.slice(2);
const kafka = new Kafka({ clientId, brokers: [bootstrap], logLevel: logLevel.NOTHING });
const consumer = kafka.consumer({
  groupId, sessionTimeout: Number(sessionTimeout), heartbeatInterval: 300, maxWaitTimeInMs: 100,
});
consumer.on(consumer.events.GROUP_JOIN, (event) => {
  process.stdout.write(`joined ${event.payload.memberId}\n`);
});
(async () => {
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({ eachMessage: async () => {} }); // commits after each batch
})().catch((error) => {
  process.stderr.write(`kafkajs_member: ${error.stack}\n`);
  process.exit(1);
});
