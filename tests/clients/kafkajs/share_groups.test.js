// SPDX-License-Identifier: Apache-2.0
//
// Share groups (KIP-932) through kgroups/broker, the JavaScript test harness. No JavaScript
// client speaks share groups yet (kafkajs has none; @confluentinc/kafka-javascript 1.10 does
// not bind librdkafka's share consumer), so the consumers are librdkafka 2.15's share consumer
// driver (tests/clients/share_consumer, built by scripts/install-deps) run as child
// processes; kafkajs produces. With the manual clock, a crashed consumer's acquisition locks
// run out as soon as advance() passes the lock duration.
'use strict';

process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const { spawn } = require('node:child_process');
const { createRequire } = require('node:module');
const { Kafka, logLevel } = require('kafkajs');

const bindingsNode = path.resolve(__dirname, '..', '..', '..', 'bindings', 'node');
const { Broker } = createRequire(path.join(bindingsNode, 'package.json'))('kgroups/broker');

const DRIVER = process.env.KGROUPS_SHARE_CONSUMER ||
  path.resolve(__dirname, '..', 'share_consumer', '.cache', 'share_consumer');
const REPLY_TIMEOUT_MS = 20000;

// One running share consumer driver: commands in, replies (lines up to "end") out.
class ShareConsumer {
  constructor(bootstrap, group, topic) {
    if (!fs.existsSync(DRIVER)) {
      throw new Error(`the librdkafka 2.15 share consumer driver is missing (${DRIVER}): ` +
                      'run scripts/install-deps');
    }
    this.child = spawn(DRIVER, [bootstrap, group, topic, 'share.acknowledgement.mode=explicit'],
                       { stdio: ['pipe', 'pipe', 'ignore'] });
    this.lines = [];
    this.waiters = [];
    readline.createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.lines.push(line);
      this._wake();
    });
  }

  _wake() {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  async _line(deadline) {
    while (this.lines.length === 0) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('the share consumer driver did not answer in time');
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => { clearTimeout(timer); resolve(); });
      });
    }
    return this.lines.shift();
  }

  async ready() {
    const deadline = Date.now() + REPLY_TIMEOUT_MS;
    assert.equal(await this._line(deadline), 'ready');
  }

  // Sends one command; returns its reply's lines (without "end"). Fails on an "error" line.
  async command(text, timeoutMs = REPLY_TIMEOUT_MS) {
    this.child.stdin.write(`${text}\n`);
    const deadline = Date.now() + timeoutMs;
    const reply = [];
    for (;;) {
      const line = await this._line(deadline);
      if (line === 'end') break;
      if (line.startsWith('error ')) throw new Error(`share consumer: ${line}`);
      if (!line.startsWith('event ')) reply.push(line);
    }
    return reply;
  }

  // [{offset, deliveryCount, value}] of one poll.
  async poll(max, timeoutMs) {
    const lines = await this.command(`poll ${max} ${timeoutMs}`, timeoutMs + REPLY_TIMEOUT_MS);
    return lines.map((line) => {
      const [, offset, count, , value] = line.split(' ');
      return { offset: Number(offset), deliveryCount: Number(count), value: decodeURIComponent(value) };
    });
  }

  kill() {
    this.child.kill('SIGKILL');
  }
}

async function produce(broker, count) {
  const producer = new Kafka({ clientId: 'share-test', brokers: broker.brokers, logLevel: logLevel.NOTHING })
    .producer();
  await producer.connect();
  await producer.send({
    topic: 'orders',
    messages: Array.from({ length: count }, (_, i) => ({ value: `task-${i}`, partition: 0 })),
  });
  await producer.disconnect();
}

test('a crashed share consumer\'s records go to the survivor once advance() passes the lock', async (t) => {
  const broker = await Broker.start({ topics: { orders: 1 }, manualClock: true });
  const crashing = new ShareConsumer(broker.bootstrapServers, 'queue', 'orders');
  let survivor = null;
  t.after(async () => {
    crashing.kill();
    if (survivor) survivor.kill();
    await broker.stop();
  });
  await crashing.ready();
  assert.deepEqual(await crashing.poll(1, 1500), []); // joined: the group starts at the end
  await produce(broker, 3);
  const held = await crashing.poll(3, 5000);
  assert.deepEqual(held.map((r) => r.offset), [0, 1, 2]);
  // The survivor joins only now: librdkafka fetches in the background, and would otherwise
  // acquire records before the crashing consumer does.
  survivor = new ShareConsumer(broker.bootstrapServers, 'queue', 'orders');
  await survivor.ready();
  crashing.kill();
  assert.deepEqual(await survivor.poll(3, 1000), [], 'still locked to the crashed consumer');
  await broker.advance(30000); // group.share.record.lock.duration.ms
  const redelivered = await survivor.poll(3, 5000);
  assert.deepEqual(redelivered, [
    { offset: 0, deliveryCount: 2, value: 'task-0' },
    { offset: 1, deliveryCount: 2, value: 'task-1' },
    { offset: 2, deliveryCount: 2, value: 'task-2' },
  ]);
  assert.deepEqual(await survivor.command('ack all accept'), ['acked 3']);
  assert.deepEqual(await survivor.command('commit'), ['committed 0 NO_ERROR']);
});
