// SPDX-License-Identifier: Apache-2.0
//
// A kafkajs group member in a process of its own, for tests that need a member whose
// heartbeats stop: it joins GROUP on TOPIC at BOOTSTRAP with SESSION_TIMEOUT_MS, prints
// "joined MEMBER_ID" on each join, reads TOPIC from the beginning (kafkajs commits what it
// read) and keeps heartbeating until it is killed (SIGKILL: no LeaveGroup). Usage: node stalled_member.js BOOTSTRAP TOPIC GROUP SESSION_TIMEOUT_MS
'use strict';

const { Kafka, logLevel } = require('kafkajs');

const [bootstrap, topic, groupId, sessionTimeout] = process.argv.slice(2);
const kafka = new Kafka({ clientId: 'stalled-member', brokers: [bootstrap], logLevel: logLevel.NOTHING });
const consumer = kafka.consumer({ groupId, sessionTimeout: Number(sessionTimeout), heartbeatInterval: 300 });
consumer.on(consumer.events.GROUP_JOIN, (event) => {
  process.stdout.write(`joined ${event.payload.memberId}\n`);
});
(async () => {
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({ eachMessage: async () => {} });
})().catch((error) => {
  process.stderr.write(`stalled_member: ${error.stack}\n`);
  process.exit(1);
});
