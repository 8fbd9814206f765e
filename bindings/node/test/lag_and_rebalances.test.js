// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md "lag(group) and rebalances(group)" through the JS API: lag as a plain
// object keyed by partition, the rebalance history as plain arrays and objects
// with exactly SPEC's keys, eager and cooperative revoked/assigned lists, and
// the bound of 1,000 kept rebalances.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Topic } = require('kgroups');
const { appendTo } = require('./append_to_partition.js');


const member = (id, assignment, revoked, assigned) => ({ id, assignment, revoked, assigned });

test('lag of a group that never existed is the end offset of every partition', () => {
  const topic = new Topic(3);
  appendTo(topic, 3, 0, 4);
  appendTo(topic, 3, 2, 1);
  assert.deepEqual(topic.lag('nobody'), { 0: 4, 1: 0, 2: 1 });
});

test('lag is endOffset - committed for every partition, and follows commits and appends', () => {
  const topic = new Topic(2);
  appendTo(topic, 2, 0, 5);
  appendTo(topic, 2, 1, 3);
  topic.join('g', 'A');
  topic.commit('g', 'A', { 0: 2 });
  assert.deepEqual(topic.lag('g'), { 0: 3, 1: 3 });
  topic.poll('g', 'A', 100); // polling does not commit: no change
  assert.deepEqual(topic.lag('g'), { 0: 3, 1: 3 });
  topic.commit('g', 'A');
  assert.deepEqual(topic.lag('g'), { 0: 0, 1: 0 });
  appendTo(topic, 2, 1, 2);
  assert.deepEqual(topic.lag('g'), { 0: 0, 1: 2 });
  // Other groups have their own.
  assert.deepEqual(topic.lag('other'), { 0: 5, 1: 5 });
});

test('lag is a plain object keyed by partition number, with plain number values', () => {
  const topic = new Topic(12);
  const lag = topic.lag('g');
  assert.equal(Object.getPrototypeOf(lag), Object.prototype);
  assert.deepEqual(Object.keys(lag), Array.from({ length: 12 }, (_, p) => String(p)));
  assert.ok(Object.values(lag).every((value) => typeof value === 'number' && value === 0));
  assert.notEqual(topic.lag('g'), lag, 'a new object each call');
});

test('lag under latest and none: the group has committed nothing, so lag is the end offset', () => {
  for (const autoOffsetReset of ['latest', 'none']) {
    const topic = new Topic(1, { autoOffsetReset });
    appendTo(topic, 1, 0, 3);
    topic.join('g', 'A');
    assert.deepEqual(topic.lag('g'), { 0: 3 });
  }
});

test('lag and rebalances: a group that is not a string is a TypeError', () => {
  const topic = new Topic(1);
  for (const bad of [undefined, null, 1, {}, [], Buffer.from('g'), 1n]) {
    assert.throws(() => topic.lag(bad), { name: 'TypeError', message: /lag: group must be a string/ });
    assert.throws(() => topic.rebalances(bad), { name: 'TypeError', message: /rebalances: group must be a string/ });
  }
});

test('rebalances of a group that never existed is []', () => {
  const topic = new Topic(3);
  assert.deepEqual(topic.rebalances('g'), []);
  topic.leave('g', 'A'); // not a member: no rebalance, no group
  assert.deepEqual(topic.rebalances('g'), []);
});

test('eager (range) history: generations, causes, members sorted by id, revoked everything, assigned everything', () => {
  const topic = new Topic(4);
  topic.join('g', 'B');
  topic.join('g', 'A');
  topic.join('g', 'A'); // already a member: no rebalance
  topic.leave('g', 'C'); // not a member: no rebalance
  topic.leave('g', 'B');
  assert.deepEqual(topic.rebalances('g'), [
    { generation: 1, cause: 'join', consumer: 'B', members: [member('B', [0, 1, 2, 3], [], [0, 1, 2, 3])] },
    {
      generation: 2, cause: 'join', consumer: 'A', members: [
        member('A', [0, 1], [], [0, 1]),
        member('B', [2, 3], [0, 1, 2, 3], [2, 3]),
      ],
    },
    { generation: 3, cause: 'leave', consumer: 'B', members: [member('A', [0, 1, 2, 3], [0, 1], [0, 1, 2, 3])] },
  ]);
});

test('cooperative-sticky history: members revoke only what moves away and are assigned only what is new', () => {
  const topic = new Topic(6, { assignor: 'cooperative-sticky' });
  for (const c of ['A', 'B', 'C']) topic.join('g', c);
  topic.leave('g', 'B');
  assert.deepEqual(topic.rebalances('g'), [
    { generation: 1, cause: 'join', consumer: 'A', members: [member('A', [0, 1, 2, 3, 4, 5], [], [0, 1, 2, 3, 4, 5])] },
    {
      generation: 2, cause: 'join', consumer: 'B', members: [
        member('A', [0, 1, 2], [3, 4, 5], []),
        member('B', [3, 4, 5], [], [3, 4, 5]),
      ],
    },
    {
      generation: 3, cause: 'join', consumer: 'C', members: [
        member('A', [0, 1], [2], []),
        member('B', [3, 4], [5], []),
        member('C', [2, 5], [], [2, 5]),
      ],
    },
    {
      generation: 4, cause: 'leave', consumer: 'B', members: [
        member('A', [0, 1, 3], [], [3]),
        member('C', [2, 4, 5], [], [4]),
      ],
    },
  ]);
});

test('eager sticky history: the same assignments, but every member revokes and is assigned all', () => {
  const topic = new Topic(6, { assignor: 'sticky' });
  for (const c of ['A', 'B', 'C']) topic.join('g', c);
  const [, , third] = topic.rebalances('g');
  assert.deepEqual(third.members, [
    member('A', [0, 1], [0, 1, 2], [0, 1]),
    member('B', [3, 4], [3, 4, 5], [3, 4]),
    member('C', [2, 5], [], [2, 5]),
  ]);
});

test('the last member leaving makes a generation with no members; the group keeps counting', () => {
  const topic = new Topic(2);
  topic.join('g', 'A');
  topic.leave('g', 'A');
  topic.join('g', 'A');
  assert.deepEqual(topic.rebalances('g').map(({ generation, cause, members }) => [generation, cause, members.length]),
    [[1, 'join', 1], [2, 'leave', 0], [3, 'join', 1]]);
});

test('ids are sorted by UTF-8 bytes and come back as the strings joined', () => {
  const topic = new Topic(2);
  topic.join('g', '\uFFFF');
  topic.join('g', '\u{10000}');
  topic.join('g', 'é');
  const last = topic.rebalances('g').at(-1);
  assert.deepEqual(last.members.map((m) => m.id), ['é', '\uFFFF', '\u{10000}']);
  assert.equal(last.consumer, 'é');
});

test('entries are plain objects with exactly the keys of SPEC.md, plain numbers and arrays', () => {
  const topic = new Topic(3);
  topic.join('g', 'A');
  const [entry] = topic.rebalances('g');
  assert.equal(Object.getPrototypeOf(entry), Object.prototype);
  assert.deepEqual(Object.keys(entry).sort(), ['cause', 'consumer', 'generation', 'members']);
  assert.ok(Array.isArray(entry.members));
  const [first] = entry.members;
  assert.equal(Object.getPrototypeOf(first), Object.prototype);
  assert.deepEqual(Object.keys(first).sort(), ['assigned', 'assignment', 'id', 'revoked']);
  for (const list of [first.assignment, first.revoked, first.assigned]) {
    assert.ok(Array.isArray(list) && list.every((p) => typeof p === 'number'));
  }
  assert.equal(typeof entry.generation, 'number');
});

test('rebalances returns a new copy each call: changing it changes nothing', () => {
  const topic = new Topic(2);
  topic.join('g', 'A');
  const history = topic.rebalances('g');
  history[0].members[0].assignment.push(99);
  history.pop();
  assert.deepEqual(topic.rebalances('g')[0].members[0].assignment, [0, 1]);
});

test('the most recent 1,000 rebalances are kept; generations keep counting', () => {
  const topic = new Topic(1);
  for (let i = 0; i < 601; i++) {
    topic.join('g', 'A');
    topic.leave('g', 'A');
  }
  topic.join('g', 'B'); // 1,203 rebalances in all
  const history = topic.rebalances('g');
  assert.equal(history.length, 1000);
  assert.equal(history[0].generation, 204);
  assert.equal(history.at(-1).generation, 1203);
  assert.deepEqual(history.map((entry) => entry.generation),
    Array.from({ length: 1000 }, (_, i) => 204 + i));
  assert.deepEqual(history.at(-1), { generation: 1203, cause: 'join', consumer: 'B', members: [member('B', [0], [], [0])] });
});

test('each group has its own history', () => {
  const topic = new Topic(2);
  topic.join('billing', 'A');
  topic.join('analytics', 'X');
  topic.join('analytics', 'Y');
  assert.equal(topic.rebalances('billing').length, 1);
  assert.deepEqual(topic.rebalances('analytics').map((entry) => entry.consumer), ['X', 'Y']);
});
