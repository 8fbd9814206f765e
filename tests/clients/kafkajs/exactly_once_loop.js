// SPDX-License-Identifier: Apache-2.0
//
// A kafkajs consume-transform-produce loop, run as a child process by exactly_once.test.js:
// it reads the input topic in a group (read_committed) and, for every chunk of up to 5
// messages of a partition, in one transaction writes the upper-cased values to the same
// partition of the output topic and commits the input offsets (sendOffsets), then prints
// "committed <n>". With a crash count C >= 0, after C committed transactions it writes one
// more chunk and its offsets, prints "open <n>" and waits without ending the transaction, so
// that the test can SIGKILL it with a transaction open. Any error ends the process with exit
// code 1.
//
// Usage: node exactly_once_loop.js BOOTSTRAP INPUT OUTPUT GROUP TRANSACTIONAL_ID CRASH_AFTER
'use strict';

process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';

const { Kafka, logLevel } = require('kafkajs');

const [bootstrap, input, output, groupId, transactionalId, crashAfterArg] = process.argv.slice(2);
const crashAfter = Number(crashAfterArg); // -1: never
const CHUNK = 5;

const kafka = new Kafka({ clientId: 'eos-loop', brokers: [bootstrap], logLevel: logLevel.NOTHING });
// The transaction timeout is long, so that only fencing (not the timeout) can end the open
// transaction while the test waits.
const producer = kafka.producer({
  transactionalId, idempotent: true, maxInFlightRequests: 1, transactionTimeout: 120000,
});
// A short session, so that the restarted loop's group does not wait long for the killed member.
const consumer = kafka.consumer({
  groupId, sessionTimeout: 6000, heartbeatInterval: 500, rebalanceTimeout: 10000,
  maxWaitTimeInMs: 100, readUncommitted: false,
});

let committedTransactions = 0;
const say = (line) => process.stdout.write(`${line}\n`);

async function transform(partition, messages) {
  const transaction = await producer.transaction();
  try {
    await transaction.send({
      topic: output,
      acks: -1,
      messages: messages.map((m) => ({ partition, key: m.key, value: m.value.toString().toUpperCase() })),
    });
    const next = String(Number(messages[messages.length - 1].offset) + 1);
    await transaction.sendOffsets({ consumerGroupId: groupId, topics: [{ topic: input, partitions: [{ partition, offset: next }] }] });
    if (committedTransactions === crashAfter) {
      say(`open ${messages.length}`);
      await new Promise(() => setInterval(() => {}, 1000)); // until SIGKILL
    }
    await transaction.commit();
  } catch (error) {
    await transaction.abort().catch(() => {});
    throw error;
  }
  committedTransactions += 1;
  say(`committed ${messages.length}`);
}

async function main() {
  await producer.connect();
  await consumer.connect();
  await consumer.subscribe({ topic: input, fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      for (let start = 0; start < batch.messages.length; start += CHUNK) {
        if (!isRunning() || isStale()) return;
        const chunk = batch.messages.slice(start, start + CHUNK);
        await transform(batch.partition, chunk);
        resolveOffset(chunk[chunk.length - 1].offset);
        await heartbeat();
      }
    },
  });
}

const fail = (error) => {
  process.stderr.write(`exactly_once_loop: ${error?.stack ?? error}\n`);
  process.exit(1);
};
consumer.on(consumer.events.CRASH, (event) => {
  if (!event.payload.restart) fail(event.payload.error);
  process.stderr.write(`exactly_once_loop: restarting after ${event.payload.error}\n`);
});
main().catch(fail);
