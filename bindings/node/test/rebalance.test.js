// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md "Rebalance (range assignor, eager)", "join", "leave" and
// "assignment" through the JS API.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Topic, partitionFor } = require('kgroups');

function assignments(topic, group, consumers) {
  return Object.fromEntries(consumers.map((c) => [c, topic.assignment(group, c)]));
}

// Appends `count` records on every partition of `topic` (keys found by trying).
function fillPartitions(topic, numPartitions, count) {
  for (let i = 0; i < 10000; i++) {
    if (topic.endOffset(partitionFor(`k${i}`, numPartitions)) < count) topic.append(`k${i}`, `v${i}`);
  }
  for (let p = 0; p < numPartitions; p++) assert.equal(topic.endOffset(p), count);
}

test('6 partitions over A, B, C: two consecutive partitions each', () => {
  const topic = new Topic(6);
  for (const c of ['A', 'B', 'C']) topic.join('billing', c);
  assert.deepEqual(assignments(topic, 'billing', ['A', 'B', 'C']), { A: [0, 1], B: [2, 3], C: [4, 5] });
});

test('7 partitions over A, B, C: the first member gets the extra one', () => {
  const topic = new Topic(7);
  for (const c of ['A', 'B', 'C']) topic.join('billing', c);
  assert.deepEqual(assignments(topic, 'billing', ['A', 'B', 'C']), { A: [0, 1, 2], B: [3, 4], C: [5, 6] });
});

test('members beyond the partition count sit idle', () => {
  const topic = new Topic(2);
  for (const c of ['A', 'B', 'C']) topic.join('g', c);
  assert.deepEqual(assignments(topic, 'g', ['A', 'B', 'C']), { A: [0], B: [1], C: [] });
});

test('8 partitions over 3 members: n % m extra partitions go to the first members', () => {
  const topic = new Topic(8);
  for (const c of ['x', 'y', 'z']) topic.join('g', c);
  assert.deepEqual(assignments(topic, 'g', ['x', 'y', 'z']), { x: [0, 1, 2], y: [3, 4, 5], z: [6, 7] });
});

test('members are ordered by consumer id, not by join order', () => {
  const topic = new Topic(6);
  for (const c of ['C', 'A', 'B']) topic.join('g', c);
  assert.deepEqual(assignments(topic, 'g', ['A', 'B', 'C']), { A: [0, 1], B: [2, 3], C: [4, 5] });
});

test('consumer ids are sorted by their UTF-8 bytes', () => {
  // UTF-16 order puts U+10000 (a surrogate pair) before U+FFFF; UTF-8 order the other way.
  const topic = new Topic(2);
  topic.join('g', '\u{10000}');
  topic.join('g', '\uFFFF');
  assert.deepEqual(topic.assignment('g', '\uFFFF'), [0]);
  assert.deepEqual(topic.assignment('g', '\u{10000}'), [1]);
  // Bytewise: 'B' (0x42) < 'a' (0x61) < 'é' (0xC3 0xA9).
  const other = new Topic(3);
  for (const c of ['é', 'a', 'B']) other.join('g', c);
  assert.deepEqual(assignments(other, 'g', ['B', 'a', 'é']), { B: [0], a: [1], 'é': [2] });
});

test('the empty string is a valid group name and consumer id', () => {
  const topic = new Topic(2);
  topic.join('', '');
  topic.join('', 'z');
  assert.deepEqual(assignments(topic, '', ['', 'z']), { '': [0], z: [1] });
});

test('assignment is [] for a non-member and for an unknown group', () => {
  const topic = new Topic(3);
  topic.join('g', 'A');
  assert.deepEqual(topic.assignment('g', 'nobody'), []);
  assert.deepEqual(topic.assignment('unknown', 'A'), []);
});

test('join of a member already in the group changes nothing (no rebalance)', () => {
  const topic = new Topic(1);
  topic.append('k', 'v0');
  topic.append('k', 'v1');
  topic.join('g', 'A');
  assert.equal(topic.poll('g', 'A', 1)[0].value, 'v0');
  topic.join('g', 'A'); // a rebalance would reset A to committed offset 0
  assert.deepEqual(topic.poll('g', 'A').map((r) => r.value), ['v1']);
});

test('leave of a non-member changes nothing (no rebalance)', () => {
  const topic = new Topic(1);
  topic.append('k', 'v0');
  topic.append('k', 'v1');
  topic.join('g', 'A');
  assert.equal(topic.poll('g', 'A', 1).length, 1);
  topic.leave('g', 'nobody');
  topic.leave('unknown group', 'A');
  assert.deepEqual(topic.poll('g', 'A').map((r) => r.value), ['v1']);
});

test('a rebalance resets every member to the committed offsets (at-least-once)', () => {
  const topic = new Topic(2);
  fillPartitions(topic, 2, 3);
  topic.join('g', 'A');
  topic.join('g', 'B');
  assert.equal(topic.poll('g', 'A').length, 3); // A owns partition 0
  topic.commit('g', 'A', { 0: 1 });
  assert.equal(topic.poll('g', 'B').length, 3); // B owns partition 1, never commits
  topic.join('g', 'C'); // rebalance: A [0], B [1], C [] again
  assert.deepEqual(topic.assignment('g', 'A'), [0]);
  assert.deepEqual(topic.poll('g', 'A').map((r) => r.offset), [1, 2]);
  assert.deepEqual(topic.poll('g', 'B').map((r) => r.offset), [0, 1, 2]);
  assert.deepEqual(topic.poll('g', 'C'), []);
});

test('a partition that moves starts from the committed offset for its new owner', () => {
  const topic = new Topic(2);
  fillPartitions(topic, 2, 4);
  topic.join('g', 'A');
  assert.equal(topic.poll('g', 'A', 100).length, 8);
  topic.commit('g', 'A', { 0: 4, 1: 2 });
  topic.join('g', 'B'); // A [0], B [1]
  assert.deepEqual(topic.poll('g', 'A'), []);
  assert.deepEqual(topic.poll('g', 'B').map((r) => [r.partition, r.offset]), [[1, 2], [1, 3]]);
});

test('leave rebalances the remaining members (a crash is the same as a clean leave)', () => {
  const topic = new Topic(6);
  for (const c of ['A', 'B', 'C']) topic.join('billing', c);
  topic.leave('billing', 'B');
  assert.deepEqual(assignments(topic, 'billing', ['A', 'B', 'C']), { A: [0, 1, 2], B: [], C: [3, 4, 5] });
});

test('a group whose last member left keeps its committed offsets for the next member', () => {
  const topic = new Topic(1);
  for (let i = 0; i < 5; i++) topic.append('k', `v${i}`);
  topic.join('g', 'A');
  assert.equal(topic.poll('g', 'A', 3).length, 3);
  topic.commit('g', 'A');
  topic.leave('g', 'A');
  assert.deepEqual(topic.assignment('g', 'A'), []);
  assert.equal(topic.committed('g', 0), 3);
  topic.join('g', 'Z');
  assert.deepEqual(topic.poll('g', 'Z').map((r) => r.value), ['v3', 'v4']);
});

test('groups never affect each other', () => {
  const topic = new Topic(2);
  fillPartitions(topic, 2, 2);
  topic.join('one', 'A');
  topic.join('two', 'A');
  topic.join('two', 'B');
  assert.deepEqual(topic.assignment('one', 'A'), [0, 1]);
  assert.equal(topic.poll('one', 'A').length, 4);
  topic.commit('one', 'A');
  assert.deepEqual([topic.committed('two', 0), topic.committed('two', 1)], [0, 0]);
  assert.equal(topic.poll('two', 'A').length, 2);
  topic.leave('one', 'A');
  assert.deepEqual(topic.assignment('two', 'A'), [0]);
});
