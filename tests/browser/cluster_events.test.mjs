// SPDX-License-Identifier: Apache-2.0
//
// The console's ClusterEvents (console/js/cluster_events.js) on event sequences shaped like
// docs/CLUSTER.md's: one line per cluster event, newest first, unclean elections marked with
// their lost records, coordinator moves of both shapes (groups' and transactions'),
// reassignments started, completed and cancelled, other events and repeats ignored; and the
// TimelineModel taking broker events as reasons of the next rebalance.
import test from 'node:test';
import assert from 'node:assert/strict';
import { ClusterEvents, describeClusterEvent } from '../../console/js/cluster_events.js';
import { TimelineModel } from '../../console/js/timeline_model.js';

let nextId = 0;
const event = (type, fields) => ({ id: ++nextId, time_ms: 1000 * nextId, type, ...fields });

test('cluster events become lines, newest first; unclean elections say what they lost', () => {
  const model = new ClusterEvents();
  const events = [
    event('topic_created', { topic: 'orders', partitions: 1 }),
    event('broker_stopped', { broker: 1 }),
    event('isr_shrunk', { topic: 'orders', partition: 0, isr: [2, 0] }),
    event('leader_elected', { topic: 'orders', partition: 0, leader: 2, leader_epoch: 1, unclean: false, lost_records: 0 }),
    event('leader_elected', { topic: 'orders', partition: 1, leader: 0, leader_epoch: 3, unclean: true, lost_records: 5 }),
    event('leader_elected', { topic: 'orders', partition: 2, leader: -1, leader_epoch: 4, unclean: false, lost_records: 0 }),
    event('broker_started', { broker: 1 }),
    event('isr_expanded', { topic: 'orders', partition: 0, isr: [2, 0, 1] }),
    event('member_joined', { group_id: 'g1', member_id: 'm' }),
  ];
  for (const e of events) model.apply(e);
  assert.equal(model.apply(events[1]), null, 'an event applied twice counts once');
  assert.deepEqual(model.entries.map((e) => [e.kind, e.text]), [
    ['isr', 'ISR of orders-0 grew to [2, 0, 1]'],
    ['broker', 'broker 1 started'],
    ['election', 'orders-2 → no leader (offline) (epoch 4)'],
    ['unclean', 'unclean election: orders-1 → leader broker 0, 5 records lost'],
    ['election', 'orders-0 → leader broker 2 (epoch 1)'],
    ['isr', 'ISR of orders-0 shrank to [2, 0]'],
    ['broker', 'broker 1 stopped'],
  ]);
  assert.equal(describeClusterEvent(event('broker_isolated', { broker: 2 })).text, 'broker 2 isolated');
  assert.equal(describeClusterEvent(event('rebalance_started', { group_id: 'g1' })), null);
});

test('coordinator moves of groups and of transactions are lines of their own', () => {
  const model = new ClusterEvents();
  model.apply(event('coordinator_moved', { offsets_partition: 7, coordinator: 2 }));
  model.apply(event('coordinator_moved', { transaction_state_partition: 3, coordinator: 0 }));
  model.apply(event('coordinator_moved', { offsets_partition: 1, coordinator: -1 }));
  assert.deepEqual(model.entries.map((e) => [e.kind, e.type, e.text]), [
    ['coordinator', 'coordinator_moved', 'coordinator of __consumer_offsets-1 is offline'],
    ['coordinator', 'coordinator_moved', 'coordinator of __transaction_state-3 moved to broker 0'],
    ['coordinator', 'coordinator_moved', 'coordinator of __consumer_offsets-7 moved to broker 2'],
  ]);
  assert.match(model.entries[1].detail, /transactional ids/);
  assert.match(model.entries[2].detail, /groups .* broker 2/);
});

test('a reassignment is a line when it starts and when it completes or is cancelled', () => {
  const model = new ClusterEvents();
  const orders0 = { topic: 'orders', partition: 0 };
  model.apply(event('reassignment_started', {
    ...orders0, target_replicas: [1, 2], adding_replicas: [2], removing_replicas: [0], replicas: [1, 2, 0],
  }));
  model.apply(event('reassignment_completed', {
    ...orders0, target_replicas: [1, 2], adding_replicas: [2], removing_replicas: [0], replicas: [1, 2],
  }));
  model.apply(event('reassignment_started', {
    ...orders0, target_replicas: [2, 1], adding_replicas: [], removing_replicas: [], replicas: [2, 1],
  }));
  model.apply(event('reassignment_cancelled', {
    ...orders0, target_replicas: [0, 2], adding_replicas: [0], removing_replicas: [1], replicas: [2, 1],
  }));
  assert.deepEqual(model.entries.map((e) => [e.kind, e.text]), [
    ['reassignment', 'reassignment of orders-0 to [0, 2] cancelled: back on [2, 1]'],
    ['reassignment', 'reassignment of orders-0 to [2, 1] started (the same replicas, reordered)'],
    ['reassignment', 'reassignment of orders-0 to [1, 2] completed'],
    ['reassignment', 'reassignment of orders-0 to [1, 2] started: adding [2], removing [0]'],
  ]);
});

test('a broker stop is a reason of the group\'s next rebalance; elections are not', () => {
  const model = new TimelineModel('g1');
  model.apply(event('broker_stopped', { broker: 1 }));
  model.apply(event('leader_elected', { topic: '__consumer_offsets', partition: 7, leader: 2, leader_epoch: 1, unclean: false, lost_records: 0 }));
  model.apply(event('broker_stopped', { broker: 2, group_id: 'g2' }));
  const column = model.apply(event('rebalance_completed', { group_id: 'g1', generation: 1, protocol: 'range', assignment: {} }));
  assert.deepEqual(column.reasons.map((r) => [r.kind, r.text]), [['broker', 'broker 1 stopped']]);
});
