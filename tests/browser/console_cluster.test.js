// SPDX-License-Identifier: Apache-2.0
//
// The console's brokers panel in headless Chromium against kgroupsd --brokers 3: three brokers
// are listed, clicking Stop on the leader of a replicated partition shows it stopped, a
// leader_elected line on the timeline and the partition's new leader and shrunk ISR in the
// Topics view; clicking Start runs it again and it rejoins the ISR. Stopping the broker that
// coordinates a group puts a coordinator_moved line on the timeline, naming the new
// coordinator, and the Groups list names the new coordinator too; a kafkajs admin's reassignment shows as started, then completed. With one
// broker the panel is one line, with no buttons and no cluster columns.
'use strict';

process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { ROOT, startBroker, getJson } = require('./kgroupsd.js');
const { STEP_TIMEOUT_MS, openConsole, screenshot } = require('./browser.js');

async function until(condition, what, timeoutMs = STEP_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    last = await condition();
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function withConsole(t, args) {
  const broker = await startBroker(args);
  let session;
  t.after(async () => {
    if (session) await session.browser.close();
    await broker.stop();
  });
  session = await openConsole(broker.url);
  return { broker, ...session };
}

// The brokers panel's rows: [{id, state, controller}].
function brokerRows(page) {
  return page.$$eval('#broker-table tbody tr', (rows) => rows.map((row) => ({
    id: Number(row.dataset.broker),
    state: row.dataset.state,
    controller: row.querySelector('[data-cell="controller"]').textContent,
  })));
}

// The Topics view's row of orders-0: {leader, isr} as the page shows them.
function ordersRow(page) {
  return page.$eval('table.topic[data-topic="orders"] tr[data-partition="0"]',
    (row) => ({ leader: Number(row.dataset.leader), isr: row.dataset.isr, cells: row.children.length }));
}

test('three brokers: Stop on the leader elects another, the timeline shows it, Start brings it back', async (t) => {
  const { broker, page, problems } = await withConsole(t,
    ['--brokers', '3', '--default-replication-factor', '3', '--topic', 'orders:1']);
  await until(async () => (await brokerRows(page)).length === 3, 'three brokers in the panel');
  assert.deepEqual((await brokerRows(page)).map((r) => [r.id, r.state]), [[0, 'running'], [1, 'running'], [2, 'running']]);
  assert.equal((await brokerRows(page))[0].controller, 'controller');
  assert.equal(await page.$eval('#brokers-nav', (a) => a.hidden), false);
  assert.equal(await page.$eval('#cluster-events', (div) => div.hidden), false);

  const { body: topic } = await getJson(broker, '/v1/topics/orders');
  const leader = topic.partitions[0].leader;
  await until(async () => (await ordersRow(page)).isr.split(',').length === 3, 'orders-0 with three in-sync replicas');
  assert.equal((await ordersRow(page)).leader, leader);
  await screenshot(page, 'cluster-1-three-brokers');

  await page.click(`#broker-table button[data-action="stop"][data-broker="${leader}"]`);
  await until(async () => (await brokerRows(page)).find((r) => r.id === leader)?.state === 'stopped',
    `broker ${leader} shown stopped`);
  const elected = await page.waitForSelector('#cluster-event-list li[data-type="leader_elected"]');
  const electedText = await elected.evaluate((li) => li.textContent);
  assert.match(electedText, /orders-0 → leader broker [0-2] \(epoch 1\)/);
  assert.match(await page.$eval('#cluster-event-list', (ol) => ol.textContent), new RegExp(`broker ${leader} stopped`));
  const moved = await until(async () => {
    const row = await ordersRow(page);
    return row.leader !== leader && row.leader >= 0 && row.isr.split(',').length === 2 && row;
  }, 'the Topics view to show the new leader and the shrunk ISR');
  assert.ok(!moved.isr.split(',').includes(String(leader)));
  assert.equal(await page.$eval(`#broker-table button[data-action="stop"][data-broker="${leader}"]`, (b) => b.disabled), true);
  assert.match(await page.$eval('#brokers-status', (p) => p.textContent), new RegExp(`Broker ${leader} stopped`));
  await screenshot(page, 'cluster-2-leader-stopped');

  await page.click(`#broker-table button[data-action="start"][data-broker="${leader}"]`);
  await until(async () => (await brokerRows(page)).find((r) => r.id === leader)?.state === 'running',
    `broker ${leader} shown running again`);
  await until(async () => (await ordersRow(page)).isr.split(',').length === 3, `broker ${leader} back in the ISR`);
  await page.waitForSelector('#cluster-event-list li[data-type="isr_expanded"]');
  await screenshot(page, 'cluster-3-leader-started');
  assert.deepEqual(problems, []);
});

// POST `path` with a JSON `body` on the broker's HTTP endpoint: { status, body }.
async function postJson(broker, path, body) {
  const response = await fetch(broker.url + path, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  return { status: response.status, body: await response.json() };
}

// The summary line of `group` in the Groups list ('' while it is not listed).
async function groupSummary(page, group) {
  return page.$eval(`button.group-button[data-group-id="${group}"] .group-summary`, (span) => span.textContent)
    .catch(() => '');
}

test('three brokers: Stop on a group\'s coordinator shows the coordinator move on the timeline and in the group list', async (t) => {
  const { broker, page, problems } = await withConsole(t, ['--brokers', '3', '--default-replication-factor', '3',
    '--offsets-topic-num-partitions', '1', '--topic', 'orders:1']);
  // A simulated consumer joins group g1: its group records create __consumer_offsets, whose one
  // partition's leader coordinates the group.
  assert.equal((await postJson(broker, '/v1/playground/consumers', { group: 'g1', topic: 'orders' })).status, 201);
  const coordinator = await until(async () => {
    const { status, body } = await getJson(broker, '/v1/topics/__consumer_offsets');
    return status === 200 && body.partitions[0].leader >= 0 && { id: body.partitions[0].leader };
  }, '__consumer_offsets-0 with a leader');
  await until(async () => (await brokerRows(page)).length === 3, 'three brokers in the panel');
  assert.equal(await page.$('#cluster-event-list li[data-type="coordinator_moved"]'), null, 'no move before the stop');
  await until(async () => (await groupSummary(page, 'g1')).includes(`coordinator broker ${coordinator.id}`),
    'g1 listed with its coordinator');

  await page.click(`#broker-table button[data-action="stop"][data-broker="${coordinator.id}"]`);
  const line = await page.waitForSelector('#cluster-event-list li[data-type="coordinator_moved"]');
  const text = await line.evaluate((li) => li.textContent);
  const { body: events } = await getJson(broker, '/v1/events/log');
  const moves = events.filter((e) => e.type === 'coordinator_moved');
  assert.equal(moves.length, 1);
  assert.equal(moves[0].offsets_partition, 0);
  assert.notEqual(moves[0].coordinator, coordinator.id);
  assert.ok(text.includes(`coordinator of __consumer_offsets-0 moved to broker ${moves[0].coordinator}`), text);
  assert.match(await line.evaluate((li) => li.className), /reason-coordinator/);
  // The Groups list follows within its 2 s refresh.
  await until(async () => (await groupSummary(page, 'g1')).includes(`coordinator broker ${moves[0].coordinator}`),
    'g1 listed with its new coordinator');
  await screenshot(page, 'cluster-4-coordinator-moved');
  assert.deepEqual(problems, []);
});

test('three brokers: an admin client\'s reassignment is started, then completed, on the timeline', async (t) => {
  const { Kafka, logLevel } = require(path.join(ROOT, 'tests/clients/kafkajs/node_modules/kafkajs'));
  const { broker, page, problems } = await withConsole(t,
    ['--brokers', '3', '--default-replication-factor', '2', '--topic', 'orders:1']);
  const { body: topic } = await getJson(broker, '/v1/topics/orders');
  const [first, second] = topic.partitions[0].replicas;
  const third = [0, 1, 2].find((node) => node !== first && node !== second);
  const admin = new Kafka({ brokers: broker.brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  t.after(() => admin.disconnect());
  await admin.alterPartitionReassignments({
    topics: [{ topic: 'orders', partitionAssignment: [{ partition: 0, replicas: [third, first] }] }],
  });
  const completed = await page.waitForSelector('#cluster-event-list li[data-type="reassignment_completed"]');
  assert.ok((await completed.evaluate((li) => li.textContent)).includes(`reassignment of orders-0 to [${third}, ${first}] completed`));
  const started = await page.$eval('#cluster-event-list li[data-type="reassignment_started"]', (li) => li.textContent);
  assert.ok(started.includes(`reassignment of orders-0 to [${third}, ${first}] started: adding [${third}], removing [${second}]`), started);
  await screenshot(page, 'cluster-5-reassignment');
  assert.deepEqual(problems, []);
});

test('one broker: the brokers panel is one line, without buttons or replication columns', async (t) => {
  const { page, problems } = await withConsole(t, ['--topic', 'orders:1']);
  await until(() => page.$eval('#brokers-summary', (p) => p.textContent.startsWith('One broker')), 'the one-line summary');
  assert.equal(await page.$eval('#broker-table', (table) => table.hidden), true);
  assert.equal(await page.$eval('#brokers-nav', (a) => a.hidden), true);
  assert.equal(await page.$eval('#cluster-events', (div) => div.hidden), true);
  await page.waitForSelector('table.topic[data-topic="orders"] tr[data-partition="0"]');
  assert.equal((await ordersRow(page)).cells, 5, 'Partition, Log start, End offset, Bytes, Produce rate');
  assert.deepEqual(problems, []);
});
