// SPDX-License-Identifier: Apache-2.0
//
// Text keys and values through poll's table of recent strings
// (src/poll_strings.h): text polled again reuses the string handed out before,
// which must never change what a record holds, whatever the mix of repeated,
// unique, long, empty, non-ASCII or byte keys and values, and however far a
// batch, or a run of batches, goes past the table's bound (1,024 distinct
// contents per kind, after which it starts afresh).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Topic } = require('kgroups');

// Appends [key, value] pairs to a 1-partition topic and polls them all back
// in one batch.
function roundTrip(pairs) {
  const topic = new Topic(1);
  for (const [key, value] of pairs) topic.append(key, value);
  topic.join('g', 'A');
  return topic.poll('g', 'A', pairs.length + 1);
}

function assertSameRecords(records, pairs) {
  assert.equal(records.length, pairs.length);
  records.forEach((record, offset) => {
    assert.equal(record.offset, offset);
    assert.deepEqual([record.key, record.value], pairs[offset], `record ${offset}`);
  });
}

test('repeated text comes back as equal strings in every record', () => {
  const pairs = [];
  for (let i = 0; i < 300; i++) pairs.push([`k${i % 7}`, `value ${i % 5}`]);
  assertSameRecords(roundTrip(pairs), pairs);
});

test('non-ASCII, empty and look-alike texts are told apart', () => {
  const texts = ['', 'a', 'é', 'e\u0301', '€', '😀', 'ab', 'ba', 'abcdefgh', 'abcdefgi',
    'x'.repeat(31), 'x'.repeat(32), 'x'.repeat(33), 'ß'.repeat(40), `${'y'.repeat(40)}z`,
    `${'y'.repeat(40)}\u00e9`, '\u0000', '\u0000\u0000', 'Ā', '\u0100'.repeat(9)];
  const pairs = [];
  for (let round = 0; round < 3; round++) {
    texts.forEach((text, i) => pairs.push([text, texts[(i + round) % texts.length]]));
  }
  assertSameRecords(roundTrip(pairs), pairs);
});

test('lone surrogates come back as U+FFFD (UTF-8 text), the same in every record', () => {
  const records = roundTrip([['\ud800', 'a\udc00b'], ['\ud800', 'a\udc00b'], ['\ufffd', 'a\ufffdb']]);
  for (const record of records) assert.deepEqual([record.key, record.value], ['\ufffd', 'a\ufffdb']);
});

test('a batch with more distinct texts than the table holds returns them all', () => {
  const pairs = [];
  for (let i = 0; i < 2000; i++) pairs.push([`key-${i % 1500}`, `value-${i}`]);
  assertSameRecords(roundTrip(pairs), pairs);
});

test('long values (beyond the looked-up size) and unique values stay correct', () => {
  const long = (i) => `${i}:${'L'.repeat(3000)}`;
  const pairs = [];
  for (let i = 0; i < 200; i++) pairs.push([`k${i % 3}`, i % 2 ? long(i % 4) : `unique ${i}`]);
  assertSameRecords(roundTrip(pairs), pairs);
});

test('look-alike texts that differ only between the hashed words are told apart', () => {
  // The table hashes a few 8-byte words of a text (poll_strings.h): these
  // differ in one byte at positions it does not sample, so they share a hash.
  const lookAlike = (i, size, positions) => {
    const chars = Array.from({ length: size }, () => 'x');
    chars[positions[i % positions.length]] = String.fromCharCode(65 + Math.floor(i / positions.length));
    return chars.join('');
  };
  const pairs = [];
  for (let round = 0; round < 4; round++) {
    for (let i = 0; i < 60; i++) {
      pairs.push([lookAlike(i, 40, [8, 9, 30, 31]), lookAlike((i + round) % 60, 100, [9, 10, 11])]);
    }
  }
  assertSameRecords(roundTrip(pairs), pairs);
});

test('text and bytes of the same content stay their own kind', () => {
  const pairs = [];
  for (let i = 0; i < 50; i++) {
    pairs.push(i % 2 ? ['same', Buffer.from('same')] : [Buffer.from('same'), 'same']);
  }
  const records = roundTrip(pairs);
  assertSameRecords(records, pairs);
  records.forEach((record, i) => {
    assert.equal(typeof record.key, i % 2 ? 'string' : 'object');
    assert.equal(typeof record.value, i % 2 ? 'object' : 'string');
  });
});

test('strings of one batch are not handed out for another batch\'s different text', () => {
  const topic = new Topic(1);
  topic.append('k', 'first');
  topic.append('k', 'second');
  topic.join('g', 'A');
  assert.deepEqual(topic.poll('g', 'A', 1).map((r) => r.value), ['first']);
  assert.deepEqual(topic.poll('g', 'A', 1).map((r) => r.value), ['second']);
});

test('text repeated across batches and topics comes back right as the table fills and restarts', () => {
  const topics = [new Topic(2), new Topic(2)];
  const expected = [[], []];
  for (let i = 0; i < 6000; i++) {
    const t = i % 2;
    // Values cycle through 1300 contents (more than one table holds), keys through 40.
    const pair = [`key-${(i * 7) % 40}`, `value-${(i * 13) % 1300}-${t}`];
    const [partition] = topics[t].append(...pair);
    expected[t].push([partition, ...pair]);
  }
  topics.forEach((topic, t) => {
    topic.join('g', 'A');
    const got = [];
    for (let records; (records = topic.poll('g', 'A', 37)).length > 0;) {
      for (const r of records) got.push([r.partition, r.key, r.value]);
    }
    const sortByPartition = (rows) => [0, 1].flatMap((p) => rows.filter((row) => row[0] === p));
    assert.deepEqual(got, sortByPartition(expected[t]));
  });
});

test('two groups polling the same records see the same text', () => {
  const topic = new Topic(1);
  for (let i = 0; i < 300; i++) topic.append(`k${i % 9}`, `v${i % 600}`);
  topic.join('a', 'A');
  topic.join('b', 'B');
  const a = topic.poll('a', 'A', 1000).map((r) => r.value);
  const b = [];
  for (let records; (records = topic.poll('b', 'B', 7)).length > 0;) b.push(...records.map((r) => r.value));
  assert.deepEqual(b, a);
  assert.deepEqual(a, Array.from({ length: 300 }, (_, i) => `v${i}`));
});
