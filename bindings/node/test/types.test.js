// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md "Bindings" (JavaScript): strings and Uint8Arrays round-trip as their
// own kind, numbers are plain numbers, the engine keeps copies.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Topic } = require('kgroups');

// A one-partition topic holding the given [key, value] pairs, polled by one consumer.
function roundTrip(pairs) {
  const topic = new Topic(1);
  for (const [key, value] of pairs) topic.append(key, value);
  topic.join('g', 'A');
  return topic.poll('g', 'A', 1000);
}

test('a string key and value come back as strings', () => {
  const [record] = roundTrip([['key', 'value']]);
  assert.equal(typeof record.key, 'string');
  assert.equal(record.key, 'key');
  assert.equal(record.value, 'value');
});

test('Uint8Array and Buffer keys and values come back as Uint8Arrays with the same bytes', () => {
  const records = roundTrip([
    [Uint8Array.of(0, 1, 255), Buffer.from('buffer value')],
    [Buffer.from([7]), new Uint8Array(0)],
  ]);
  for (const record of records) {
    assert.ok(record.key instanceof Uint8Array);
    assert.ok(record.value instanceof Uint8Array);
  }
  assert.deepEqual([...records[0].key], [0, 1, 255]);
  assert.equal(Buffer.from(records[0].value).toString(), 'buffer value');
  assert.deepEqual([...records[1].key], [7]);
  assert.equal(records[1].value.length, 0);
});

test('key and value kinds are independent: a string key with a byte value and back', () => {
  const records = roundTrip([['text key', Uint8Array.of(9)], [Uint8Array.of(8), 'text value']]);
  assert.equal(typeof records[0].key, 'string');
  assert.ok(records[0].value instanceof Uint8Array);
  assert.ok(records[1].key instanceof Uint8Array);
  assert.equal(typeof records[1].value, 'string');
});

test('text is UTF-8: non-ASCII, astral and long strings round-trip exactly', () => {
  const long = 'ü🙂x'.repeat(5000);
  const texts = ['', 'é', '日本語', '🙂 emoji', 'nul\u0000inside', long, 'a'.repeat(251), 'é'.repeat(126)];
  const records = roundTrip(texts.map((text) => [text, text]));
  assert.deepEqual(records.map((r) => r.key), texts);
  assert.deepEqual(records.map((r) => r.value), texts);
});

test('a lone surrogate, which has no UTF-8 form, comes back as U+FFFD', () => {
  const [record] = roundTrip([['\uD800', 'x\uDC00y']]);
  assert.equal(record.key, '\uFFFD');
  assert.equal(record.value, 'x\uFFFDy');
});

test('a Uint8Array view appends only its own bytes', () => {
  const whole = Uint8Array.of(1, 2, 3, 4, 5, 6);
  const [record] = roundTrip([[whole.subarray(2, 4), Buffer.from(whole.buffer, 1, 2)]]);
  assert.deepEqual([...record.key], [3, 4]);
  assert.deepEqual([...record.value], [2, 3]);
});

test('the topic copies appended bytes: changing the buffer later changes nothing', () => {
  const topic = new Topic(1);
  const value = Uint8Array.of(1, 2, 3);
  topic.append('k', value);
  value[0] = 99;
  topic.join('g', 'A');
  const [first] = topic.poll('g', 'A');
  assert.deepEqual([...first.value], [1, 2, 3]);
  // Changing a polled record's bytes does not change the topic either.
  first.value[1] = 77;
  topic.join('g', 'B'); // rebalance: positions back to committed 0
  assert.deepEqual(topic.assignment('g', 'A'), [0]);
  assert.deepEqual([...topic.poll('g', 'A')[0].value], [1, 2, 3]);
});

test('append returns [partition, offset] as an array of two plain numbers', () => {
  const topic = new Topic(4);
  const result = topic.append('k', 'v');
  assert.ok(Array.isArray(result));
  assert.equal(result.length, 2);
  assert.ok(result.every((n) => typeof n === 'number' && Number.isSafeInteger(n)));
});

test('partitions, offsets, assignments and committed offsets are plain numbers', () => {
  const topic = new Topic(2);
  topic.append('a', 'v');
  topic.join('g', 'A');
  const [record] = topic.poll('g', 'A');
  assert.equal(typeof record.partition, 'number');
  assert.equal(typeof record.offset, 'number');
  assert.ok(topic.assignment('g', 'A').every((p) => typeof p === 'number'));
  topic.commit('g', 'A');
  assert.equal(typeof topic.committed('g', record.partition), 'number');
  assert.equal(typeof topic.endOffset(record.partition), 'number');
});

test('group names and consumer ids are compared by their UTF-8 bytes', () => {
  // Two different lone surrogates have the same UTF-8 form (U+FFFD): one member.
  const topic = new Topic(2);
  topic.join('g', '\uD800');
  topic.join('g', '\uDBFF');
  assert.deepEqual(topic.assignment('g', '\uFFFD'), [0, 1]);
  // Precomposed and decomposed é differ in bytes: two members.
  topic.join('h', '\u00E9');
  topic.join('h', 'e\u0301');
  assert.deepEqual(topic.assignment('h', 'e\u0301'), [0]);
  assert.deepEqual(topic.assignment('h', '\u00E9'), [1]);
});

test('Topic instances are independent', () => {
  const one = new Topic(1);
  const two = new Topic(1);
  one.append('k', 'v');
  assert.equal(one.endOffset(0), 1);
  assert.equal(two.endOffset(0), 0);
});
