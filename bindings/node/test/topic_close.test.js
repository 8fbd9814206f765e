// SPDX-License-Identifier: Apache-2.0
//
// Topic.close(): the engine's memory is freed at once, not when the garbage
// collector finalizes the object, and every later call says the Topic is closed.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Topic } = require('kgroups');

const closedError = (error) =>
  error.constructor === Error && /^Topic is closed: close\(\) freed/.test(error.message);

test('after close every method throws an Error saying the Topic is closed', () => {
  const topic = new Topic(2);
  topic.append('k', 'v');
  topic.join('g', 'A');
  topic.shareJoin('s', 'W');
  topic.close();
  const calls = {
    append: () => topic.append('k', 'v'),
    endOffset: () => topic.endOffset(0),
    join: () => topic.join('g', 'B'),
    leave: () => topic.leave('g', 'A'),
    assignment: () => topic.assignment('g', 'A'),
    poll: () => topic.poll('g', 'A'),
    commit: () => topic.commit('g', 'A'),
    committed: () => topic.committed('g', 0),
    lag: () => topic.lag('g'),
    rebalances: () => topic.rebalances('g'),
    shareJoin: () => topic.shareJoin('s', 'X'),
    shareLeave: () => topic.shareLeave('s', 'W'),
    shareAssignment: () => topic.shareAssignment('s', 'W'),
    sharePoll: () => topic.sharePoll('s', 'W'),
    acknowledge: () => topic.acknowledge('s', 'W', 'accept'),
    advanceClock: () => topic.advanceClock(1),
    clock: () => topic.clock(),
    shareStartOffset: () => topic.shareStartOffset('s', 0),
    sharePartitionState: () => topic.sharePartitionState('s', 0),
  };
  for (const [name, call] of Object.entries(calls)) assert.throws(call, closedError, name);
});

test('close is idempotent and Symbol.dispose closes too', () => {
  const topic = new Topic(1);
  topic.close();
  topic.close();
  assert.throws(() => topic.endOffset(0), closedError);
  if (typeof Symbol.dispose === 'symbol') {
    const disposed = new Topic(1);
    disposed[Symbol.dispose]();
    assert.throws(() => disposed.endOffset(0), closedError);
  }
});

test('records polled before close stay intact after it', () => {
  const topic = new Topic(1);
  topic.append('text-key', 'text-value');
  topic.append(Buffer.from('byte-key'), Buffer.from([0, 1, 2, 255]));
  topic.join('g', 'A');
  const records = topic.poll('g', 'A');
  topic.close();
  // A new topic reuses the freed memory: the records must not be views of it.
  const next = new Topic(1);
  for (let i = 0; i < 10000; i++) next.append(`other-${i}`, 'x'.repeat(100));
  assert.deepEqual(records.map((r) => [r.offset, r.key, r.value]), [
    [0, 'text-key', 'text-value'],
    [1, Buffer.from('byte-key'), Buffer.from([0, 1, 2, 255])],
  ]);
  next.close();
});

// Without close, code that never yields to the event loop keeps every Topic's records
// until the process ends (Node runs native finalizers only after a turn of the loop):
// here 12 topics of about 24 MiB each would add about 290 MiB.
test('topics closed in a loop reuse the same memory', () => {
  const value = Buffer.alloc(1000, 7);
  const fill = () => {
    const topic = new Topic(4);
    for (let i = 0; i < 24000; i++) topic.append(`key-${i}`, value);
    topic.close();
  };
  fill();
  const before = process.memoryUsage().rss;
  for (let round = 0; round < 12; round++) fill();
  const grownMiB = (process.memoryUsage().rss - before) / (1 << 20);
  assert.ok(grownMiB < 100, `resident memory grew by ${grownMiB.toFixed(0)} MiB over 12 closed topics`);
});
