// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md "Commit" and "committed" through the JS API.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Topic, NotAssignedError, partitionFor } = require('kgroups');
const { snapshot } = require('./topic_state.js');

// A 4-partition topic with `perPartition` records on each partition and
// consumers A [0, 1] and B [2, 3] in group g.
function setUp(perPartition = 3) {
  const topic = new Topic(4);
  for (let i = 0; [0, 1, 2, 3].some((p) => topic.endOffset(p) < perPartition); i++) {
    if (topic.endOffset(partitionFor(`k${i}`, 4)) < perPartition) topic.append(`k${i}`, `v${i}`);
  }
  topic.join('g', 'A');
  topic.join('g', 'B');
  return topic;
}

const committedOf = (topic, group = 'g') => [0, 1, 2, 3].map((p) => topic.committed(group, p));
const state = (topic) => snapshot(topic, 4, ['g', 'h'], ['A', 'B', 'C']);

test('commit without offsets stores the consumer\'s positions of its partitions', () => {
  const topic = setUp(3);
  assert.equal(topic.poll('g', 'A', 4).length, 4); // 3 of partition 0, 1 of partition 1
  topic.commit('g', 'A');
  assert.deepEqual(committedOf(topic), [3, 1, 0, 0]);
});

test('commit with undefined or null offsets is commit without offsets', () => {
  const topic = setUp(3);
  topic.poll('g', 'A', 2);
  topic.commit('g', 'A', undefined);
  assert.deepEqual(committedOf(topic), [2, 0, 0, 0]);
  topic.poll('g', 'A', 2);
  topic.commit('g', 'A', null);
  assert.deepEqual(committedOf(topic), [3, 1, 0, 0]);
});

test('commit of an idle consumer or a non-member commits nothing and does not throw', () => {
  const topic = new Topic(1);
  topic.append('k', 'v');
  topic.join('g', 'A');
  topic.join('g', 'B'); // idle
  topic.poll('g', 'A');
  topic.commit('g', 'B');
  topic.commit('g', 'stranger');
  topic.commit('unknown', 'A');
  assert.equal(topic.committed('g', 0), 0);
  assert.equal(topic.committed('unknown', 0), 0);
});

test('commit with offsets stores them; keys are the partition numbers as strings', () => {
  const topic = setUp(3);
  topic.commit('g', 'A', { 0: 2, 1: 3 });
  assert.deepEqual(committedOf(topic), [2, 3, 0, 0]);
  topic.commit('g', 'B', { '3': 1 });
  assert.deepEqual(committedOf(topic), [2, 3, 0, 1]);
  const noPrototype = Object.create(null);
  noPrototype[2] = 2;
  topic.commit('g', 'B', noPrototype);
  assert.deepEqual(committedOf(topic), [2, 3, 2, 1]);
});

test('an offset equal to endOffset is allowed; a lower offset than before rewinds', () => {
  const topic = setUp(3);
  topic.commit('g', 'A', { 0: 3 });
  assert.equal(topic.committed('g', 0), 3);
  topic.commit('g', 'A', { 0: 1 });
  assert.equal(topic.committed('g', 0), 1);
  topic.commit('g', 'A', { 0: 0 });
  assert.equal(topic.committed('g', 0), 0);
});

test('commit of a partition not assigned to the consumer throws NotAssignedError and commits nothing', () => {
  const topic = setUp(3);
  const before = state(topic);
  assert.throws(() => topic.commit('g', 'A', { 0: 1, 2: 1 }), NotAssignedError);
  assert.throws(() => topic.commit('g', 'stranger', { 0: 1 }), NotAssignedError);
  assert.throws(() => topic.commit('unknown', 'A', { 0: 1 }), NotAssignedError);
  assert.deepEqual(state(topic), before);
});

test('a partition outside 0..n-1 in offsets is simply not assigned: NotAssignedError', () => {
  const topic = setUp(3);
  const before = state(topic);
  for (const partition of ['4', '99', '-1', '2147483648', '99999999999999999999']) {
    assert.throws(() => topic.commit('g', 'A', { [partition]: 0 }), NotAssignedError, partition);
  }
  assert.deepEqual(state(topic), before);
});

test('an offset outside 0..endOffset is a RangeError and commits nothing', () => {
  const topic = setUp(3);
  const before = state(topic);
  assert.throws(() => topic.commit('g', 'A', { 0: 4 }), RangeError);
  assert.throws(() => topic.commit('g', 'A', { 0: -1 }), RangeError);
  assert.throws(() => topic.commit('g', 'A', { 0: 1, 1: 4 }), RangeError, 'the valid one is not stored either');
  assert.deepEqual(state(topic), before);
});

test('the assignment check comes before the offset range check', () => {
  const topic = setUp(3);
  assert.throws(() => topic.commit('g', 'A', { 0: 99, 2: 1 }), NotAssignedError);
  assert.throws(() => topic.commit('g', 'A', { 2: 99 }), NotAssignedError);
});

test('an empty offsets object commits nothing and is not an error', () => {
  const topic = setUp(3);
  topic.poll('g', 'A');
  topic.commit('g', 'A', {});
  topic.commit('g', 'stranger', {});
  assert.deepEqual(committedOf(topic), [0, 0, 0, 0]);
});

test('commit does not move any position', () => {
  const topic = setUp(3);
  assert.deepEqual(topic.poll('g', 'A', 1).map((r) => r.offset), [0]);
  topic.commit('g', 'A', { 0: 3 });
  assert.deepEqual(topic.poll('g', 'A', 1).map((r) => [r.partition, r.offset]), [[0, 1]]);
  topic.commit('g', 'A', { 0: 0 });
  assert.deepEqual(topic.poll('g', 'A', 1).map((r) => [r.partition, r.offset]), [[0, 2]]);
});

test('the committed offset survives consumers coming and going', () => {
  const topic = setUp(3);
  topic.commit('g', 'A', { 0: 2 });
  topic.leave('g', 'A');
  topic.leave('g', 'B');
  topic.join('g', 'C');
  assert.equal(topic.committed('g', 0), 2);
  assert.deepEqual(topic.poll('g', 'C', 1).map((r) => [r.partition, r.offset]), [[0, 2]]);
});

test('committed is 0 without a commit, also for a group that never existed', () => {
  const topic = setUp(3);
  assert.deepEqual(committedOf(topic, 'never'), [0, 0, 0, 0]);
});

test('committed of a partition out of range is a RangeError, even for an unknown group', () => {
  const topic = new Topic(6);
  assert.throws(() => topic.committed('unknown', 99), RangeError);
  assert.throws(() => topic.committed('unknown', 6), RangeError);
  assert.throws(() => topic.committed('unknown', -1), RangeError);
});

test('a stale consumer cannot commit over the new owner after a rebalance', () => {
  const topic = setUp(3);
  assert.equal(topic.poll('g', 'A').length, 6);
  topic.join('g', 'C'); // A [0, 1], B [2], C [3]
  topic.leave('g', 'A'); // B [0, 1], C [2, 3]
  assert.throws(() => topic.commit('g', 'A', { 0: 3 }), NotAssignedError);
  assert.equal(topic.committed('g', 0), 0);
  topic.commit('g', 'A'); // A is no member: nothing, no error
  assert.equal(topic.committed('g', 0), 0);
});
