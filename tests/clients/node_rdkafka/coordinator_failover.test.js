// SPDX-License-Identifier: Apache-2.0
//
// node-rdkafka 3.6.1 (librdkafka 2.12.0) group members against kgroupsd --brokers 3, with
// group.protocol=classic and with group.protocol=consumer (KIP-848): two members split a
// topic of replication factor 3; the broker coordinating their group (the leader of its
// __consumer_offsets partition, GET /v1/groups/{id}) stops. The new coordinator loads the
// group from __consumer_offsets, members, generation (group epoch) and assignment, so the
// members find it and go on: no rebalance on either member, every record read exactly once,
// the group Stable in the generation it had (docs/CLUSTER.md).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const Kafka = require('node-rdkafka');
const { startKgroupsd } = require('./kgroupsd');
const { until, sleep, produce, startMember } = require('./helpers');
const { CLUSTER_FLAGS, http, brokerAction } = require('../cluster_checks');

const TOPIC = 'rdk-coordinated';
const PARTITIONS = 6;

const PROTOCOLS = {
  classic: {
    brokerFlags: [],
    member: { 'group.protocol': 'classic', 'session.timeout.ms': 10000, 'heartbeat.interval.ms': 300 },
  },
  consumer: {
    brokerFlags: ['--group-consumer-session-timeout-ms', '10000', '--group-consumer-heartbeat-interval-ms', '300'],
    member: { 'group.protocol': 'consumer' },
  },
};

function createTopic(broker) {
  const admin = Kafka.AdminClient.create({ 'bootstrap.servers': broker.bootstrap });
  return new Promise((resolve, reject) => {
    admin.createTopic({ topic: TOPIC, num_partitions: PARTITIONS, replication_factor: 3 }, 10000, (error) => {
      admin.disconnect();
      if (error) reject(error); else resolve();
    });
  });
}

async function group(broker, groupId) {
  const { status, body } = await http(broker, 'GET', `/v1/groups/${groupId}`);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}

const messages = (from, count) => Array.from({ length: count }, (_, i) => ({
  partition: (from + i) % PARTITIONS, key: `k${from + i}`, value: `v${from + i}`,
}));

for (const [name, protocol] of Object.entries(PROTOCOLS)) {
  test(`${name}: a group goes on in its generation while the broker coordinating it stops`, async () => {
    const broker = await startKgroupsd([...CLUSTER_FLAGS, ...protocol.brokerFlags]);
    const members = [];
    try {
      await createTopic(broker);
      const groupId = `${name}-coordinated`;
      for (let i = 0; i < 2; i += 1) members.push(startMember(broker.bootstrap, groupId, TOPIC, protocol.member));
      await until(() => members.every((m) => m.partitions.length > 0) &&
        members[0].partitions.length + members[1].partitions.length === PARTITIONS, 'both members to get partitions');
      for (let waited = 0; (await group(broker, groupId)).state !== 'Stable'; waited += 100) {
        assert.ok(waited < 30000, 'the group did not become Stable');
        await sleep(100);
      }
      // Records only once the group is settled: nothing commits, so a record read before a
      // rebalance would rightly be read again after it.
      const sent = await produce(broker.bootstrap, TOPIC, messages(0, 60), { 'enable.idempotence': true });
      await until(() => members[0].rows.length + members[1].rows.length >= 60, 'the first records to be read');
      const before = await group(broker, groupId);
      const rebalances = members.map((m) => m.rebalances().length);
      const assigned = members.map((m) => m.partitions);

      await brokerAction(broker, before.coordinator, 'stop');
      // Idempotent, so a retry after the stop cannot store a record twice.
      sent.push(...await produce(broker.bootstrap, TOPIC, messages(60, 60), { 'enable.idempotence': true }));
      await until(() => members[0].rows.length + members[1].rows.length >= 120, 'every record to be read');
      await sleep(1000); // a rebalance or a record read twice shows up now
      const after = await group(broker, groupId);

      assert.notEqual(after.coordinator, null);
      assert.notEqual(after.coordinator, before.coordinator, 'the coordinator did not move');
      assert.equal(after.generation, before.generation, 'the move started a new generation');
      assert.equal(after.state, 'Stable');
      assert.deepEqual(members.map((m) => m.rebalances().length), rebalances, 'a member rebalanced');
      assert.deepEqual(members.map((m) => m.partitions), assigned);
      const read = members.flatMap((m) => m.rows).map((r) => `${r.partition}:${r.offset}:${r.key}:${r.value}`);
      assert.equal(read.length, 120, 'a record was read twice');
      assert.deepEqual(read.sort(), sent.map((r) => `${r.partition}:${r.offset}:${r.key}:${r.value}`).sort());
    } catch (error) {
      const errors = members.map((m, i) => `member ${i}: ${m.errors.join('; ')}\n` +
        m.stderr.split('\n').filter((l) => /reset|out of range|truncat|validat/i.test(l)).slice(0, 40).join('\n')).join('\n');
      error.message += `\nmember errors:\n${errors}\nkgroupsd log:\n${broker.log()}`;
      throw error;
    } finally {
      for (const member of members) await member.close();
      const code = await broker.stop();
      assert.equal(code, 0, `kgroupsd exited with ${code} on SIGTERM; log:\n${broker.log()}`);
    }
  });
}
