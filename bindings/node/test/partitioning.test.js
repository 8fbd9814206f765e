// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md "Partitioning", "append"/"end_offset" and the "murmur2" partitioner
// (SPEC.md "Options") through the JS API.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Topic, partitionFor } = require('kgroups');
const { murmur2, fnv1a32 } = require('./model.js');
const { random } = require('./seeded_random.js');

// Kafka's murmur2 as the Java int it returns, from Kafka's own tests
// (clients/.../common/utils/UtilsTest.java, testMurmur2), plus a byte key whose
// value was computed with the Java client (as published by kafkautil).
const KAFKA_MURMUR2 = [
  ['21', -973932308],
  ['foobar', -790332482],
  ['a-little-bit-long-string', -985981536],
  ['a-little-bit-longer-string', -1486304829],
  ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
  ['abc', 479470107],
  [Uint8Array.of(12, 42, 56, 24, 109, 111), 274204207],
];
const PARTITION_COUNTS = [1, 2, 3, 6, 7, 10, 1000, 65521, 2147483647];


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

test("the test's pure-JS murmur2 reproduces Kafka's reference values", () => {
  for (const [key, hash] of KAFKA_MURMUR2) {
    assert.equal(murmur2(typeof key === 'string' ? Buffer.from(key) : key), hash, String(key));
  }
});

test("partitionFor(key, n, 'murmur2') is Kafka's murmur2 & 0x7fffffff modulo n", () => {
  for (const [key, hash] of KAFKA_MURMUR2) {
    for (const numPartitions of PARTITION_COUNTS) {
      assert.equal(partitionFor(key, numPartitions, 'murmur2'), (hash & 0x7fffffff) % numPartitions,
        `${key} / ${numPartitions}`);
    }
  }
  // SPEC.md's example.
  assert.equal(partitionFor('foobar', 6, 'murmur2'), (-790332482 & 0x7fffffff) % 6);
  assert.equal(partitionFor('foobar', 6, 'murmur2'), 0);
});

test('murmur2 agrees with the pure-JS reference on random keys of every tail length', () => {
  const rand = random(14);
  for (let i = 0; i < 3000; i++) {
    const length = i < 100 ? i % 20 : Math.floor(rand() * 70);
    const bytes = Uint8Array.from({ length }, () => Math.floor(rand() * 256));
    const numPartitions = 1 + Math.floor(rand() * 2147483647);
    const expected = (murmur2(bytes) & 0x7fffffff) % numPartitions;
    assert.equal(partitionFor(bytes, numPartitions, 'murmur2'), expected, `${bytes} / ${numPartitions}`);
    // High bytes (>= 0x80) are unsigned, as Kafka's & 0xff makes them.
    const text = Buffer.from(bytes).toString('latin1');
    assert.equal(partitionFor(text, 2147483647, 'murmur2'),
      (murmur2(Buffer.from(text, 'utf8')) & 0x7fffffff) % 2147483647);
  }
});

test('murmur2 hashes a string by its UTF-8 bytes, the same as those bytes', () => {
  for (const key of ['', 'é', '日本', '🙂', 'plain', 'x'.repeat(301)]) {
    const bytes = new TextEncoder().encode(key);
    assert.equal(partitionFor(key, 2147483647, 'murmur2'), partitionFor(bytes, 2147483647, 'murmur2'));
    assert.equal(partitionFor(key, 2147483647, 'murmur2'), (murmur2(bytes) & 0x7fffffff) % 2147483647);
  }
});

test("partitionFor's partitioner defaults to fnv1a: undefined and 'fnv1a' give the FNV-1a partition", () => {
  for (const key of ['', 'a', 'foobar', Uint8Array.of(1, 2, 3)]) {
    const bytes = typeof key === 'string' ? Buffer.from(key) : key;
    for (const numPartitions of PARTITION_COUNTS) {
      const expected = fnv1a32(bytes) % numPartitions;
      assert.equal(partitionFor(key, numPartitions), expected);
      assert.equal(partitionFor(key, numPartitions, undefined), expected);
      assert.equal(partitionFor(key, numPartitions, 'fnv1a'), expected);
    }
  }
});

test('partitionFor: a partitioner that is not a string is a TypeError, an unknown one a RangeError', () => {
  for (const bad of [null, 5, true, {}, ['murmur2'], Symbol('s'), 1n, new String('murmur2')]) {
    assert.throws(() => partitionFor('k', 3, bad), { name: 'TypeError', message: /partitionFor: partitioner must be a string/ });
  }
  for (const bad of ['', 'murmur', 'MURMUR2', 'crc32', 'murmur2 ']) {
    assert.throws(() => partitionFor('k', 3, bad), (error) =>
      error instanceof RangeError && /fnv1a/.test(error.message) && /murmur2/.test(error.message));
  }
  assert.throws(() => partitionFor('k', 3, 'fnv1a\u0000'), RangeError);
  // Types first: a bad key or count type wins; then the count, then the partitioner.
  assert.throws(() => partitionFor(5, 3, 'nope'), TypeError);
  assert.throws(() => partitionFor('k', '3', 'nope'), TypeError);
  assert.throws(() => partitionFor('k', 0, 5), TypeError);
  assert.throws(() => partitionFor('k', 0, 'murmur2'), RangeError);
  assert.throws(() => partitionFor('k', 2.5, 'murmur2'), RangeError);
});

test("a murmur2 topic appends each record to partitionFor(key, n, 'murmur2')", () => {
  const topic = new Topic(7, { partitioner: 'murmur2' });
  const keys = ['a', 'b', 'foobar', '21', '', Uint8Array.of(12, 42, 56, 24, 109, 111), 'a', '🙂'];
  let differs = false;
  for (const key of keys) {
    const expected = partitionFor(key, 7, 'murmur2');
    differs ||= expected !== partitionFor(key, 7);
    const before = topic.endOffset(expected);
    assert.deepEqual(topic.append(key, 'v'), [expected, before]);
  }
  assert.ok(differs, 'some key lands elsewhere under FNV-1a, or the test proves nothing');
});
