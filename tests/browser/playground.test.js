// SPDX-License-Identifier: Apache-2.0
//
// The console's playground in headless Chromium: clicking "Start consumer" three times starts
// three simulated consumers (kgroupsd's playground API, docs/HTTP-API.md) and the timeline
// shows three generations, with 1, 2 and 3 members; while the timeline is paused the third
// rebalance waits and appears on resume. A request the playground refuses (a second assignor
// in one group) shows the API's own error message in the panel and starts nothing.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { startBroker, getJson } = require('./kgroupsd.js');
const { STEP_TIMEOUT_MS, openConsole, screenshot } = require('./browser.js');

const GROUP = 'console-playground';

async function until(condition, what, timeoutMs = STEP_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
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
  const playground = await getJson(broker, '/v1/playground');
  session = await openConsole(broker.url);
  return { broker, playground, ...session };
}

// Member counts of the timeline's columns, oldest first.
function timelineMembers(page) {
  return page.evaluate(() => {
    const table = document.querySelector('#timeline-view table.timeline');
    if (!table) return [];
    const columns = [...table.querySelectorAll('thead th[data-generation]')];
    return columns.map((th, i) => ({
      generation: Number(th.dataset.generation),
      members: [...table.querySelectorAll('tbody tr')].filter((row) => row.querySelectorAll('td')[i].dataset.memberId).length,
    }));
  });
}

async function startConsumer(page, assignor) {
  await page.$eval('#consumer-group', (input, group) => { input.value = group; }, GROUP);
  await page.$eval('#consumer-topic', (input, topic) => { input.value = topic; }, GROUP);
  await page.select('#consumer-assignor', assignor);
  await page.click('#consumer-start');
}

function stableConsumers(page) {
  return page.$$eval('#playground-consumers tbody tr[data-state="stable"]', (rows) => rows.length);
}

test('three simulated consumers started from the console make three generations', async (t) => {
  const { broker, playground, page, problems } = await withConsole(t, ['--group-min-session-timeout-ms', '1000']);
  assert.equal(playground.status, 200, `GET /v1/playground: ${JSON.stringify(playground.body)}`);

  await startConsumer(page, 'range');
  await until(async () => (await stableConsumers(page)) === 1, 'the first consumer to be stable');
  const groupButton = `#group-list button[data-group-id="${GROUP}"]`;
  await page.waitForSelector(groupButton);
  await page.click(groupButton);
  await until(async () => (await timelineMembers(page)).length >= 1, 'the first generation in the timeline');
  await screenshot(page, 'playground-1-one-consumer');

  await startConsumer(page, 'range');
  await until(async () => (await stableConsumers(page)) === 2, 'two stable consumers');
  await until(async () => (await timelineMembers(page)).at(-1)?.members === 2, 'a generation of two members');
  await screenshot(page, 'playground-2-two-consumers');

  // Paused, the third rebalance is buffered, not drawn.
  await page.click('#timeline-pause');
  const columnsWhilePaused = (await timelineMembers(page)).length;
  await startConsumer(page, 'range');
  await until(async () => (await stableConsumers(page)) === 3, 'three stable consumers');
  await until(async () => {
    const { body } = await getJson(broker, `/v1/groups/${GROUP}`);
    return body.state === 'Stable' && body.members.length === 3;
  }, 'the group to be stable with three members');
  assert.equal((await timelineMembers(page)).length, columnsWhilePaused, 'the paused timeline did not change');
  assert.match(await page.$eval('#timeline-buffered', (el) => el.textContent), /\d+ event\(s\) waiting/);
  await screenshot(page, 'playground-3-paused');

  await page.click('#timeline-pause');
  const columns = await until(async () => {
    const now = await timelineMembers(page);
    return now.at(-1)?.members === 3 ? now : null;
  }, 'a generation of three members after resume');
  const counts = columns.map((c) => c.members);
  assert.ok(columns.length >= 3, `at least three generations: ${JSON.stringify(columns)}`);
  assert.deepEqual(counts.filter((n, i) => n !== counts[i - 1]).slice(-3), [1, 2, 3], `member counts ${counts}`);
  const generations = columns.map((c) => c.generation);
  assert.deepEqual([...generations].sort((a, b) => a - b), generations, 'generations in order');
  await screenshot(page, 'playground-4-three-consumers');
  assert.deepEqual(problems, []);
});

test('a request the playground refuses shows the API error and starts nothing', async (t) => {
  const { broker, page, problems } = await withConsole(t, []);
  await startConsumer(page, 'range');
  await until(async () => (await stableConsumers(page)) === 1, 'the first consumer to be stable');
  // The coordinator would refuse a second protocol in the group, so the playground answers 409.
  await startConsumer(page, 'cooperative-sticky');
  const status = await until(async () => {
    const text = await page.$eval('#playground-status', (el) => el.textContent);
    return text.includes('POST /v1/playground/consumers failed (409)') ? text : null;
  }, 'the POST error in the playground status');
  assert.match(status, /range/);
  assert.ok(await page.$eval('#playground-status', (el) => el.classList.contains('error')));
  const { body } = await getJson(broker, '/v1/playground');
  assert.equal(body.consumers.length, 1, `one consumer: ${JSON.stringify(body.consumers)}`);
  await screenshot(page, 'playground-refused');
  assert.deepEqual(problems, []);
});
