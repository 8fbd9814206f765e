// SPDX-License-Identifier: Apache-2.0
//
// kgroups/broker as a test harness for kafkajs 2.2.4: an injected
// NOT_LEADER_OR_FOLLOWER on Produce is retried and nothing is lost or duplicated; an
// unavailable coordinator delays a join without breaking it; injected latency shows in the
// client's request timings; with the manual clock, a member whose heartbeats stop expires
// only once advance() passes its session timeout; group() shows the members, assignment,
// committed offsets and lag the clients made; events() records the rebalances.
'use strict';

process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const { createRequire } = require('node:module');
const path = require('node:path');
const { Kafka, logLevel } = require('kafkajs');

// `kgroups/broker` resolved through the package's exports, as a project that depends on
// kgroups resolves it (this suite's node_modules has kafkajs only). It runs $KGROUPSD.
const bindingsNode = path.resolve(__dirname, '..', '..', '..', 'bindings', 'node');
const { Broker, BrokerError } = createRequire(path.join(bindingsNode, 'package.json'))('kgroups/broker');

const TIMEOUT_MS = 30000;

function kafkaFor(broker, clientId) {
  return new Kafka({ clientId, brokers: broker.brokers, logLevel: logLevel.NOTHING });
}

// Clean-ups of one test, run last-in first-out after it (node:test runs its after hooks in
// the order they were added): clients disconnect before their broker stops.
const cleanups = new WeakMap();
function onCleanup(t, fn) {
  if (!cleanups.has(t)) {
    cleanups.set(t, []);
    t.after(async () => {
      for (const cleanup of cleanups.get(t).reverse()) await cleanup();
    });
  }
  cleanups.get(t).push(fn);
}

// Starts a broker for one test and stops it after; a failed test's message gets its log.
async function startBroker(t, options) {
  const broker = await Broker.start(options);
  onCleanup(t, async () => {
    const code = await broker.stop();
    assert.equal(code, 0, `kgroupsd exited with ${code} on SIGTERM; log:\n${broker.log()}`);
  });
  return broker;
}

async function connected(t, client) {
  await client.connect();
  onCleanup(t, () => client.disconnect());
  return client;
}

// Reads `topic` from the beginning (kafkajs consumes through a group: a throwaway one) until
// `count` messages came, then a little longer so that a duplicate would show; resolves to
// "partition:offset:value" strings.
async function readAll(t, kafka, topic, count) {
  const consumer = await connected(t, kafka.consumer({ groupId: `reader-${topic}`, maxWaitTimeInMs: 100 }));
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  const rows = [];
  let done;
  const all = new Promise((resolve) => { done = resolve; });
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      rows.push(`${partition}:${message.offset}:${message.value}`);
      if (rows.length >= count) done();
    },
  });
  await Promise.race([all, new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS))]);
  await new Promise((resolve) => setTimeout(resolve, 300)); // a duplicate would show up now
  return rows;
}

// One partition and a plain producer: the refused request is the whole request. Three
// partitions with the fault on one: kafkajs resends the whole request, so the partitions that
// were stored come again and only an idempotent producer's sequence numbers keep them single.
for (const { partitions, idempotent } of [{ partitions: 1, idempotent: false }, { partitions: 3, idempotent: true }]) {
  test(`NOT_LEADER_OR_FOLLOWER on Produce (twice) is retried: nothing lost, nothing duplicated (${partitions} partition(s)${idempotent ? ', idempotent' : ''})`, async (t) => {
    const broker = await startBroker(t, { topics: { orders: partitions } });
    const kafka = kafkaFor(broker, 'harness-produce');
    const fault = await broker.inject({
      api: 'Produce', error: 'NOT_LEADER_OR_FOLLOWER', count: 2, topic: 'orders', partition: 0,
    });
    assert.equal(fault.remaining, 2);
    assert.deepEqual((await broker.faults()).map((f) => f.id), [fault.id]);

    const producer = await connected(t, kafka.producer({ idempotent }));
    const produceRequests = [];
    producer.on(producer.events.REQUEST, ({ payload }) => {
      if (payload.apiName === 'Produce') produceRequests.push(payload);
    });
    const messages = Array.from({ length: 10 }, (_, i) => ({ partition: i % partitions, value: `order-${i}` }));
    const results = await producer.send({ topic: 'orders', messages });
    assert.ok(results.every((r) => r.errorCode === 0), JSON.stringify(results));
    assert.equal(produceRequests.length, 3, 'kafkajs sent 2 refused Produce requests and 1 accepted');
    assert.deepEqual((await broker.faults()).filter((f) => f.remaining !== 0), [], 'the fault was not used up');

    const expectedEnds = Array.from({ length: partitions }, (_, p) => messages.filter((m) => m.partition === p).length);
    assert.deepEqual((await broker.topic('orders')).partitions.map((p) => p.end_offset), expectedEnds);
    const rows = await readAll(t, kafka, 'orders', 10);
    assert.deepEqual(rows.map((row) => row.split(':')[2]).sort(), messages.map((m) => m.value).sort());
  });
}

test('COORDINATOR_NOT_AVAILABLE delays a join without breaking it', async (t) => {
  const broker = await startBroker(t, { topics: { orders: 2 } });
  const kafka = kafkaFor(broker, 'harness-coordinator');
  const fault = await broker.coordinatorUnavailable({ count: 3, group: 'billing' });
  assert.equal(fault.remaining, 3);

  const consumer = await connected(t, kafka.consumer({ groupId: 'billing', maxWaitTimeInMs: 100 }));
  const findCoordinator = [];
  consumer.on(consumer.events.REQUEST, ({ payload }) => {
    if (payload.apiKey === 10) findCoordinator.push(payload);
  });
  let joined;
  const join = new Promise((resolve) => { joined = resolve; });
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => joined(payload));
  const started = Date.now();
  await consumer.subscribe({ topics: ['orders'] });
  await consumer.run({ eachMessage: async () => {} });
  const payload = await Promise.race([join, new Promise((_, reject) =>
    setTimeout(() => reject(new Error(`no join within ${TIMEOUT_MS} ms; log:\n${broker.log()}`)), TIMEOUT_MS))]);
  const elapsedMs = Date.now() - started;

  assert.ok(findCoordinator.length >= 4, `kafkajs asked for the coordinator ${findCoordinator.length} times`);
  assert.deepEqual((await broker.faults()).filter((f) => f.remaining !== 0), []);
  // kafkajs waits its retry back-off (300 ms, growing) between refused FindCoordinator requests.
  assert.ok(elapsedMs >= 300, `the join took only ${elapsedMs} ms`);
  const group = await broker.waitFor(async (b) => {
    const g = await b.group('billing');
    return g.state === 'Stable' && g;
  }, { timeoutMs: TIMEOUT_MS, message: 'billing to be Stable' });
  assert.deepEqual(group.members.map((m) => m.member_id), [payload.memberId]);
  assert.deepEqual(group.members[0].assignment, [{ topic: 'orders', partitions: [0, 1] }]);
});

test('injected Produce latency shows in the client\'s request timings', async (t) => {
  const broker = await startBroker(t, { topics: { orders: 1 } });
  const producer = await connected(t, kafkaFor(broker, 'harness-latency').producer());
  const durations = [];
  producer.on(producer.events.REQUEST, ({ payload }) => {
    if (payload.apiName === 'Produce') durations.push(payload.duration);
  });
  await producer.send({ topic: 'orders', messages: [{ value: 'warm-up' }] });
  await broker.inject({ api: 'Produce', latencyMs: 600, count: 1 });
  const started = Date.now();
  await producer.send({ topic: 'orders', messages: [{ value: 'slow' }] });
  const slowMs = Date.now() - started;
  await producer.send({ topic: 'orders', messages: [{ value: 'fast' }] });

  assert.equal(durations.length, 3);
  const [warm, slow, fast] = durations;
  // kafkajs reads its clock just after it has written the request (socketRequest.js), so a
  // pause in between (GC, or the process descheduled on a loaded machine) shortens its figure
  // below the 600 ms the broker held the request (584 ms seen); the wall-clock time of send()
  // below cannot fall short.
  assert.ok(slow >= 450, `the delayed Produce took ${slow} ms in kafkajs's timing`);
  assert.ok(slowMs >= 590, `send() with the delay took ${slowMs} ms`);
  assert.ok(fast < slow - 300 && warm < slow - 300, `timings ${durations}: only the one request is delayed`);
  assert.equal((await broker.topic('orders')).partitions[0].end_offset, 3);
});

// Spawns stalled_member.js and resolves to [child, memberId] once it has joined.
function startStalledMember(t, broker, topic, groupId, sessionTimeoutMs) {
  const child = spawn(process.execPath, [path.join(__dirname, 'stalled_member.js'), broker.bootstrapServers,
    topic, groupId, String(sessionTimeoutMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  onCleanup(t, () => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the member did not join within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
    child.once('exit', (code) => reject(new Error(`the member exited (${code}) before it joined`)));
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /^joined (\S+)$/m.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve([child, match[1]]);
    });
  });
}

test('manual clock: a member whose heartbeats stop expires only once advance() passes its session timeout', async (t) => {
  const SESSION_MS = 10000;
  const broker = await startBroker(t, { topics: { orders: 2 }, manualClock: true, initialRebalanceDelayMs: 0 });
  assert.equal((await broker.clock()).manual, true);
  // A record to read and commit, so that the group outlives its last member (a group with
  // neither members nor offsets is forgotten).
  const producer = await connected(t, kafkaFor(broker, 'harness-clock').producer());
  await producer.send({ topic: 'orders', messages: [{ partition: 0, value: 'one' }] });
  const [child, memberId] = await startStalledMember(t, broker, 'orders', 'stalled', SESSION_MS);
  await broker.waitFor(async (b) => {
    const g = await b.group('stalled');
    return g.state === 'Stable' && g.offsets.some((o) => o.committed === 1);
  }, { timeoutMs: TIMEOUT_MS, message: 'the member to join and commit' });

  child.kill('SIGKILL'); // no LeaveGroup: the member just stops heartbeating
  await new Promise((resolve) => child.once('exit', resolve));
  // Real time does not move the group's clock: a second and a half later it is still there.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  let group = await broker.group('stalled');
  assert.deepEqual(group.members.map((m) => m.member_id), [memberId]);

  await broker.advance(SESSION_MS - 1000);
  group = await broker.group('stalled');
  assert.deepEqual(group.members.map((m) => m.member_id), [memberId], 'expired before its session timeout');
  assert.deepEqual(await broker.events({ group: 'stalled', type: 'member_expired' }), []);

  await broker.advance(2000);
  group = await broker.group('stalled');
  assert.deepEqual(group.members, []);
  assert.equal(group.state, 'Empty');
  const expired = await broker.events({ group: 'stalled', type: 'member_expired' });
  assert.deepEqual(expired.map((e) => e.member_id), [memberId]);
});

test('advance() without manualClock is refused with a BrokerError (409)', async (t) => {
  const broker = await startBroker(t, {});
  await assert.rejects(broker.advance(1000), (error) => {
    assert.ok(error instanceof BrokerError, String(error));
    assert.equal(error.status, 409);
    assert.match(error.serverMessage, /manual/);
    return true;
  });
  await assert.rejects(broker.group('nobody'), (error) => error instanceof BrokerError && error.status === 404);
  await assert.rejects(broker.inject({ api: 'Produce', error: 'NO_SUCH_ERROR' }),
    (error) => error instanceof BrokerError && error.status === 400);
});

// An assignment ([{topic, partitions}]) with its partitions in ascending order.
function sortedAssignment(assignment) {
  return assignment.map(({ topic, partitions }) => ({ topic, partitions: [...partitions].sort((a, b) => a - b) }));
}

test('group() shows the members, assignment, committed offsets and lag the clients made; events() the rebalances', async (t) => {
  const broker = await startBroker(t, { topics: { ledger: 4 } });
  const kafka = kafkaFor(broker, 'harness-group');
  const producer = await connected(t, kafka.producer());
  const perPartition = [5, 6, 7, 8];
  const messages = perPartition.flatMap((n, partition) =>
    Array.from({ length: n }, (_, i) => ({ partition, value: `p${partition}-${i}` })));
  await producer.send({ topic: 'ledger', messages });

  // Two members that read everything and commit, on each of their partitions, two offsets
  // short of the end.
  const members = [];
  for (let i = 0; i < 2; i += 1) {
    const consumer = await connected(t, kafka.consumer({ groupId: 'audit', maxWaitTimeInMs: 100 }));
    const member = { consumer, joins: [], read: new Map() };
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => member.joins.push(payload));
    await consumer.subscribe({ topics: ['ledger'], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ partition }) => member.read.set(partition, (member.read.get(partition) ?? 0) + 1),
    });
    members.push(member);
  }
  const lastJoin = (member) => member.joins[member.joins.length - 1];
  const group = await broker.waitFor(async (b) => {
    const g = await b.group('audit');
    if (g.state !== 'Stable' || g.members.length !== 2) return undefined;
    // Both members answered the current generation, and read all of their partitions.
    const current = members.every((m) => lastJoin(m)?.groupId === 'audit' &&
      g.members.some((gm) => gm.member_id === lastJoin(m).memberId) &&
      (lastJoin(m).memberAssignment.ledger ?? []).every((p) => m.read.get(p) >= perPartition[p]));
    return current && g;
  }, { timeoutMs: TIMEOUT_MS, message: 'audit to be Stable with both members having read everything' });

  for (const member of members) {
    const { memberId, memberAssignment } = lastJoin(member);
    const shown = group.members.find((m) => m.member_id === memberId);
    assert.ok(shown, `member ${memberId} is not in the group`);
    assert.equal(shown.client_id, 'harness-group');
    assert.deepEqual(sortedAssignment(shown.assignment), [{ topic: 'ledger', partitions: [...memberAssignment.ledger].sort() }]);
    await member.consumer.commitOffsets(memberAssignment.ledger.map((partition) =>
      ({ topic: 'ledger', partition, offset: String(perPartition[partition] - 2) })));
  }
  assert.deepEqual(group.members.flatMap((m) => m.assignment[0].partitions).sort(), [0, 1, 2, 3]);
  assert.ok(group.members.some((m) => m.member_id === group.leader));

  const committed = await broker.waitFor(async (b) => {
    const g = await b.group('audit');
    return g.offsets.every((o) => o.committed !== null) && g.offsets.length === 4 && g;
  }, { timeoutMs: TIMEOUT_MS, message: 'every partition to be committed' });
  const byPartition = [...committed.offsets].sort((a, b) => a.partition - b.partition);
  assert.deepEqual(byPartition.map(({ topic, partition, committed: c, end_offset: end, lag }) =>
    ({ topic, partition, committed: c, end, lag })), perPartition.map((n, partition) =>
    ({ topic: 'ledger', partition, committed: n - 2, end: n, lag: 2 })));
  assert.equal(committed.lag, 8);

  // The event log: both members joined, and the last completed rebalance assigned what
  // kafkajs received.
  const joinedIds = (await broker.events({ group: 'audit', type: 'member_joined' })).map((e) => e.member_id);
  for (const member of members) assert.ok(joinedIds.includes(lastJoin(member).memberId), `joined: ${joinedIds}`);
  const rebalances = await broker.events({ group: 'audit', type: 'rebalance_completed' });
  assert.ok(rebalances.length >= 1, 'no rebalance_completed event');
  const last = rebalances[rebalances.length - 1];
  assert.equal(last.generation, committed.generation);
  assert.deepEqual(Object.keys(last.assignment).sort(), members.map((m) => lastJoin(m).memberId).sort());
  for (const member of members) {
    const { memberId, memberAssignment } = lastJoin(member);
    assert.deepEqual(sortedAssignment(last.assignment[memberId]), [{ topic: 'ledger', partitions: [...memberAssignment.ledger].sort() }]);
  }
  const commits = await broker.events({ group: 'audit', type: 'offsets_committed' });
  assert.deepEqual(commits.flatMap((e) => e.offsets.map((o) => `${o.partition}:${o.offset}`)).sort(),
    perPartition.map((n, partition) => `${partition}:${n - 2}`));
  const since = commits[0].id;
  assert.ok((await broker.events({ since })).every((e) => e.id > since));

  // The metrics carry the lag too.
  assert.match(await broker.metrics(), /kgroupsd_group_lag\{group="audit",topic="ledger",partition="0"\} 2/);
});
