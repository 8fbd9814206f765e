// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md "Errors" and "Validation order" through the JS API: which wrong
// argument is a TypeError, which a RangeError, what comes first, and that a
// throwing call changes nothing.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Topic, NotAssignedError, partitionFor } = require('kgroups');
const { snapshot } = require('./topic_state.js');

const NOT_STRINGS = [undefined, null, 1, true, {}, [], Buffer.from('g'), Symbol('s'), 1n];
const NOT_NUMBERS = [undefined, null, '1', true, {}, [], 1n, Symbol('s')];
const NOT_SAFE_INTEGERS = [2.5, -0.5, NaN, Infinity, -Infinity, 2 ** 53, -(2 ** 53), 1e300];
const NOT_KEYS = [undefined, null, 1, true, {}, [1], new Int8Array(2), new Uint16Array(2),
  new Uint8ClampedArray(2), new ArrayBuffer(2), new DataView(new ArrayBuffer(2)), 1n, Symbol('s')];

// A 3-partition topic where A owns everything in group g, with records.
function setUp() {
  const topic = new Topic(3);
  for (let i = 0; i < 12; i++) topic.append(`k${i}`, `v${i}`);
  topic.join('g', 'A');
  return topic;
}

function assertUnchangedAfter(topic, fn, errorClass) {
  const before = snapshot(topic, 3, ['g'], ['A']);
  assert.throws(fn, errorClass);
  assert.deepEqual(snapshot(topic, 3, ['g'], ['A']), before);
}

test('the constructor: TypeError for a non-number, RangeError below 1 or not a safe integer', () => {
  for (const bad of NOT_NUMBERS) assert.throws(() => new Topic(bad), TypeError, String(bad?.toString?.()));
  for (const bad of NOT_SAFE_INTEGERS) assert.throws(() => new Topic(bad), RangeError, String(bad));
  for (const bad of [0, -1, -(2 ** 40)]) assert.throws(() => new Topic(bad), RangeError);
  assert.throws(() => Topic(3), TypeError);
});

test('group names and consumer ids must be strings (TypeError) in every method', () => {
  const topic = setUp();
  for (const bad of NOT_STRINGS) {
    for (const call of [
      () => topic.join(bad, 'A'), () => topic.join('g', bad),
      () => topic.leave(bad, 'A'), () => topic.leave('g', bad),
      () => topic.assignment(bad, 'A'), () => topic.assignment('g', bad),
      () => topic.poll(bad, 'A'), () => topic.poll('g', bad),
      () => topic.commit(bad, 'A'), () => topic.commit('g', bad),
      () => topic.committed(bad, 0),
    ]) {
      assertUnchangedAfter(topic, call, TypeError);
    }
  }
});

test('keys and values must be strings or Uint8Arrays (TypeError, telling to serialize)', () => {
  const topic = setUp();
  for (const bad of NOT_KEYS) {
    assertUnchangedAfter(topic, () => topic.append(bad, 'v'), TypeError);
    assertUnchangedAfter(topic, () => topic.append('k', bad), TypeError);
    assert.throws(() => partitionFor(bad, 3), TypeError);
  }
  assert.throws(() => topic.append({ a: 1 }, 'v'), /serialize/);
});

test('partitions and counts must be numbers (TypeError) and safe integers (RangeError)', () => {
  const topic = setUp();
  for (const bad of NOT_NUMBERS) {
    assert.throws(() => topic.endOffset(bad), TypeError);
    assert.throws(() => topic.committed('g', bad), TypeError);
    assert.throws(() => partitionFor('k', bad), TypeError);
    if (bad !== undefined) assertUnchangedAfter(topic, () => topic.poll('g', 'A', bad), TypeError);
  }
  for (const bad of NOT_SAFE_INTEGERS) {
    assert.throws(() => topic.endOffset(bad), RangeError);
    assert.throws(() => topic.committed('g', bad), RangeError);
    assert.throws(() => partitionFor('k', bad), RangeError);
    assertUnchangedAfter(topic, () => topic.poll('g', 'A', bad), RangeError);
  }
});

test('a partition out of range in endOffset or committed is a RangeError', () => {
  const topic = setUp();
  for (const bad of [-1, 3, 99, 2 ** 31, -(2 ** 31) - 1, 2 ** 52]) {
    assert.throws(() => topic.endOffset(bad), RangeError, String(bad));
    assert.throws(() => topic.committed('g', bad), RangeError, String(bad));
  }
});

test('offsets must be a plain object: an array, a Map or a non-object is a TypeError', () => {
  const topic = setUp();
  class Offsets { constructor() { this[0] = 1; } }
  for (const bad of [[1, 2], [], new Map([[0, 1]]), new Set([0]), 'x', '{"0":1}', 5, true, 1n,
    () => 1, new Offsets(), new Date(0), Symbol('s')]) {
    assertUnchangedAfter(topic, () => topic.commit('g', 'A', bad), TypeError);
  }
});

test('offset values must be numbers (TypeError) that are safe integers (RangeError)', () => {
  const topic = setUp();
  for (const bad of ['1', null, undefined, true, [1], {}, 1n]) {
    assertUnchangedAfter(topic, () => topic.commit('g', 'A', { 0: bad }), TypeError);
  }
  for (const bad of NOT_SAFE_INTEGERS) {
    assertUnchangedAfter(topic, () => topic.commit('g', 'A', { 0: bad }), RangeError);
  }
});

test('an offsets key that is not the decimal form of an integer is a RangeError', () => {
  const topic = setUp();
  for (const key of ['x', '1.5', '01', '-0', '1e3', ' 1', '1 ', '', '+1', '0x1', 'NaN', 'Infinity']) {
    assertUnchangedAfter(topic, () => topic.commit('g', 'A', { [key]: 0 }), RangeError);
  }
});

test('validation order: types first, then ranges, then assignment, then offsets', () => {
  const topic = setUp();
  // A wrong type wins over a range problem elsewhere in the same call.
  assert.throws(() => topic.poll(1, 'A', -1), TypeError);
  assert.throws(() => topic.poll('g', 'A', '-1'), TypeError);
  assert.throws(() => topic.committed(5, 99), TypeError);
  assert.throws(() => topic.commit('g', 'A', { x: 'y' }), TypeError);
  assert.throws(() => topic.commit('g', 'A', { 0: 2.5, 1: '2' }), TypeError);
  assert.throws(() => topic.commit(1, 'A', { x: 1 }), TypeError);
  assert.throws(() => partitionFor(5, 0), TypeError);
  // A range problem of an argument wins over state: idle or unknown is no excuse.
  assert.throws(() => topic.committed('unknown', 99), RangeError);
  assert.throws(() => topic.poll('unknown', 'nobody', -1), RangeError);
  // Commit: a malformed key before assignment; assignment before offset ranges.
  assert.throws(() => topic.commit('g', 'stranger', { x: 0 }), RangeError);
  assert.throws(() => topic.commit('g', 'stranger', { 0: 2.5 }), RangeError);
  assert.throws(() => topic.commit('g', 'stranger', { 0: 999 }), NotAssignedError);
  assert.throws(() => topic.commit('g', 'A', { 0: 999, 7: 0 }), NotAssignedError);
});

test('NotAssignedError is an Error subclass with a name, a message and the partition', () => {
  const topic = setUp();
  topic.join('g', 'B'); // A [0, 1], B [2]
  let caught;
  try {
    topic.commit('g', 'A', { 2: 1 });
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof NotAssignedError);
  assert.ok(caught instanceof Error);
  assert.equal(caught.name, 'NotAssignedError');
  assert.equal(caught.partition, 2);
  assert.match(caught.message, /2/);
  assert.match(caught.message, /"A"/);
  assert.match(String(caught.stack), /NotAssignedError/);
  assert.ok(!(caught instanceof RangeError) && !(caught instanceof TypeError));
});

test('error messages say which call and which argument was wrong', () => {
  const topic = setUp();
  assert.throws(() => topic.poll('g', 7), { name: 'TypeError', message: /poll: consumerId must be a string, got number/ });
  assert.throws(() => topic.poll('g', 'A', 1.5), { name: 'RangeError', message: /maxRecords.*safe integer.*1\.5/ });
  assert.throws(() => topic.commit('g', 'A', new Map()), { name: 'TypeError', message: /offsets.*plain object.*Map/ });
  assert.throws(() => topic.commit('g', 'A', { x: 1 }), { name: 'RangeError', message: /"x"/ });
  assert.throws(() => topic.endOffset(3), { name: 'RangeError', message: /3/ });
  assert.throws(() => new Topic(0), { name: 'RangeError', message: /0/ });
});

test('a failing append changes nothing: no offset is used up', () => {
  const topic = setUp();
  const partition = partitionFor('k', 3);
  const end = topic.endOffset(partition);
  assert.throws(() => topic.append('k', 42), TypeError);
  assert.deepEqual(topic.append('k', 'v'), [partition, end]);
});

test('NotAssignedError is recognized in a worker thread too (each thread loads the addon)', async () => {
  const { Worker } = require('node:worker_threads');
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     const { Topic, NotAssignedError } = require('kgroups');
     const topic = new Topic(2);
     topic.join('g', 'A');
     topic.join('g', 'B');
     let recognized = false;
     try { topic.commit('g', 'A', { 1: 0 }); } catch (error) { recognized = error instanceof NotAssignedError; }
     parentPort.postMessage({ recognized, assignment: topic.assignment('g', 'B') });`,
    { eval: true },
  );
  const message = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  assert.deepEqual(message, { recognized: true, assignment: [1] });
});
