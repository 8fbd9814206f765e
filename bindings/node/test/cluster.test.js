// SPDX-License-Identifier: Apache-2.0
//
// kgroups/broker against a real kgroupsd of three brokers (docs/CLUSTER.md): the cluster as
// GET /v1/brokers shows it, stopping the leader of a replicated partition elects another one
// from the ISR, starting it again brings it back into the ISR, isolation and a replication
// delay, and unknown broker ids.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Broker, BrokerError } = require('kgroups/broker');

test('three brokers: stopping the leader elects a new one, starting it brings it back', async () => {
  const broker = await Broker.start({ brokers: 3, defaultReplicationFactor: 3, topics: { payments: 1 } });
  try {
    assert.equal(broker.brokers.length, 3);
    assert.equal(broker.bootstrapServers, broker.brokers.join(','));
    const cluster = await broker.cluster();
    assert.deepEqual(cluster.brokers.map((b) => [b.id, b.state]), [[0, 'running'], [1, 'running'], [2, 'running']]);
    assert.equal(cluster.controller, 0);
    assert.deepEqual(cluster.brokers.map((b) => `${b.host}:${b.port}`), broker.brokers);

    const old = await broker.leader('payments');
    assert.ok([0, 1, 2].includes(old));
    const stopped = await broker.stopBroker(old);
    assert.equal(stopped.id, old);
    assert.equal(stopped.state, 'stopped');
    assert.equal(stopped.leader_partitions, 0);

    const now = await broker.leader('payments', 0);
    assert.notEqual(now, old);
    assert.ok(now >= 0, 'a follower in the ISR took over');
    const partition = (await broker.topic('payments')).partitions[0];
    assert.ok(!partition.isr.includes(old), `the stopped broker left the ISR ${partition.isr}`);
    const [elected] = await broker.events({ type: 'leader_elected' });
    assert.equal(elected.topic, 'payments');
    assert.equal(elected.leader, now);
    assert.equal(elected.unclean, false);
    assert.equal((await broker.events({ type: 'broker_stopped' }))[0].broker, old);

    assert.equal((await broker.startBroker(old)).state, 'running');
    await broker.waitFor(async () => (await broker.topic('payments')).partitions[0].isr.includes(old),
      { message: `broker ${old} to rejoin the ISR` });
    assert.equal(await broker.leader('payments'), now, 'leadership does not move back by itself');
    const metrics = await broker.metrics();
    assert.match(metrics, new RegExp(`^kgroupsd_broker_up\\{broker="${old}"\\} 1$`, 'm'));
    assert.match(metrics, /^kgroupsd_leader_elections_total [1-9]\d*$/m);
    assert.match(metrics, new RegExp(`^kgroupsd_partition_leader\\{topic="payments",partition="0"\\} ${now}$`, 'm'));
  } finally {
    await broker.stop();
  }
});

test('isolation, replication delay, and what an unknown broker or partition answers', async () => {
  const broker = await Broker.start({ brokers: 3, defaultReplicationFactor: 3, topics: { orders: 2 } });
  try {
    assert.equal((await broker.isolateBroker(2)).state, 'isolated');
    assert.equal((await broker.events({ type: 'broker_isolated' }))[0].broker, 2);
    assert.equal((await broker.delayReplication(1, 250)).replication_delay_ms, 250);
    assert.equal((await broker.delayReplication(1, 0)).replication_delay_ms, 0);
    await assert.rejects(broker.stopBroker(3), (error) =>
      error instanceof BrokerError && error.status === 404 && /no broker 3: node ids are 0 to 2/.test(error.message));
    await assert.rejects(broker.leader('orders', 2), /leader: topic orders has partitions 0 to 1, not 2/);
    await assert.rejects(broker.leader('unknown'), (error) => error instanceof BrokerError && error.status === 404);
  } finally {
    await broker.stop();
  }
});

test('one broker: bootstrapServers stays one address and the cluster is that broker', async () => {
  const broker = await Broker.start();
  try {
    assert.equal(broker.bootstrapServers, `${broker.host}:${broker.port}`);
    const cluster = await broker.cluster();
    assert.equal(cluster.brokers.length, 1);
    assert.equal(cluster.brokers[0].port, broker.port);
  } finally {
    await broker.stop();
  }
});
