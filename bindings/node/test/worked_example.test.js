// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md "A worked example", step by step through the JS API.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Topic, NotAssignedError, partitionFor } = require('kgroups');

test('the worked example of SPEC.md', () => {
  const t = new Topic(6);
  t.join('billing', 'A');
  t.join('billing', 'B');
  t.join('billing', 'C');
  assert.deepEqual(t.assignment('billing', 'A'), [0, 1]);
  assert.deepEqual(t.assignment('billing', 'B'), [2, 3]);
  assert.deepEqual(t.assignment('billing', 'C'), [4, 5]);

  // Append 10 records under various keys; remember where each went.
  const appended = [];
  for (let i = 0; i < 10; i++) {
    const key = `customer-${i}`;
    const [partition, offset] = t.append(key, `invoice ${i}`);
    assert.equal(partition, partitionFor(key, 6));
    appended.push({ partition, offset, key, value: `invoice ${i}` });
  }
  const on = (partitions) =>
    appended
      .filter((r) => partitions.includes(r.partition))
      .sort((a, b) => a.partition - b.partition || a.offset - b.offset);

  // A's records, partition 0 first, then 1.
  const batch = t.poll('billing', 'A');
  assert.deepEqual(batch, on([0, 1]));
  assert.ok(batch.length > 0, 'the keys put records on A\'s partitions');

  // committed(billing, 0/1) = A's positions.
  t.commit('billing', 'A');
  assert.equal(t.committed('billing', 0), t.endOffset(0));
  assert.equal(t.committed('billing', 1), t.endOffset(1));
  assert.equal(t.committed('billing', 2), 0);

  // B crashes: A [0, 1, 2], C [3, 4, 5].
  t.leave('billing', 'B');
  assert.deepEqual(t.assignment('billing', 'A'), [0, 1, 2]);
  assert.deepEqual(t.assignment('billing', 'C'), [3, 4, 5]);

  // Partition 2 from billing's committed offset (0): partitions 0 and 1 were
  // committed at their ends, so only partition 2's records come.
  assert.deepEqual(t.poll('billing', 'A'), on([2]));

  // 2 belongs to A now.
  assert.throws(() => t.commit('billing', 'C', { 2: 1 }), NotAssignedError);
  assert.equal(t.committed('billing', 2), 0);

  // analytics reads everything from offset 0.
  t.join('analytics', 'X');
  assert.deepEqual(t.assignment('analytics', 'X'), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(t.poll('analytics', 'X'), on([0, 1, 2, 3, 4, 5]));
});
