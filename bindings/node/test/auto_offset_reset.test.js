// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md "auto_offset_reset" (JS autoOffsetReset) through the JS API: where a
// group starts on a partition it has never committed, and NoOffsetError.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Topic, NoOffsetError, NotAssignedError } = require('kgroups');
const { snapshot } = require('./topic_state.js');
const { appendTo } = require('./append_to_partition.js');


const offsetsOf = (records) => records.map((r) => [r.partition, r.offset]);

// Catches what fn throws (or fails the test if it throws nothing).
function thrownBy(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  assert.fail('expected an error');
}

test('earliest (the default): a group with no commit starts at offset 0', () => {
  for (const options of [undefined, { autoOffsetReset: 'earliest' }]) {
    const topic = new Topic(1, options);
    appendTo(topic, 1, 0, 3);
    topic.join('g', 'A');
    assert.deepEqual(offsetsOf(topic.poll('g', 'A')), [[0, 0], [0, 1], [0, 2]]);
  }
});

test('latest: a partition with no commit starts at its end offset when it is assigned', () => {
  const topic = new Topic(2, { autoOffsetReset: 'latest' });
  appendTo(topic, 2, 0, 3);
  appendTo(topic, 2, 1, 2);
  topic.join('g', 'A');
  assert.deepEqual(topic.poll('g', 'A'), []);
  appendTo(topic, 2, 1, 1);
  appendTo(topic, 2, 0, 1);
  // Only what was appended after the join: partition 0 offset 3, partition 1 offset 2.
  assert.deepEqual(offsetsOf(topic.poll('g', 'A')), [[0, 3], [1, 2]]);
  // committed() still says 0 for partitions never committed.
  assert.deepEqual([topic.committed('g', 0), topic.committed('g', 1)], [0, 0]);
});

test('latest: the end offset is taken again at each eager rebalance', () => {
  const topic = new Topic(2, { autoOffsetReset: 'latest' });
  topic.join('g', 'A'); // positions 0, 0
  appendTo(topic, 2, 0, 2);
  topic.join('g', 'B'); // A keeps partition 0, assigned again: position = end offset 2
  assert.deepEqual(topic.assignment('g', 'A'), [0]);
  assert.deepEqual(topic.poll('g', 'A'), []);
  appendTo(topic, 2, 0, 1);
  assert.deepEqual(offsetsOf(topic.poll('g', 'A')), [[0, 2]]);
});

test('latest under cooperative-sticky: a kept partition keeps its position, a moved one starts at the end', () => {
  const topic = new Topic(2, { assignor: 'cooperative-sticky', autoOffsetReset: 'latest' });
  topic.join('g', 'A'); // positions 0, 0
  appendTo(topic, 2, 0, 2);
  appendTo(topic, 2, 1, 3);
  topic.join('g', 'B'); // A keeps 0 at position 0; B gets 1 at its end offset 3
  assert.deepEqual(offsetsOf(topic.poll('g', 'A')), [[0, 0], [0, 1]]);
  assert.deepEqual(topic.poll('g', 'B'), []);
});

test('a committed partition starts from the committed offset under every policy, even offset 0', () => {
  for (const autoOffsetReset of ['earliest', 'latest', 'none']) {
    const topic = new Topic(1, { autoOffsetReset });
    appendTo(topic, 1, 0, 4);
    topic.join('g', 'A');
    topic.commit('g', 'A', { 0: 0 });
    topic.join('g', 'B'); // rebalance: A keeps partition 0, from the committed 0
    assert.deepEqual(topic.assignment('g', 'A'), [0]);
    assert.deepEqual(offsetsOf(topic.poll('g', 'A')), [[0, 0], [0, 1], [0, 2], [0, 3]], autoOffsetReset);
    topic.commit('g', 'A', { 0: 3 });
    topic.leave('g', 'B');
    assert.deepEqual(offsetsOf(topic.poll('g', 'A')), [[0, 3]], autoOffsetReset);
  }
});

test('none: poll throws NoOffsetError naming the partitions with no committed offset', () => {
  const topic = new Topic(3, { autoOffsetReset: 'none' });
  for (let p = 0; p < 3; p++) appendTo(topic, 3, p, 2);
  topic.join('g', 'A');
  const error = thrownBy(() => topic.poll('g', 'A'));
  assert.ok(error instanceof NoOffsetError);
  assert.ok(error instanceof Error);
  assert.ok(!(error instanceof RangeError) && !(error instanceof TypeError) && !(error instanceof NotAssignedError));
  assert.equal(error.name, 'NoOffsetError');
  assert.deepEqual(error.partitions, [0, 1, 2]);
  assert.ok(Array.isArray(error.partitions) && error.partitions.every((p) => typeof p === 'number'));
  assert.match(String(error.stack), /NoOffsetError/);
  // Once the group commits some of them, only the others are named.
  topic.commit('g', 'A', { 1: 1 });
  assert.deepEqual(thrownBy(() => topic.poll('g', 'A')).partitions, [0, 2]);
});

test("none: NoOffsetError's message names the partitions, the consumer and the option in its JS spelling", () => {
  const topic = new Topic(3, { autoOffsetReset: 'none' });
  topic.join('g', 'A');
  topic.commit('g', 'A', { 1: 0 });
  const { message } = thrownBy(() => topic.poll('g', 'A'));
  assert.match(message, /0, 2/);
  assert.match(message, /"A"/);
  assert.match(message, /autoOffsetReset/);
  assert.doesNotMatch(message, /auto_offset_reset/);
});

test('none: a failing poll changes nothing; after commits it reads from the committed offsets', () => {
  const topic = new Topic(2, { autoOffsetReset: 'none' });
  appendTo(topic, 2, 0, 3);
  appendTo(topic, 2, 1, 3);
  topic.join('g', 'A');
  topic.commit('g', 'A', { 0: 1 });
  const before = snapshot(topic, 2, ['g'], ['A']);
  assert.throws(() => topic.poll('g', 'A'), NoOffsetError);
  assert.deepEqual(snapshot(topic, 2, ['g'], ['A']), before);
  assert.deepEqual(topic.lag('g'), { 0: 2, 1: 3 });
  // Nothing moved: partition 0 is read from the committed offset as given later.
  topic.commit('g', 'A', { 0: 2, 1: 0 });
  assert.deepEqual(offsetsOf(topic.poll('g', 'A')), [[0, 2], [1, 0], [1, 1], [1, 2]]);
});

test('none: the committed offset is looked up at poll, and then the position moves on from it', () => {
  const topic = new Topic(1, { autoOffsetReset: 'none' });
  appendTo(topic, 1, 0, 5);
  topic.join('g', 'A');
  topic.commit('g', 'A', { 0: 2 });
  assert.deepEqual(offsetsOf(topic.poll('g', 'A', 2)), [[0, 2], [0, 3]]);
  // From here the position is A's own: a later commit does not move it.
  topic.commit('g', 'A', { 0: 0 });
  assert.deepEqual(offsetsOf(topic.poll('g', 'A')), [[0, 4]]);
  topic.commit('g', 'A');
  assert.equal(topic.committed('g', 0), 5);
});

test("none: a member that gets a partition another member committed reads from that commit", () => {
  const topic = new Topic(2, { autoOffsetReset: 'none' });
  appendTo(topic, 2, 1, 4);
  topic.join('g', 'A');
  topic.join('g', 'B'); // A [0], B [1]
  topic.commit('g', 'B', { 1: 3 });
  topic.leave('g', 'B'); // A [0, 1]: 1 from B's commit, 0 still without an offset
  assert.deepEqual(thrownBy(() => topic.poll('g', 'A')).partitions, [0]);
  topic.commit('g', 'A', { 0: 0 });
  assert.deepEqual(offsetsOf(topic.poll('g', 'A')), [[1, 3]]);
});

test('none: commit without offsets skips partitions without a position and commits nothing for them', () => {
  const topic = new Topic(2, { assignor: 'cooperative-sticky', autoOffsetReset: 'none' });
  appendTo(topic, 2, 0, 3);
  appendTo(topic, 2, 1, 3);
  topic.join('g', 'A');
  topic.commit('g', 'A'); // no positions at all: commits nothing
  assert.deepEqual([topic.committed('g', 0), topic.committed('g', 1)], [0, 0]);
  assert.deepEqual(thrownBy(() => topic.poll('g', 'A')).partitions, [0, 1]);
  topic.join('g', 'B'); // A [0], B [1]
  topic.commit('g', 'A', { 0: 0 });
  assert.equal(topic.poll('g', 'A', 2).length, 2); // A's position on 0 is now 2
  topic.leave('g', 'B'); // A keeps 0 at position 2 and gets 1, which has no offset
  topic.commit('g', 'A');
  assert.deepEqual([topic.committed('g', 0), topic.committed('g', 1)], [2, 0]);
  // Partition 1 still has no committed offset: the commit skipped it.
  assert.deepEqual(thrownBy(() => topic.poll('g', 'A')).partitions, [1]);
});

test('none: maxRecords 0 returns [] without checking; a negative maxRecords is a RangeError first', () => {
  const topic = new Topic(1, { autoOffsetReset: 'none' });
  appendTo(topic, 1, 0, 1);
  topic.join('g', 'A');
  assert.deepEqual(topic.poll('g', 'A', 0), []);
  assert.throws(() => topic.poll('g', 'A', -1), RangeError);
  assert.throws(() => topic.poll('g', 'A', 2.5), RangeError);
  assert.throws(() => topic.poll('g', 'A', '1'), TypeError);
  assert.throws(() => topic.poll('g', 'A', 1), NoOffsetError);
});

test('none: a consumer with no partitions polls [] without an error', () => {
  const topic = new Topic(1, { autoOffsetReset: 'none' });
  topic.join('g', 'A');
  topic.join('g', 'B'); // B idle
  assert.deepEqual(topic.poll('g', 'B'), []);
  assert.deepEqual(topic.poll('g', 'nobody'), []);
  assert.deepEqual(topic.poll('unknown', 'A'), []);
});

test('none under cooperative-sticky: a kept partition keeps its position; a moved one needs a commit', () => {
  const topic = new Topic(2, { assignor: 'cooperative-sticky', autoOffsetReset: 'none' });
  appendTo(topic, 2, 0, 3);
  appendTo(topic, 2, 1, 3);
  topic.join('g', 'A');
  topic.commit('g', 'A', { 0: 0, 1: 1 });
  topic.poll('g', 'A', 2); // partition 0: offsets 0, 1 -> position 2
  topic.join('g', 'B'); // A keeps 0 (position 2), B gets 1 from the committed 1
  assert.deepEqual(offsetsOf(topic.poll('g', 'A')), [[0, 2]]);
  assert.deepEqual(offsetsOf(topic.poll('g', 'B')), [[1, 1], [1, 2]]);
});

test('NoOffsetError can be made and checked like any Error subclass', () => {
  const error = new NoOffsetError('poll: no offset', [3, 4]);
  assert.ok(error instanceof Error);
  assert.equal(error.name, 'NoOffsetError');
  assert.equal(error.message, 'poll: no offset');
  assert.deepEqual(error.partitions, [3, 4]);
  assert.deepEqual(new NoOffsetError('m').partitions, []);
});

test('NoOffsetError is recognized in a worker thread too (each thread loads the addon)', async () => {
  const { Worker } = require('node:worker_threads');
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     const { Topic, NoOffsetError } = require('kgroups');
     const topic = new Topic(2, { autoOffsetReset: 'none' });
     topic.join('g', 'A');
     let result;
     try { topic.poll('g', 'A'); } catch (error) {
       result = { recognized: error instanceof NoOffsetError, partitions: error.partitions };
     }
     parentPort.postMessage(result);`,
    { eval: true },
  );
  const message = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  assert.deepEqual(message, { recognized: true, partitions: [0, 1] });
});
