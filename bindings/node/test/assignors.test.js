// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md "Options", "Assignors" and "Eager and cooperative" through the JS
// API: roundrobin's exact deal; sticky and cooperative-sticky balanced and
// moving as few partitions as balance allows (checked against a brute-force
// search over every balanced assignment of small topics); eager assignors
// restarting every position from the committed offset, cooperative-sticky
// keeping the positions of the partitions a member keeps.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Topic, partitionFor } = require('kgroups');
const { ModelTopic } = require('./model.js');
const { random } = require('./seeded_random.js');

const EAGER = ['range', 'roundrobin', 'sticky'];
const STICKY = ['sticky', 'cooperative-sticky'];

function assignments(topic, group, consumers) {
  return Object.fromEntries(consumers.map((c) => [c, topic.assignment(group, c)]));
}


// Appends `count` records on every partition of `topic` (keys found by trying).
function fillPartitions(topic, numPartitions, count) {
  let appended = 0;
  for (let i = 0; i < 100000 && appended < numPartitions * count; i++) {
    if (topic.endOffset(partitionFor(`k${i}`, numPartitions)) < count) {
      topic.append(`k${i}`, `v${i}`);
      appended += 1;
    }
  }
  for (let p = 0; p < numPartitions; p++) assert.equal(topic.endOffset(p), count);
}

test('roundrobin: 7 partitions over A, B, C -> A [0, 3, 6], B [1, 4], C [2, 5] (SPEC.md)', () => {
  const topic = new Topic(7, { assignor: 'roundrobin' });
  for (const c of ['A', 'B', 'C']) topic.join('g', c);
  assert.deepEqual(assignments(topic, 'g', ['A', 'B', 'C']), { A: [0, 3, 6], B: [1, 4], C: [2, 5] });
});

test('roundrobin: partition p goes to member p mod m, members sorted by id, after every join and leave', () => {
  for (const numPartitions of [1, 2, 5, 8, 13]) {
    const topic = new Topic(numPartitions, { assignor: 'roundrobin' });
    const members = [];
    // Joins in an order that is not the id order, then leaves.
    const steps = [['join', 'd'], ['join', 'B'], ['join', 'a'], ['join', 'é'], ['join', 'C'],
      ['leave', 'a'], ['leave', 'd'], ['join', 'A'], ['leave', 'é']];
    for (const [action, consumer] of steps) {
      topic[action]('g', consumer);
      if (action === 'join') members.push(consumer);
      else members.splice(members.indexOf(consumer), 1);
      const sorted = [...members].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
      const expected = Object.fromEntries(sorted.map((member, index) => [
        member,
        Array.from({ length: numPartitions }, (_, p) => p).filter((p) => p % sorted.length === index),
      ]));
      assert.deepEqual(assignments(topic, 'g', sorted), expected, `${numPartitions}: ${action} ${consumer}`);
    }
  }
});

test('roundrobin: members beyond the partition count sit idle', () => {
  const topic = new Topic(2, { assignor: 'roundrobin' });
  for (const c of ['C', 'B', 'A']) topic.join('g', c);
  assert.deepEqual(assignments(topic, 'g', ['A', 'B', 'C']), { A: [0], B: [1], C: [] });
});

for (const assignor of STICKY) {
  test(`${assignor}: 6 partitions, A, B, C joining in turn (SPEC.md's example)`, () => {
    const topic = new Topic(6, { assignor });
    topic.join('g', 'A');
    assert.deepEqual(assignments(topic, 'g', ['A']), { A: [0, 1, 2, 3, 4, 5] });
    topic.join('g', 'B');
    assert.deepEqual(assignments(topic, 'g', ['A', 'B']), { A: [0, 1, 2], B: [3, 4, 5] });
    topic.join('g', 'C');
    assert.deepEqual(assignments(topic, 'g', ['A', 'B', 'C']), { A: [0, 1], B: [3, 4], C: [2, 5] });
    // B leaves: A and C keep theirs and share B's, dealt in ascending order, A first.
    topic.leave('g', 'B');
    assert.deepEqual(assignments(topic, 'g', ['A', 'C']), { A: [0, 1, 3], C: [2, 4, 5] });
  });

  test(`${assignor}: the larger shares go to the members that owned the most before`, () => {
    // 7 partitions: A alone has all; B joins (A keeps 4, B gets 3); C joins:
    // of the shares 3 + 2 + 2 the 3 goes to A, who owned 4.
    const topic = new Topic(7, { assignor });
    for (const c of ['A', 'B', 'C']) topic.join('g', c);
    assert.deepEqual(assignments(topic, 'g', ['A', 'B', 'C']), { A: [0, 1, 2], B: [4, 5], C: [3, 6] });
    // Ownership wins over id: Z owned everything, so Z, not A, gets the larger share.
    const other = new Topic(5, { assignor });
    other.join('g', 'Z');
    other.join('g', 'A'); // Z owned 5: Z [0, 1, 2], A [3, 4]
    assert.deepEqual(assignments(other, 'g', ['A', 'Z']), { A: [3, 4], Z: [0, 1, 2] });
  });
}

// The most partitions that can keep their owner when `members` split
// `numPartitions` partitions as evenly as possible, found by trying every
// assignment of partitions to members.
function bruteForceMostKept(numPartitions, members, previousOwner) {
  const m = members.length;
  const low = Math.floor(numPartitions / m);
  let best = -1;
  const owner = new Array(numPartitions);
  const counts = new Array(m).fill(0);
  const search = (partition, kept) => {
    if (partition === numPartitions) {
      if (counts.every((count) => count === low || count === low + 1)) best = Math.max(best, kept);
      return;
    }
    for (let i = 0; i < m; i++) {
      if (counts[i] > low) continue; // never more than low + 1
      counts[i] += 1;
      owner[partition] = i;
      search(partition + 1, kept + (previousOwner.get(partition) === members[i] ? 1 : 0));
      counts[i] -= 1;
    }
  };
  search(0, 0);
  return best;
}

for (const assignor of STICKY) {
  test(`${assignor}: balanced and moving as few partitions as balance allows over random joins and leaves`, () => {
    const rand = random(assignor.length);
    const pool = ['A', 'B', 'C', 'D', 'E'];
    let checked = 0;
    for (let round = 0; round < 40; round++) {
      const numPartitions = 1 + Math.floor(rand() * 7);
      const topic = new Topic(numPartitions, { assignor });
      const members = new Set();
      for (let step = 0; step < 12; step++) {
        const consumer = pool[Math.floor(rand() * pool.length)];
        const before = new Map();
        for (const member of members) {
          for (const p of topic.assignment('g', member)) before.set(p, member);
        }
        if (members.has(consumer) && rand() < 0.6) {
          topic.leave('g', consumer);
          members.delete(consumer);
        } else if (!members.has(consumer)) {
          topic.join('g', consumer);
          members.add(consumer);
        } else {
          continue;
        }
        const sorted = [...members].sort();
        const now = assignments(topic, 'g', sorted);
        const where = `${numPartitions} partitions, ${JSON.stringify(now)} after ${JSON.stringify([...before])}`;
        if (sorted.length === 0) continue;
        // Every partition assigned exactly once.
        assert.deepEqual(Object.values(now).flat().sort((a, b) => a - b),
          Array.from({ length: numPartitions }, (_, p) => p), where);
        // Balanced: no two members differ by more than one partition.
        const sizes = Object.values(now).map((partitions) => partitions.length);
        assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, where);
        // As few moves as possible: as many kept as the best balanced assignment keeps.
        const kept = sorted.reduce((sum, member) =>
          sum + now[member].filter((p) => before.get(p) === member).length, 0);
        assert.equal(kept, bruteForceMostKept(numPartitions, sorted, before), where);
        checked += 1;
      }
    }
    assert.ok(checked > 150, `rebalances checked: ${checked}`);
  });
}

for (const assignor of ['roundrobin', ...STICKY]) {
  test(`${assignor}: every rebalance of larger groups is exactly SPEC.md's rule (as model.js states it)`, () => {
    const rand = random(60 + assignor.length);
    const ids = Array.from({ length: 15 }, (_, i) => `c${i}`);
    for (let round = 0; round < 20; round++) {
      const numPartitions = 1 + Math.floor(rand() * 60);
      const real = new Topic(numPartitions, { assignor });
      const model = new ModelTopic(numPartitions, { assignor });
      for (let step = 0; step < 40; step++) {
        const consumer = ids[Math.floor(rand() * ids.length)];
        const action = rand() < 0.6 ? 'join' : 'leave';
        real[action]('g', consumer);
        model[action]('g', consumer);
      }
      assert.deepEqual(real.rebalances('g'), model.rebalances('g'), `${numPartitions} partitions`);
    }
  });
}

// A topic with 4 partitions of 5 records each, A alone in the group having
// read everything without committing; then B joins.
function readAllThenJoin(assignor) {
  const topic = new Topic(4, { assignor });
  fillPartitions(topic, 4, 5);
  topic.join('g', 'A');
  assert.equal(topic.poll('g', 'A', 1000).length, 20);
  topic.join('g', 'B');
  return topic;
}

for (const assignor of EAGER) {
  test(`${assignor} is eager: every position restarts from the committed offset, kept partitions too`, () => {
    const topic = readAllThenJoin(assignor);
    const kept = topic.assignment('g', 'A');
    assert.equal(kept.length, 2);
    const replayed = topic.poll('g', 'A', 1000);
    // A replays all of its partitions from the committed offset 0.
    assert.deepEqual(replayed.map((r) => [r.partition, r.offset]),
      kept.flatMap((p) => [0, 1, 2, 3, 4].map((offset) => [p, offset])));
  });

  test(`${assignor} is eager: after a commit, a rebalance restarts from the committed offset`, () => {
    const topic = new Topic(2, { assignor });
    fillPartitions(topic, 2, 4);
    topic.join('g', 'A');
    topic.poll('g', 'A', 3); // partition 0, offsets 0..2
    topic.commit('g', 'A'); // committed: 0 -> 3, 1 -> 0
    topic.poll('g', 'A', 100); // the rest; not committed
    topic.join('g', 'B'); // A keeps partition 0 under every assignor
    assert.deepEqual(topic.assignment('g', 'A'), [0]);
    assert.deepEqual(topic.poll('g', 'A').map((r) => r.offset), [3]);
  });
}

test('cooperative-sticky: a member keeps its position on the partitions it keeps; moved ones restart', () => {
  const topic = readAllThenJoin('cooperative-sticky');
  assert.deepEqual(assignments(topic, 'g', ['A', 'B']), { A: [0, 1], B: [2, 3] });
  // A read everything before: nothing is replayed on the partitions it kept.
  assert.deepEqual(topic.poll('g', 'A', 1000), []);
  // B got the moved partitions and starts them from the committed offset 0.
  assert.deepEqual(topic.poll('g', 'B', 1000).map((r) => [r.partition, r.offset]),
    [2, 3].flatMap((p) => [0, 1, 2, 3, 4].map((offset) => [p, offset])));
});

test('cooperative-sticky: a moved partition restarts from the committed offset, not the old position', () => {
  const topic = new Topic(2, { assignor: 'cooperative-sticky' });
  fillPartitions(topic, 2, 6);
  topic.join('g', 'A');
  topic.poll('g', 'A', 8); // partition 0 all 6, partition 1 offsets 0..1
  topic.commit('g', 'A', { 1: 1 });
  topic.join('g', 'B'); // A keeps 0, B gets 1
  assert.deepEqual(assignments(topic, 'g', ['A', 'B']), { A: [0], B: [1] });
  assert.deepEqual(topic.poll('g', 'A'), []);
  assert.deepEqual(topic.poll('g', 'B').map((r) => r.offset), [1, 2, 3, 4, 5]);
  // B leaves: A gets partition 1 back, from the committed offset (1), and keeps 0.
  topic.leave('g', 'B');
  assert.deepEqual(topic.poll('g', 'A').map((r) => [r.partition, r.offset]),
    [1, 2, 3, 4, 5].map((offset) => [1, offset]));
});

test('replayed records after C leaves: range replays what every member had read, cooperative-sticky none', () => {
  const replayedAfterLeave = (assignor) => {
    const topic = new Topic(6, { assignor });
    fillPartitions(topic, 6, 3);
    for (const c of ['A', 'B', 'C']) topic.join('g', c);
    for (const c of ['A', 'B', 'C']) topic.poll('g', c, 1000); // read, not committed
    topic.leave('g', 'C');
    return ['A', 'B'].flatMap((c) => topic.poll('g', c, 1000)).length;
  };
  // Range: A and B restart all their partitions (and C's) from 0: 6 partitions x 3.
  assert.equal(replayedAfterLeave('range'), 18);
  // Cooperative: only C's two partitions move, and start from the committed 0.
  assert.equal(replayedAfterLeave('cooperative-sticky'), 6);
});
