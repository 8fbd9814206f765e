// SPDX-License-Identifier: Apache-2.0
//
// KIP-368 with a real client (issue 30): kgroupsd on a SASL_PLAINTEXT listener with
// --connections-max-reauth-ms 1500 tells node-rdkafka 3.6.1 (librdkafka 2.12.0, which
// re-authenticates) a session lifetime; one producer keeps producing for about 5 s. Every
// record is delivered, the broker logs more than one successful authentication of the same
// connection (re-authentication keeps it open), and no connection is closed for an expired
// session. Needs $KGROUPSD.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Kafka = require('node-rdkafka');
const { startKgroupsd } = require('./kgroupsd');

const REAUTH_MS = 1500;
const RUN_MS = 5000;

test('a producer re-authenticates on the same connection before its session ends', async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kgroups-reauth-'));
  const users = path.join(folder, 'users.txt');
  fs.writeFileSync(users, 'alice:alice-secret\n');
  const broker = await startKgroupsd([
    '--listeners', 'SASL_PLAINTEXT://127.0.0.1:0', '--sasl-users', users,
    '--super-users', 'User:alice', '--connections-max-reauth-ms', String(REAUTH_MS),
    '--topic', 'reauth:1']);
  try {
    const producer = new Kafka.Producer({
      'bootstrap.servers': broker.bootstrap, 'security.protocol': 'SASL_PLAINTEXT',
      'sasl.mechanisms': 'SCRAM-SHA-256', 'sasl.username': 'alice',
      'sasl.password': 'alice-secret', dr_cb: true, 'linger.ms': 5,
    });
    producer.setPollInterval(10);
    const delivered = [];
    const failed = [];
    producer.on('delivery-report', (error, report) => {
      if (error) failed.push(String(error));
      else delivered.push(report.offset);
    });
    await new Promise((resolve, reject) => {
      producer.connect({ timeout: 10000 }, (error) => (error ? reject(error) : resolve()));
    });
    let sent = 0;
    const started = Date.now();
    while (Date.now() - started < RUN_MS) {
      producer.produce('reauth', 0, Buffer.from(`record-${sent}`), null, null, sent);
      sent += 1;
      await new Promise((resolve) => { setTimeout(resolve, 100); });
    }
    const deadline = Date.now() + 10000;
    while (delivered.length + failed.length < sent && Date.now() < deadline) {
      await new Promise((resolve) => { setTimeout(resolve, 50); });
    }
    await new Promise((resolve) => { producer.disconnect(resolve); });

    assert.deepEqual(failed, []);
    assert.equal(delivered.length, sent);
    const log = broker.log();
    assert.doesNotMatch(log, /expired without re-authentication/);
    // "127.0.0.1:PORT authenticated as ..." more than once for one connection's port.
    const logins = new Map();
    for (const [, peer] of log.matchAll(/ (\S+) authenticated as "User:alice"/g)) {
      logins.set(peer, (logins.get(peer) ?? 0) + 1);
    }
    assert.ok([...logins.values()].some((count) => count >= 2),
      `no connection re-authenticated: ${JSON.stringify([...logins])}`);
  } finally {
    await broker.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
