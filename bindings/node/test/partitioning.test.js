// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md "Partitioning" and "append"/"end_offset" through the JS API.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Topic, partitionFor } = require('kgroups');

// SPEC.md's reference hashes.
const REFERENCE_HASHES = { '': 2166136261, a: 3826002220, foobar: 3214735720 };

test('partitionFor is the FNV-1a reference hash modulo numPartitions', () => {
  for (const [key, hash] of Object.entries(REFERENCE_HASHES)) {
    for (const numPartitions of [1, 2, 6, 7, 1000, 65521, 2147483647]) {
      assert.equal(partitionFor(key, numPartitions), hash % numPartitions, `${key} / ${numPartitions}`);
    }
  }
});

test('partitionFor hashes a string by its UTF-8 bytes, the same as those bytes', () => {
  for (const key of ['é', '日本', '🙂', 'plain']) {
    const bytes = new TextEncoder().encode(key);
    for (const numPartitions of [3, 97, 2147483647]) {
      assert.equal(partitionFor(key, numPartitions), partitionFor(bytes, numPartitions));
      assert.equal(partitionFor(Buffer.from(key), numPartitions), partitionFor(key, numPartitions));
    }
  }
  assert.notEqual(partitionFor('é', 2147483647), partitionFor(Buffer.from('é', 'latin1'), 2147483647));
});

test('partitionFor with numPartitions < 1 is a RangeError', () => {
  assert.throws(() => partitionFor('a', 0), RangeError);
  assert.throws(() => partitionFor('a', -3), RangeError);
});

test('append writes to partitionFor(key) at endOffset and advances it by one', () => {
  const topic = new Topic(7);
  const keys = ['a', 'b', 'c', 'a', '', 'foobar', 'a', 'zz', 'b'];
  for (const key of keys) {
    const expectedPartition = partitionFor(key, 7);
    const before = topic.endOffset(expectedPartition);
    const result = topic.append(key, `value of ${key}`);
    assert.deepEqual(result, [expectedPartition, before]);
    assert.equal(topic.endOffset(expectedPartition), before + 1);
  }
});

test('offsets start at 0 and count up by one on each partition separately', () => {
  const topic = new Topic(4);
  const perPartition = [0, 0, 0, 0];
  for (let i = 0; i < 200; i++) {
    const [partition, offset] = topic.append(`key-${i}`, 'v');
    assert.equal(offset, perPartition[partition]);
    perPartition[partition] += 1;
  }
  assert.deepEqual([0, 1, 2, 3].map((p) => topic.endOffset(p)), perPartition);
  assert.ok(perPartition.every((count) => count > 0), 'all partitions used by 200 keys');
});

test('endOffset of an empty partition is 0', () => {
  const topic = new Topic(3);
  assert.deepEqual([0, 1, 2].map((p) => topic.endOffset(p)), [0, 0, 0]);
});

test("one key's records stay on one partition, in append order", () => {
  const topic = new Topic(5);
  topic.join('g', 'only');
  for (let i = 0; i < 20; i++) topic.append('same-key', `v${i}`);
  const records = topic.poll('g', 'only', 1000);
  assert.equal(records.length, 20);
  assert.ok(records.every((r) => r.partition === partitionFor('same-key', 5)));
  assert.deepEqual(records.map((r) => r.value), Array.from({ length: 20 }, (_, i) => `v${i}`));
  assert.deepEqual(records.map((r) => r.offset), Array.from({ length: 20 }, (_, i) => i));
});

test('a byte key lands where its bytes hash, whatever the value', () => {
  const topic = new Topic(9);
  const key = Uint8Array.of(0, 255, 7);
  const [partition] = topic.append(key, Uint8Array.of(1));
  assert.equal(partition, partitionFor(key, 9));
});
