// SPDX-License-Identifier: Apache-2.0
//
// node-rdkafka 3.6.1 (librdkafka 2.12.0) consumer groups against kgroupsd, each with
// group.protocol=classic and with group.protocol=consumer (KIP-848): two members split a
// 6-partition topic with no overlap and no gap; a SIGKILLed member's partitions go to the
// survivor after the session timeout, resumed from the dead member's last commit; a clean
// leave (disconnect) rebalances at once. Classic only: a static member (group.instance.id)
// restarting within its session timeout gets its partitions back without a rebalance.
// Members run in child processes (member.js), so SIGKILL is real. Every test starts its own
// kgroupsd. (librdkafka needs Metadata v12, topic ids, for KIP-848: kgroupsd serves it.)
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { startKgroupsd } = require('./kgroupsd');
const { until, sleep, produce, startMember } = require('./helpers');

const PARTITIONS = 6;
const ALL = [0, 1, 2, 3, 4, 5];

// Per protocol: kgroupsd's flags for a session timeout of `sessionMs`, and a
// member's config for it (the classic protocol sets it per member; KIP-848 on the broker).
const PROTOCOLS = {
  classic: {
    brokerFlags: () => ['--group-min-session-timeout-ms', '1000'],
    member: (sessionMs) => ({
      'group.protocol': 'classic', 'session.timeout.ms': sessionMs, 'heartbeat.interval.ms': 300,
    }),
    expiredLog: (sessionMs) => new RegExp(`sent no heartbeat within its session timeout of ${sessionMs} ms`),
  },
  consumer: {
    brokerFlags: (sessionMs) => ['--group-consumer-session-timeout-ms', String(sessionMs),
      '--group-consumer-heartbeat-interval-ms', '300'],
    member: () => ({ 'group.protocol': 'consumer' }),
    expiredLog: () => /removed because its session expired/,
  },
};

// Runs `body(broker, members)` against a kgroupsd of its own; whatever happens, kills the
// members left and checks that kgroupsd stops cleanly. A failure carries the broker's log and
// each member's librdkafka errors.
async function withBroker(flags, body) {
  const broker = await startKgroupsd(['--topic', 'rdk-groups:6', ...flags]);
  const members = [];
  try {
    await body(broker, members);
  } catch (error) {
    const errors = members.map((m, i) => `member ${i}: ${m.errors.join('; ')}`).join('\n');
    error.message += `\nmember errors:\n${errors}\nkgroupsd log:\n${broker.log()}`;
    throw error;
  } finally {
    for (const member of members) member.kill();
    const code = await broker.stop();
    assert.equal(code, 0, `kgroupsd exited with ${code} on SIGTERM; log:\n${broker.log()}`);
  }
}

const split = (members) => members.every((m) => m.partitions.length > 0) &&
  members.reduce((n, m) => n + m.partitions.length, 0) === PARTITIONS;

const messages = (count) => Array.from({ length: count }, (_, i) => ({
  partition: i % PARTITIONS, key: `k${i}`, value: `v${i}`,
}));

for (const [name, protocol] of Object.entries(PROTOCOLS)) {
  test(`${name}: two members split a 6-partition topic with no overlap and no gap`, async () => {
    await withBroker(protocol.brokerFlags(30000), async (broker, members) => {
      const config = protocol.member(30000);
      members.push(startMember(broker.bootstrap, `${name}-split`, 'rdk-groups', config));
      members.push(startMember(broker.bootstrap, `${name}-split`, 'rdk-groups', config));
      await until(() => split(members), 'both members to get partitions');
      const [a, b] = members.map((m) => m.partitions);
      assert.deepEqual([...a, ...b].sort(), ALL, `assignments ${a} and ${b}`);
      const sent = await produce(broker.bootstrap, 'rdk-groups', messages(120));
      await until(() => members[0].rows.length + members[1].rows.length >= 120, 'every message to be read');
      await sleep(500); // anything read twice shows up now
      // Checked before closing: once the first member leaves, the second may rightly be given
      // its partitions before it closes too.
      assert.deepEqual(members[0].partitions, a, 'the first member\'s assignment changed');
      assert.deepEqual(members[1].partitions, b, 'the second member\'s assignment changed');
      for (const member of members) await member.close();
      for (const [member, assigned] of [[members[0], a], [members[1], b]]) {
        for (const row of member.rows) assert.ok(assigned.includes(row.partition), 'read outside its assignment');
      }
      const read = [...members[0].rows, ...members[1].rows].map((r) => `${r.partition}:${r.offset}:${r.key}:${r.value}`);
      assert.equal(read.length, 120, 'a message was read twice');
      assert.deepEqual(read.sort(), sent.map((r) => `${r.partition}:${r.offset}:${r.key}:${r.value}`).sort());
    });
  });

  test(`${name}: a SIGKILLed member's partitions go to the survivor, resumed from its last commit`, async () => {
    const sessionMs = 3000;
    await withBroker(protocol.brokerFlags(sessionMs), async (broker, members) => {
      await produce(broker.bootstrap, 'rdk-groups', messages(60)); // offsets 0-9 on each partition
      // The survivor's own session is long (classic), so only the dead member times out.
      const victim = startMember(broker.bootstrap, `${name}-crash`, 'rdk-groups', protocol.member(sessionMs));
      members.push(victim);
      await until(() => victim.partitions.length === PARTITIONS, 'the first member to get every partition');
      const survivor = startMember(broker.bootstrap, `${name}-crash`, 'rdk-groups', protocol.member(30000));
      members.push(survivor);
      await until(() => split(members), 'both members to get partitions');
      const dead = victim.partitions;
      victim.send({ cmd: 'commit', offsets: dead.map((partition) => ({ partition, offset: 4 })) });
      await until(() => victim.has('committed') || victim.errors.length > 0, 'the first member to commit');
      assert.deepEqual(victim.errors, []);
      const rowsBefore = survivor.rows.length;
      victim.kill('SIGKILL'); // no LeaveGroup, no last heartbeat
      assert.equal(await victim.exited, 'SIGKILL');
      const killed = Date.now();
      await until(() => survivor.partitions.length === PARTITIONS, 'the survivor to get every partition',
        { timeoutMs: sessionMs + 15000 });
      const tookOverMs = Date.now() - killed;
      const replay = () => survivor.rows.slice(rowsBefore).filter((row) => dead.includes(row.partition));
      await until(() => replay().length >= 6 * dead.length, 'the survivor to read the dead member\'s partitions');
      await sleep(500);
      await survivor.close();
      // Offsets 0-3 of the dead member's partitions were committed: not read again; 4-9 are.
      const expected = dead.flatMap((p) => [4, 5, 6, 7, 8, 9].map((o) => `${p}:${o}`));
      assert.deepEqual(replay().map((r) => `${r.partition}:${r.offset}`).sort(), expected.sort());
      assert.match(broker.log(), protocol.expiredLog(sessionMs));
      assert.ok(tookOverMs >= sessionMs - 1000, `the survivor took over ${tookOverMs} ms after the kill, before the session timeout`);
    });
  });

  test(`${name}: a clean leave (disconnect) rebalances at once`, async () => {
    await withBroker(protocol.brokerFlags(30000), async (broker, members) => {
      const config = protocol.member(30000);
      members.push(startMember(broker.bootstrap, `${name}-leave`, 'rdk-groups', config));
      members.push(startMember(broker.bootstrap, `${name}-leave`, 'rdk-groups', config));
      await until(() => split(members), 'both members to get partitions');
      const started = Date.now();
      await members[1].close(); // LeaveGroup (classic), heartbeat with member epoch -1 (KIP-848)
      assert.equal(await members[1].exited, 0);
      await until(() => members[0].partitions.length === PARTITIONS, 'the survivor to get every partition');
      const elapsedMs = Date.now() - started;
      await members[0].close();
      assert.deepEqual(members[0].partitions, ALL);
      assert.ok(elapsedMs < 10000, `the survivor got every partition only after ${elapsedMs} ms (session timeout 30000 ms)`);
    });
  });
}

test('classic: a static member restarting within its session timeout gets its partitions back without a rebalance', async () => {
  await withBroker(PROTOCOLS.classic.brokerFlags(), async (broker, members) => {
    const staticConfig = { ...PROTOCOLS.classic.member(10000), 'group.instance.id': 'rdk-static-a' };
    const first = startMember(broker.bootstrap, 'classic-static', 'rdk-groups', staticConfig);
    members.push(first);
    const other = startMember(broker.bootstrap, 'classic-static', 'rdk-groups', PROTOCOLS.classic.member(30000));
    members.push(other);
    await until(() => split([first, other]), 'both members to get partitions');
    await sleep(1000); // settled: no rebalance under way
    const before = { mine: first.partitions, theirs: other.partitions, rebalances: other.rebalances().length };
    first.kill('SIGKILL');
    assert.equal(await first.exited, 'SIGKILL');
    const restarted = startMember(broker.bootstrap, 'classic-static', 'rdk-groups', staticConfig);
    members.push(restarted);
    const started = Date.now();
    await until(() => restarted.partitions.length > 0, 'the restarted static member to get partitions');
    const elapsedMs = Date.now() - started;
    await sleep(2000); // a rebalance would reach the other member with its next heartbeats (300 ms)
    assert.deepEqual(restarted.partitions, before.mine, 'the static member got other partitions');
    assert.deepEqual(restarted.assignments, [before.mine], 'the restarted static member saw more than one assignment');
    assert.equal(other.rebalances().length, before.rebalances, 'the other member went through a rebalance');
    assert.deepEqual(other.partitions, before.theirs);
    assert.ok(elapsedMs < 10000, `the static member got its partitions after ${elapsedMs} ms, not within its session timeout`);
    for (const member of [restarted, other]) await member.close();
  });
});
