// SPDX-License-Identifier: Apache-2.0
//
// The package from ESM: named and default imports give the same objects as
// require('kgroups').
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import kgroups, { Topic, NotAssignedError, NoOffsetError, NotAcquiredError, partitionFor } from 'kgroups';

const require = createRequire(import.meta.url);

test('import and require give the same Topic, partitionFor and error classes', () => {
  const cjs = require('kgroups');
  assert.equal(Topic, cjs.Topic);
  assert.equal(partitionFor, cjs.partitionFor);
  assert.equal(NotAssignedError, cjs.NotAssignedError);
  assert.equal(NoOffsetError, cjs.NoOffsetError);
  assert.equal(NotAcquiredError, cjs.NotAcquiredError);
  assert.equal(typeof NoOffsetError, 'function');
  assert.equal(typeof NotAcquiredError, 'function');
  assert.equal(kgroups, cjs);
});

test('the ESM API works end to end, NotAssignedError included', () => {
  const topic = new Topic(2);
  topic.join('g', 'A');
  topic.join('g', 'B');
  topic.append('k', 'v');
  assert.throws(() => topic.commit('g', 'A', { 1: 0 }), NotAssignedError);
  const records = [...topic.poll('g', 'A'), ...topic.poll('g', 'B')];
  assert.deepEqual(records, [{ partition: partitionFor('k', 2), offset: 0, key: 'k', value: 'v' }]);
});

test('the ESM API with options: NoOffsetError is thrown as the imported class', () => {
  const topic = new Topic(2, { autoOffsetReset: 'none' });
  topic.join('g', 'A');
  assert.throws(() => topic.poll('g', 'A'), (error) => error instanceof NoOffsetError && error.partitions.length === 2);
});

test('kgroups/broker: import and require give the same Broker and BrokerError', async () => {
  const esm = await import('kgroups/broker');
  const cjs = require('kgroups/broker');
  assert.equal(esm.Broker, cjs.Broker);
  assert.equal(esm.BrokerError, cjs.BrokerError);
  assert.equal(esm.kgroupsdArgs, cjs.kgroupsdArgs);
  assert.equal(esm.default, cjs);
  assert.equal(typeof esm.Broker.start, 'function');
});
