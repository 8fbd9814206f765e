// SPDX-License-Identifier: Apache-2.0
//
// The console's TimelineModel (console/js/timeline_model.js) on event sequences shaped like
// docs/HTTP-API.md's: columns per completed rebalance, the reasons that led to each, replayed
// records per generation, other groups' and repeated events ignored.
import test from 'node:test';
import assert from 'node:assert/strict';
import { TimelineModel, shortMemberId } from '../../console/js/timeline_model.js';

const A = 'rdkafka-8064db55-4299-45e8-b4a4-d26eb73a1c92';
const B = 'rdkafka-e21a9ed9-8dc2-413b-8fad-1d802dbb9972';
let nextId = 0;
const event = (type, fields) => ({ id: ++nextId, type, group_id: 'g1', group_type: 'classic', ...fields });
const joined = (member, client) => event('member_joined', { member_id: member, client_id: client, instance_id: null });
const started = (generation, reason) => event('rebalance_started', { generation, reason });
const completed = (generation, assignment) => event('rebalance_completed', { generation, protocol: 'range', leader: A, assignment });

test('each completed rebalance is a column with the reasons since the previous one', () => {
  const model = new TimelineModel('g1');
  const events = [
    event('topic_created', { group_id: undefined, topic: 'orders', partitions: 3 }),
    joined(A, 'alpha'), started(0, `member ${A} joined`),
    joined(B, 'beta'), started(1, `member ${B} joined`),
    completed(2, { [A]: [{ topic: 'orders', partitions: [0, 1] }], [B]: [{ topic: 'orders', partitions: [2] }] }),
    event('member_expired', { member_id: B, client_id: 'beta', reason: `member ${B} sent no heartbeat within its session timeout of 6000 ms` }),
    started(2, `member ${B} sent no heartbeat within its session timeout of 6000 ms`),
    completed(3, { [A]: [{ topic: 'orders', partitions: [0, 1, 2] }] }),
    event('records_replayed', { generation: 3, member_id: A, topic: 'orders', partition: 2, from: 4, to: 9, count: 5 }),
    event('records_replayed', { generation: 3, member_id: A, topic: 'orders', partition: 2, from: 9, to: 10, count: 1 }),
    started(3, "the subscribed topics' metadata changed"),
    completed(4, { [A]: [{ topic: 'orders', partitions: [0, 1, 2, 3] }] }),
  ];
  const finished = events.map((e) => model.apply(e)).filter(Boolean);
  assert.equal(finished.length, 3);
  assert.deepEqual(model.columns.map((c) => c.generation), [2, 3, 4]);
  assert.deepEqual(model.members, [A, B]);
  assert.deepEqual(model.columns[0].reasons.map((r) => r.text), ['alpha joined', 'beta joined']);
  assert.deepEqual(model.columns[1].reasons.map((r) => [r.kind, r.text]), [['expired', 'beta expired']]);
  assert.deepEqual(model.columns[2].reasons.map((r) => r.text), ["the subscribed topics' metadata changed"]);
  assert.equal(model.replayedAfter(3), 6);
  assert.equal(model.replayedAfter(2), 0);
});

test('other groups and events already applied change nothing', () => {
  const model = new TimelineModel('g1');
  const done = completed(1, { [A]: [{ topic: 'orders', partitions: [0] }] });
  assert.ok(model.apply(done));
  assert.equal(model.apply(done), null);
  assert.equal(model.apply({ ...completed(2, {}), group_id: 'other' }), null);
  assert.equal(model.columns.length, 1);
});

test('short member ids keep the client id and the first part of the UUID', () => {
  assert.equal(shortMemberId('kgroups-playground-6d5d7139-3fa0-4d20-8671-513cbd65f56c'), 'kgroups-playground-6d5d7139…');
  assert.equal(shortMemberId('static-a'), 'static-a');
});
