// SPDX-License-Identifier: Apache-2.0
//
// The console in headless Chromium with a real two-member kafkajs group on a 4-partition
// topic: it shows both members and their partitions; after one member is killed (SIGKILL, so
// the coordinator expires it) the timeline gains a generation in which the survivor owns all
// four partitions, with "expired" under it; the lag bars' numbers are GET /v1/groups/{id}'s.
// KGROUPS_UPDATE_SCREENSHOT=1 also writes docs/images/console.png.
'use strict';

process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const path = require('node:path');
const { ROOT, startBroker, getJson } = require('./kgroupsd.js');
const { STEP_TIMEOUT_MS, openConsole, screenshot } = require('./browser.js');

const { Kafka, logLevel } = require(path.join(ROOT, 'tests/clients/kafkajs/node_modules/kafkajs'));

const TOPIC = 'orders';
const GROUP = 'billing';
const PARTITIONS = 4;
const SESSION_TIMEOUT_MS = 6000;

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

function startMember(broker, clientId) {
  const child = spawn(process.execPath, [path.join(__dirname, 'kafkajs_member.js'), broker.bootstrap,
    TOPIC, GROUP, clientId, String(SESSION_TIMEOUT_MS)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const killOnExit = () => child.kill('SIGKILL');
  process.on('exit', killOnExit);
  child.on('exit', () => process.off('exit', killOnExit));
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  return { child, clientId, stderr: () => stderr };
}

// The group as the API shows it: { group, owners: Map clientId → sorted partitions }.
async function groupNow(broker) {
  const { status, body } = await getJson(broker, `/v1/groups/${GROUP}`);
  if (status !== 200) return null;
  const owners = new Map(body.members.map((m) => [m.client_id,
    (m.assignment ?? []).flatMap((t) => t.partitions).sort((a, b) => a - b)]));
  return { group: body, owners };
}

// What the console shows of the group: its members table and lag rows.
function consoleGroup(page) {
  return page.evaluate(() => ({
    members: [...document.querySelectorAll('#group-detail table.members tbody tr')].map((tr) => ({
      memberId: tr.dataset.memberId,
      clientId: tr.children[1].textContent,
      partitions: JSON.parse(tr.dataset.partitions).flatMap((t) => t.partitions).sort((a, b) => a - b),
      text: tr.querySelector('.assignment').textContent,
    })),
    lag: [...document.querySelectorAll('#group-detail tr.lag-row')].map((tr) => ({
      topic: tr.dataset.topic,
      partition: Number(tr.dataset.partition),
      end_offset: tr.dataset.endOffset === '' ? null : Number(tr.dataset.endOffset),
      committed: tr.dataset.committed === '' ? null : Number(tr.dataset.committed),
      lag: tr.dataset.lag === '' ? null : Number(tr.dataset.lag),
      lagText: tr.querySelector('td.lag').textContent,
      barLabel: tr.querySelector('svg.lag-bar').getAttribute('aria-label'),
    })),
  }));
}

// The timeline: [{generation, owners: {memberId: [partitions]}, reasons: [text], replayed}].
function consoleTimeline(page) {
  return page.evaluate(() => {
    const table = document.querySelector('#timeline-view table.timeline');
    if (!table) return [];
    const generations = [...table.querySelectorAll('thead th[data-generation]')].map((th) => Number(th.dataset.generation));
    const reasonCells = [...table.querySelectorAll('tfoot tr.reasons td')];
    return generations.map((generation, i) => {
      const owners = {};
      for (const row of table.querySelectorAll('tbody tr')) {
        const cell = row.querySelectorAll('td')[i];
        const blocks = [...cell.querySelectorAll('.block')];
        if (cell.dataset.memberId) owners[row.dataset.memberId] = blocks.map((b) => Number(b.dataset.partition)).sort((a, b) => a - b);
      }
      return { generation, owners, reasons: [...reasonCells[i].querySelectorAll('li')].map((li) => li.textContent) };
    });
  });
}

test('the console shows a kafkajs group, its rebalance after a member is killed, and its lag', async (t) => {
  const broker = await startBroker(['--topic', `${TOPIC}:${PARTITIONS}`, '--group-min-session-timeout-ms', '1000',
    '--initial-rebalance-delay-ms', '500']);
  const members = [];
  let session;
  let producing = true;
  let produced = Promise.resolve();
  const kafka = new Kafka({ clientId: 'console-test-producer', brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  t.after(async () => {
    producing = false;
    await produced.catch(() => {});
    await producer.disconnect().catch(() => {});
    for (const member of members) member.child.kill('SIGKILL');
    if (session) await session.browser.close();
    await broker.stop();
  });

  // A producer keeps writing a few records a second, so the topic view has rates to draw.
  await producer.connect();
  let sequence = 0;
  produced = (async () => {
    while (producing) {
      await producer.send({ topic: TOPIC, messages: Array.from({ length: 4 }, () => {
        sequence += 1;
        return { partition: sequence % PARTITIONS, value: `record ${sequence}` };
      }) });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();

  members.push(startMember(broker, 'member-a'), startMember(broker, 'member-b'));
  const stable = await until(async () => {
    const now = await groupNow(broker);
    const ok = now && now.group.state === 'Stable' && now.owners.size === 2 &&
      [...now.owners.values()].flat().length === PARTITIONS && [...now.owners.values()].every((p) => p.length > 0);
    return ok ? now : null;
  }, 'a stable two-member group', 60000);

  session = await openConsole(broker.url);
  const { page, problems } = session;
  const groupButton = `#group-list button[data-group-id="${GROUP}"]`;
  await page.waitForSelector(groupButton);
  await page.focus(groupButton);
  await page.keyboard.press('Enter'); // keyboard works as well as a click

  // Step 1: both members with their partitions, as the API has them.
  const shown = await until(async () => {
    const view = await consoleGroup(page);
    return view.members.length === 2 ? view : null;
  }, 'both members in the console');
  for (const member of shown.members) {
    assert.deepEqual(member.partitions, stable.owners.get(member.clientId), `partitions of ${member.clientId}`);
    assert.match(member.text, new RegExp(`${TOPIC}: `));
  }
  assert.deepEqual(shown.members.flatMap((m) => m.partitions).sort(), [0, 1, 2, 3]);
  const before = await until(async () => {
    const columns = await consoleTimeline(page);
    const last = columns[columns.length - 1];
    return last && Object.keys(last.owners).length === 2 ? columns : null;
  }, 'a timeline column with both members');
  await screenshot(page, 'group-1-two-members');

  // Step 2: kill member-b; the timeline gains a generation in which member-a owns everything.
  const survivorId = shown.members.find((m) => m.clientId === 'member-a').memberId;
  const killedId = shown.members.find((m) => m.clientId === 'member-b').memberId;
  members[1].child.kill('SIGKILL');
  const after = await until(async () => {
    const columns = await consoleTimeline(page);
    const last = columns[columns.length - 1];
    return last && last.generation > before[before.length - 1].generation &&
      Object.keys(last.owners).length === 1 ? columns : null;
  }, 'a new generation after member-b was killed', SESSION_TIMEOUT_MS + STEP_TIMEOUT_MS);
  const last = after[after.length - 1];
  assert.equal(after.length, before.length + 1, 'one more generation');
  assert.deepEqual(last.owners, { [survivorId]: [0, 1, 2, 3] });
  assert.ok(last.reasons.some((r) => r.includes('member-b expired')), `reasons: ${last.reasons}`);
  assert.equal(before[before.length - 1].owners[killedId]?.length > 0, true, 'member-b had partitions before');
  const announced = await page.$eval('#announcer', (el) => el.textContent);
  assert.match(announced, new RegExp(`Group ${GROUP} rebalanced: generation ${last.generation}, 1 member`));
  const alone = await until(async () => {
    const view = await consoleGroup(page);
    return view.members.length === 1 && view.members[0].partitions.length === PARTITIONS ? view : null;
  }, 'the survivor alone in the group view with every partition');
  assert.equal(alone.members[0].memberId, survivorId);
  await screenshot(page, 'group-2-after-kill');

  // Step 3: once writes stop and member-a has read and committed everything, the lag rows
  // carry exactly the API's numbers (both sides are re-read until they agree or time runs out).
  producing = false;
  await produced;
  let mismatch = '';
  await until(async () => {
    const api = (await getJson(broker, `/v1/groups/${GROUP}`)).body;
    const view = await consoleGroup(page);
    const want = api.offsets.map((o) => ({ topic: o.topic, partition: o.partition, end_offset: o.end_offset,
      committed: o.committed, lag: o.lag }));
    const got = view.lag.map(({ topic, partition, end_offset, committed, lag }) => ({ topic, partition, end_offset, committed, lag }));
    mismatch = `console ${JSON.stringify(got)} vs API ${JSON.stringify(want)}`;
    if (JSON.stringify(got) !== JSON.stringify(want) || got.length !== PARTITIONS) return false;
    return view.lag.every((row) => row.lagText === String(row.lag ?? '—') &&
      row.barLabel === `end offset ${row.end_offset}, committed ${row.committed ?? 'none'}, lag ${row.lag}`);
  }, 'lag bars equal to GET /v1/groups/billing').catch((error) => {
    throw new Error(`${error.message}: ${mismatch}`);
  });
  await screenshot(page, 'group-3-lag');
  if (process.env.KGROUPS_UPDATE_SCREENSHOT === '1') {
    await page.screenshot({ path: path.join(ROOT, 'docs/images/console.png'), fullPage: true });
  }
  assert.deepEqual(problems, []);
  assert.equal(members[0].child.exitCode, null, `member-a died: ${members[0].stderr()}`);
});
