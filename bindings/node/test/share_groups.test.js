// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md "Share groups" (SG1..SG15) through the JavaScript API: one test per rule, named
// after it, as tests/spec/share_groups_test.cc does in C++; and the binding's own
// conventions: camelCase names and options, strings and Uint8Arrays, the acknowledgement
// types as strings, NotAcquiredError.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Topic, NotAcquiredError, NotAssignedError } = require('kgroups');
const { appendTo } = require('./append_to_partition.js');

// A topic whose share groups start at offset 0, with `records` records on each partition.
function shareTopic(numPartitions = 1, records = 0, options = {}) {
  const topic = new Topic(numPartitions, { shareAutoOffsetReset: 'earliest', ...options });
  for (let p = 0; p < numPartitions; p++) appendTo(topic, numPartitions, p, records);
  return topic;
}

const positions = (records) => records.map((r) => [r.partition, r.offset]);

// All a share group shows without changing it.
function everything(topic, numPartitions, groups = ['q'], members = ['A', 'B', 'C']) {
  const partitions = [...Array(numPartitions).keys()];
  return {
    ends: partitions.map((p) => topic.endOffset(p)),
    assignments: groups.flatMap((g) => members.map((m) => topic.shareAssignment(g, m))),
    states: groups.flatMap((g) => partitions.map((p) => topic.sharePartitionState(g, p))),
    clock: topic.clock(),
  };
}

test('SG1: share and consumer group names are one namespace', () => {
  const topic = new Topic(2);
  topic.join('billing', 'A');
  assert.throws(() => topic.shareJoin('billing', 'A'), { name: 'RangeError', message: /billing/ });
  assert.deepEqual(topic.shareAssignment('billing', 'A'), []);
  topic.shareJoin('queue', 'A');
  assert.throws(() => topic.join('queue', 'B'), RangeError);
  assert.deepEqual(topic.assignment('queue', 'B'), []);
});

test("SG2: the simple share assignor shares partitions (SPEC.md's example)", () => {
  const topic = new Topic(6);
  topic.shareJoin('q', 'A');
  assert.deepEqual(topic.shareAssignment('q', 'A'), [0, 1, 2, 3, 4, 5]);
  topic.shareJoin('q', 'B');
  assert.deepEqual(topic.shareAssignment('q', 'A'), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(topic.shareAssignment('q', 'B'), [0]);
  topic.shareJoin('q', 'B');
  assert.deepEqual(topic.shareAssignment('q', 'B'), [0]);
  topic.shareLeave('q', 'A');
  assert.deepEqual(topic.shareAssignment('q', 'B'), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(topic.shareAssignment('q', 'A'), []);
  assert.deepEqual(topic.shareAssignment('unknown', 'B'), []);
  topic.shareLeave('q', 'nobody');
});

test('SG3: latest by default: records appended before are never delivered', () => {
  const topic = new Topic(1);
  appendTo(topic, 1, 0, 3);
  assert.equal(topic.shareStartOffset('q', 0), 3);
  topic.shareJoin('q', 'A');
  assert.deepEqual(topic.sharePoll('q', 'A'), []);
  topic.append('late', 'v');
  assert.deepEqual(positions(topic.sharePoll('q', 'A')), [[0, 3]]);
});

test('SG3: earliest starts at offset 0', () => {
  const topic = shareTopic(1, 3);
  assert.equal(topic.shareStartOffset('q', 0), 0);
  topic.shareJoin('q', 'A');
  assert.deepEqual(positions(topic.sharePoll('q', 'A')), [[0, 0], [0, 1], [0, 2]]);
  assert.throws(() => topic.shareStartOffset('q', 1), RangeError);
});

test('SG4: sharePoll acquires records with deliveryCount 1 and locks them', () => {
  const topic = shareTopic(2, 3);
  topic.shareJoin('q', 'A');
  const records = topic.sharePoll('q', 'A', 4);
  assert.deepEqual(positions(records), [[0, 0], [0, 1], [0, 2], [1, 0]]);
  for (const record of records) {
    assert.deepEqual(Object.keys(record), ['partition', 'offset', 'key', 'value', 'deliveryCount']);
    assert.equal(record.deliveryCount, 1);
  }
  assert.equal(typeof records[0].key, 'string');
  assert.deepEqual(topic.sharePartitionState('q', 0), {
    startOffset: 0, endOffset: 3, available: 0, acquired: 3, acknowledged: 0, archived: 0,
    deliveries: 3, redeliveries: 0,
  });
  assert.deepEqual(topic.sharePoll('q', 'A', 0), []);
  assert.deepEqual(positions(topic.sharePoll('q', 'A')), [[1, 1], [1, 2]]);
  assert.deepEqual(topic.sharePoll('q', 'A'), []);
  assert.equal(topic.committed('q', 0), 0);
});

test('SG4: bytes come back as Uint8Arrays', () => {
  const topic = shareTopic(1);
  topic.shareJoin('q', 'A');
  topic.append(Uint8Array.of(0, 107), Uint8Array.of(255));
  const [record] = topic.sharePoll('q', 'A');
  assert.ok(record.key instanceof Uint8Array && record.value instanceof Uint8Array);
  assert.deepEqual([...record.key, ...record.value], [0, 107, 255]);
});

test('SG4: errors: maxRecords first, then membership; wrong types are TypeErrors', () => {
  const topic = shareTopic(1, 2);
  assert.throws(() => topic.sharePoll('q', 'A', -1), { name: 'RangeError', message: /max_records/ });
  assert.throws(() => topic.sharePoll('q', 'A'), { name: 'RangeError', message: /not/ });
  topic.shareJoin('q', 'A');
  assert.throws(() => topic.sharePoll('q', 'A', 1.5), RangeError);
  assert.throws(() => topic.sharePoll('q', 'A', '1'), TypeError);
  assert.throws(() => topic.sharePoll(1, 'A'), TypeError);
  assert.throws(() => topic.shareJoin('q', Buffer.from('B')), TypeError);
  assert.equal(topic.sharePoll('q', 'A', 2 ** 40).length, 2);
});

test('SG5: two members on one partition never get the same record', () => {
  const topic = shareTopic(1, 10);
  topic.shareJoin('q', 'A');
  topic.shareJoin('q', 'B');
  assert.deepEqual(topic.shareAssignment('q', 'B'), [0]);
  const a = topic.sharePoll('q', 'A', 4);
  const b = topic.sharePoll('q', 'B');
  assert.deepEqual(a.map((r) => r.offset), [0, 1, 2, 3]);
  assert.deepEqual(b.map((r) => r.offset), [4, 5, 6, 7, 8, 9]);
  assert.deepEqual(topic.sharePoll('q', 'A'), []);
  assert.deepEqual(topic.sharePoll('q', 'B'), []);
});

test('SG6: release redelivers with a higher deliveryCount, to any member', () => {
  const topic = shareTopic(1, 3);
  topic.shareJoin('q', 'A');
  topic.shareJoin('q', 'B');
  topic.sharePoll('q', 'A');
  topic.acknowledge('q', 'A', [[0, 1]], 'release');
  const again = topic.sharePoll('q', 'B');
  assert.deepEqual(again.map((r) => [r.offset, r.deliveryCount]), [[1, 2]]);
  assert.equal(topic.sharePartitionState('q', 0).redeliveries, 1);
});

test('SG6: accept and reject are never delivered again', () => {
  const topic = shareTopic(1, 3, { recordLockDurationMs: 10 });
  topic.shareJoin('q', 'A');
  topic.sharePoll('q', 'A');
  topic.acknowledge('q', 'A', [[0, 0]], 'accept');
  topic.acknowledge('q', 'A', [[0, 1]], 'reject');
  topic.advanceClock(10);
  assert.deepEqual(positions(topic.sharePoll('q', 'A')), [[0, 2]]);
  topic.acknowledge('q', 'A', 'reject');
  topic.advanceClock(1000);
  assert.deepEqual(topic.sharePoll('q', 'A'), []);
  assert.equal(topic.shareStartOffset('q', 0), 3);
});

test('SG6: the type is a string: "accept", "release" or "reject"', () => {
  const topic = shareTopic(1, 2);
  topic.shareJoin('q', 'A');
  topic.sharePoll('q', 'A');
  const before = everything(topic, 1);
  for (const bad of ['gap', 'ACCEPT', '', 'ack']) {
    assert.throws(() => topic.acknowledge('q', 'A', [[0, 0]], bad), { name: 'RangeError', message: /"accept"/ });
    assert.throws(() => topic.acknowledge('q', 'A', bad), RangeError);
  }
  for (const bad of [1, null, undefined, Buffer.from('accept')]) {
    assert.throws(() => topic.acknowledge('q', 'A', [[0, 0]], bad), TypeError);
  }
  assert.throws(() => topic.acknowledge('q', 'A'), TypeError);
  assert.throws(() => topic.acknowledge('q', 'A', [[0, 0]]), TypeError);
  for (const bad of ['x', 5, [[0]], [[0, '1']], [[0, 1, 2]], { 0: 1 }, [null], new Map([[0, 1]])]) {
    assert.throws(() => topic.acknowledge('q', 'A', bad, 'accept'), TypeError);
  }
  assert.throws(() => topic.acknowledge('q', 'A', [[0, 0.5]], 'accept'), RangeError);
  assert.deepEqual(everything(topic, 1), before);
});

test('SG7: NotAcquiredError names the record and changes nothing', () => {
  const topic = shareTopic(1, 4);
  topic.shareJoin('q', 'A');
  topic.shareJoin('q', 'B');
  topic.sharePoll('q', 'A', 2);
  topic.sharePoll('q', 'B', 1);
  const before = everything(topic, 1);
  const cases = [
    [[[0, 0], [0, 2]], 0, 2], // 2 is B's
    [[[0, 3]], 0, 3], // never acquired
    [[[0, 1], [5, 0]], 5, 0], // outside the topic
    [[[2 ** 40, 0]], 2 ** 40, 0], // beyond a C++ int
    [[[0, 0], [0, -1]], 0, -1],
  ];
  for (const [records, partition, offset] of cases) {
    assert.throws(() => topic.acknowledge('q', 'A', records, 'accept'), (error) => {
      assert.ok(error instanceof NotAcquiredError && error instanceof Error);
      assert.equal(error.name, 'NotAcquiredError');
      assert.deepEqual([error.partition, error.offset], [partition, offset]);
      assert.match(error.message, new RegExp(`partition ${partition} offset ${offset}`));
      return true;
    });
    assert.deepEqual(everything(topic, 1), before);
  }
  assert.throws(() => topic.acknowledge('q', 'nobody', [[0, 0]], 'accept'), NotAcquiredError);
  topic.acknowledge('q', 'A', [], 'reject');
  assert.deepEqual(everything(topic, 1), before);
  topic.acknowledge('q', 'A', [[0, 0], [0, 0]], 'accept'); // named twice: once
  assert.throws(() => topic.acknowledge('q', 'A', [[0, 0]], 'accept'), NotAcquiredError);
});

test('SG7: NotAcquiredError is its own class, exported like NotAssignedError', () => {
  const error = new NotAcquiredError('mine', 1, 2);
  assert.ok(error instanceof Error);
  assert.ok(!(error instanceof NotAssignedError) && !(error instanceof RangeError));
  assert.deepEqual([error.name, error.message, error.partition, error.offset], ['NotAcquiredError', 'mine', 1, 2]);
});

test('SG8: implicit acknowledgement covers every record the member holds', () => {
  const topic = shareTopic(2, 2);
  topic.shareJoin('q', 'A');
  topic.shareJoin('q', 'B');
  const held = topic.sharePoll('q', 'A');
  topic.acknowledge('q', 'A', 'accept');
  assert.equal(topic.shareStartOffset('q', 0) + topic.shareStartOffset('q', 1), held.length);
  topic.acknowledge('q', 'A', 'accept');
  topic.acknowledge('q', 'nobody', 'release');
  topic.acknowledge('unknown', 'A', null, 'reject');
  topic.acknowledge('unknown', 'A', undefined, 'reject');
});

test("SG9: locks expire on the topic's clock and the record is redelivered", () => {
  const topic = shareTopic(1, 2, { recordLockDurationMs: 1000 });
  assert.equal(topic.clock(), 0);
  topic.shareJoin('q', 'A');
  topic.shareJoin('q', 'B');
  topic.sharePoll('q', 'A');
  topic.advanceClock(999);
  assert.deepEqual(topic.sharePoll('q', 'B'), []);
  topic.advanceClock(1);
  assert.equal(topic.clock(), 1000);
  assert.throws(() => topic.acknowledge('q', 'A', [[0, 0]], 'accept'), NotAcquiredError);
  assert.deepEqual(topic.sharePoll('q', 'B').map((r) => [r.offset, r.deliveryCount]), [[0, 2], [1, 2]]);
});

test('SG9: advanceClock refuses negative, unsafe and unkeepable times', () => {
  const topic = shareTopic(1, 0, { recordLockDurationMs: 1000 });
  assert.throws(() => topic.advanceClock(-1), RangeError);
  assert.throws(() => topic.advanceClock(1.5), RangeError);
  assert.throws(() => topic.advanceClock(2 ** 53), RangeError);
  assert.throws(() => topic.advanceClock('1'), TypeError);
  assert.equal(topic.clock(), 0);
  topic.advanceClock(2 ** 53 - 1);
  assert.equal(topic.clock(), 2 ** 53 - 1);
});

test('SG10: shareLeave releases only what the member held', () => {
  const topic = shareTopic(1, 4);
  topic.shareJoin('q', 'A');
  topic.shareJoin('q', 'B');
  topic.sharePoll('q', 'A', 3);
  topic.acknowledge('q', 'A', [[0, 0]], 'accept');
  topic.shareLeave('q', 'A');
  assert.deepEqual(topic.sharePoll('q', 'B').map((r) => [r.offset, r.deliveryCount]), [[1, 2], [2, 2], [3, 1]]);
});

test('SG11: the delivery count limit archives a poison record', () => {
  const topic = shareTopic(1, 1, { deliveryCountLimit: 2 });
  topic.shareJoin('q', 'A');
  for (const count of [1, 2]) {
    const [record] = topic.sharePoll('q', 'A');
    assert.equal(record.deliveryCount, count);
    topic.acknowledge('q', 'A', 'release');
  }
  assert.deepEqual(topic.sharePoll('q', 'A'), []);
  assert.equal(topic.shareStartOffset('q', 0), 1);
});

test('SG12: the start offset moves past leading done records only', () => {
  const topic = shareTopic(1, 4);
  topic.shareJoin('q', 'A');
  topic.sharePoll('q', 'A');
  topic.acknowledge('q', 'A', [[0, 1], [0, 2]], 'accept');
  const state = topic.sharePartitionState('q', 0);
  assert.deepEqual([state.startOffset, state.acquired, state.acknowledged], [0, 2, 2]);
  topic.acknowledge('q', 'A', [[0, 0]], 'reject');
  assert.equal(topic.shareStartOffset('q', 0), 3);
  topic.acknowledge('q', 'A', [[0, 3]], 'accept');
  assert.deepEqual(topic.sharePartitionState('q', 0), {
    startOffset: 4, endOffset: 4, available: 0, acquired: 0, acknowledged: 0, archived: 0,
    deliveries: 4, redeliveries: 0,
  });
});

test('SG13: at most partitionMaxRecordLocks records in flight', () => {
  const topic = shareTopic(1, 150, { partitionMaxRecordLocks: 100 });
  topic.shareJoin('q', 'A');
  assert.equal(topic.sharePoll('q', 'A', 1000).length, 100);
  assert.deepEqual(topic.sharePoll('q', 'A', 1000), []);
  topic.acknowledge('q', 'A', [...Array(10).keys()].map((o) => [0, o]), 'accept');
  assert.equal(topic.sharePoll('q', 'A', 1000).length, 10);
});

test('SG14: the share options, in camelCase, with their ranges', () => {
  new Topic(1, { shareAutoOffsetReset: 'latest', recordLockDurationMs: 1, deliveryCountLimit: 10,
    partitionMaxRecordLocks: 10000 });
  const cases = [
    [{ shareAutoOffsetReset: 'none' }, /shareAutoOffsetReset/],
    [{ recordLockDurationMs: 0 }, /recordLockDurationMs must be at least 1, got 0/],
    [{ deliveryCountLimit: 1 }, /deliveryCountLimit must be in 2\.\.10, got 1/],
    [{ deliveryCountLimit: 11 }, /deliveryCountLimit/],
    [{ deliveryCountLimit: 2 ** 40 }, /deliveryCountLimit/],
    [{ partitionMaxRecordLocks: 99 }, /partitionMaxRecordLocks/],
    [{ recordLockDurationMs: 2.5 }, /recordLockDurationMs/],
  ];
  for (const [options, message] of cases) {
    assert.throws(() => new Topic(1, options), { name: 'RangeError', message }, JSON.stringify(options));
  }
  for (const options of [{ shareAutoOffsetReset: 1 }, { recordLockDurationMs: '5' }, { deliveryCountLimit: true }]) {
    assert.throws(() => new Topic(1, options), TypeError);
  }
  assert.throws(() => new Topic(1, { delivery_count_limit: 3 }), { name: 'TypeError', message: /spelled deliveryCountLimit/ });
  assert.throws(() => new Topic(1, { share_auto_offset_reset: 'earliest' }), { message: /spelled shareAutoOffsetReset/ });
  assert.throws(() => new Topic(1, { partitioner: 'x', deliveryCountLimit: 1 }), { message: /partitioner/ });
});

test('SG15: a failing call changes nothing', () => {
  const topic = shareTopic(2, 3);
  topic.shareJoin('q', 'A');
  topic.sharePoll('q', 'A', 2);
  const before = everything(topic, 2);
  const calls = [
    () => topic.sharePoll('q', 'A', -1),
    () => topic.sharePoll('q', 'B'),
    () => topic.acknowledge('q', 'A', [[0, 0], [1, 0]], 'accept'),
    () => topic.acknowledge('q', 'A', [[0, 0]], 'gap'),
    () => topic.advanceClock(-5),
    () => topic.sharePartitionState('q', 2),
    () => topic.shareStartOffset('q', -1),
  ];
  for (const call of calls) {
    assert.throws(call);
    assert.deepEqual(everything(topic, 2), before);
  }
});

test('results are plain numbers, arrays and objects', () => {
  const topic = shareTopic(1, 1);
  topic.shareJoin('q', 'A');
  assert.equal(topic.shareJoin('q', 'B'), undefined);
  assert.ok(Array.isArray(topic.shareAssignment('q', 'A')));
  assert.ok(Array.isArray(topic.sharePoll('q', 'A')));
  assert.equal(topic.acknowledge('q', 'A', 'accept'), undefined);
  assert.equal(topic.advanceClock(0), undefined);
  assert.equal(typeof topic.clock(), 'number');
  const state = topic.sharePartitionState('q', 0);
  assert.equal(Object.getPrototypeOf(state), Object.prototype);
  assert.ok(Object.values(state).every((v) => typeof v === 'number'));
});
