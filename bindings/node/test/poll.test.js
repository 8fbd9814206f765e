// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md "Poll" through the JS API.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Topic, partitionFor } = require('kgroups');

// A key for each partition of an n-partition topic, found by trying.
function keysByPartition(numPartitions) {
  const keys = new Array(numPartitions);
  for (let i = 0; keys.includes(undefined) || keys.length < numPartitions; i++) {
    keys[partitionFor(`key${i}`, numPartitions)] ??= `key${i}`;
  }
  return keys;
}

test('poll takes partitions in ascending order, each in offset order', () => {
  const topic = new Topic(3);
  const keys = keysByPartition(3);
  // Append in a scrambled partition order.
  for (const [partition, value] of [[2, 'a'], [0, 'b'], [1, 'c'], [0, 'd'], [2, 'e']]) {
    topic.append(keys[partition], value);
  }
  topic.join('g', 'A');
  const records = topic.poll('g', 'A');
  assert.deepEqual(records.map((r) => [r.partition, r.offset, r.value]), [
    [0, 0, 'b'], [0, 1, 'd'], [1, 0, 'c'], [2, 0, 'a'], [2, 1, 'e'],
  ]);
});

test('poll reads only the consumer\'s own partitions', () => {
  const topic = new Topic(4);
  const keys = keysByPartition(4);
  keys.forEach((key, partition) => topic.append(key, `p${partition}`));
  topic.join('g', 'A');
  topic.join('g', 'B');
  assert.deepEqual(topic.poll('g', 'A').map((r) => r.value), ['p0', 'p1']);
  assert.deepEqual(topic.poll('g', 'B').map((r) => r.value), ['p2', 'p3']);
});

test('poll returns at most maxRecords and continues where it stopped', () => {
  const topic = new Topic(2);
  const keys = keysByPartition(2);
  for (let i = 0; i < 3; i++) topic.append(keys[0], `a${i}`);
  for (let i = 0; i < 3; i++) topic.append(keys[1], `b${i}`);
  topic.join('g', 'A');
  assert.deepEqual(topic.poll('g', 'A', 2).map((r) => r.value), ['a0', 'a1']);
  assert.deepEqual(topic.poll('g', 'A', 2).map((r) => r.value), ['a2', 'b0']);
  assert.deepEqual(topic.poll('g', 'A', 5).map((r) => r.value), ['b1', 'b2']);
  assert.deepEqual(topic.poll('g', 'A', 5), []);
});

test('maxRecords defaults to 100', () => {
  const topic = new Topic(1);
  for (let i = 0; i < 250; i++) topic.append('k', String(i));
  topic.join('g', 'A');
  assert.equal(topic.poll('g', 'A').length, 100);
  assert.equal(topic.poll('g', 'A', undefined).length, 100);
  assert.equal(topic.poll('g', 'A').length, 50);
});

test('maxRecords beyond the int range returns everything', () => {
  const topic = new Topic(1);
  for (let i = 0; i < 5; i++) topic.append('k', String(i));
  topic.join('g', 'A');
  assert.equal(topic.poll('g', 'A', 2 ** 40).length, 5);
});

test('maxRecords 0 returns [] and moves nothing', () => {
  const topic = new Topic(1);
  topic.append('k', 'v');
  topic.join('g', 'A');
  assert.deepEqual(topic.poll('g', 'A', 0), []);
  assert.deepEqual(topic.poll('g', 'A').map((r) => r.value), ['v']);
});

test('a negative maxRecords is a RangeError, even for an idle consumer', () => {
  const topic = new Topic(1);
  topic.join('g', 'A');
  topic.join('g', 'B'); // idle
  assert.throws(() => topic.poll('g', 'A', -1), RangeError);
  assert.throws(() => topic.poll('g', 'B', -1), RangeError);
  assert.throws(() => topic.poll('nobody', 'nobody', -1), RangeError);
});

test('idle consumers, non-members and unknown groups get []', () => {
  const topic = new Topic(1);
  topic.append('k', 'v');
  topic.join('g', 'A');
  topic.join('g', 'B');
  assert.deepEqual(topic.poll('g', 'B'), []);
  assert.deepEqual(topic.poll('g', 'stranger'), []);
  assert.deepEqual(topic.poll('no such group', 'A'), []);
});

test('records appended after a poll are returned by later polls', () => {
  const topic = new Topic(1);
  topic.join('g', 'A');
  assert.deepEqual(topic.poll('g', 'A'), []);
  topic.append('k', 'late');
  assert.deepEqual(topic.poll('g', 'A').map((r) => [r.offset, r.value]), [[0, 'late']]);
  topic.append('k', 'later');
  assert.deepEqual(topic.poll('g', 'A').map((r) => [r.offset, r.value]), [[1, 'later']]);
});

test('poll commits nothing', () => {
  const topic = new Topic(1);
  topic.append('k', 'v');
  topic.join('g', 'A');
  assert.equal(topic.poll('g', 'A').length, 1);
  assert.equal(topic.committed('g', 0), 0);
  topic.leave('g', 'A');
  topic.join('g', 'A');
  assert.equal(topic.poll('g', 'A').length, 1, 'redelivered: nothing was committed');
});

test('records are plain objects with exactly partition, offset, key, value', () => {
  const topic = new Topic(3);
  topic.append('key', 'value');
  topic.join('g', 'A');
  const [record] = topic.poll('g', 'A');
  assert.equal(Object.getPrototypeOf(record), Object.prototype);
  assert.deepEqual(Object.keys(record).sort(), ['key', 'offset', 'partition', 'value']);
  assert.deepEqual(record, { partition: partitionFor('key', 3), offset: 0, key: 'key', value: 'value' });
});

test('each consumer has its own positions; a position is not shared across the group', () => {
  const topic = new Topic(2);
  const keys = keysByPartition(2);
  topic.append(keys[0], 'x');
  topic.join('g', 'A');
  topic.join('h', 'A');
  assert.equal(topic.poll('g', 'A').length, 1);
  assert.equal(topic.poll('h', 'A').length, 1);
  assert.equal(topic.poll('g', 'A').length, 0);
});

test('a large batch comes back complete and in order, text and bytes mixed', () => {
  const topic = new Topic(3);
  const count = 30000; // more elements than the addon hands over in one Node-API call
  for (let i = 0; i < count; i++) {
    const key = `key-${i % 97}`;
    topic.append(i % 3 === 0 ? Buffer.from(key) : key, i % 2 === 0 ? `value-${i}` : Uint8Array.of(i % 256, 7));
  }
  topic.join('g', 'A');
  const records = topic.poll('g', 'A', count + 5);
  assert.equal(records.length, count);
  const seen = new Set();
  for (let i = 0; i < records.length; i++) {
    const { partition, offset, key, value } = records[i];
    if (i > 0) {
      const previous = records[i - 1];
      assert.ok(partition > previous.partition || (partition === previous.partition && offset === previous.offset + 1));
    }
    const text = typeof value === 'string' ? value : null;
    seen.add(text ?? `${value[0]},${value[1]}`);
    assert.equal(partitionFor(key, 3), partition);
  }
  assert.equal([0, 1, 2].reduce((sum, p) => sum + topic.endOffset(p), 0), count);
  assert.ok(seen.has('value-0') && seen.has(`value-${count - 2}`) && seen.has('1,7'));
});
