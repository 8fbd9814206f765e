// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md "Options" through the JS API: new Topic(numPartitions, { partitioner,
// assignor, autoOffsetReset }), its defaults and how a wrong options argument
// fails (TypeError for a wrong type, RangeError naming the option and its
// choices for an unknown value; types first, then numPartitions, then the
// options in the table's order).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Topic, partitionFor } = require('kgroups');

const CHOICES = {
  partitioner: ['fnv1a', 'murmur2'],
  assignor: ['range', 'roundrobin', 'sticky', 'cooperative-sticky'],
  autoOffsetReset: ['earliest', 'latest', 'none'],
};
const NOT_OBJECTS = ['sticky', '', 5, 0, true, false, 1n, Symbol('s'), [], ['range'], () => ({})];
const NOT_STRINGS = [null, 5, true, 1n, Symbol('s'), {}, ['range'], new String('range'), () => 'range'];

// What a topic does that every option changes: where keys land, how three
// members split 7 partitions after a fourth joins and leaves, and where a
// group with no commit starts.
function behaviour(topic) {
  const placed = Array.from({ length: 40 }, (_, i) => topic.append(`key-${i}`, 'v')[0]);
  for (const consumer of ['C', 'A', 'B', 'D']) topic.join('g', consumer);
  topic.leave('g', 'B');
  const split = ['A', 'C', 'D'].map((consumer) => topic.assignment('g', consumer));
  let start;
  try {
    start = topic.poll('g', 'A', 1).map((record) => record.offset);
  } catch (error) {
    start = error.name;
  }
  return { placed, split, start };
}

test('no options, undefined, null, {} and explicit defaults all give the lab topic', () => {
  const lab = behaviour(new Topic(7));
  for (const options of [undefined, null, {}, { partitioner: undefined, assignor: undefined, autoOffsetReset: undefined },
    { partitioner: 'fnv1a', assignor: 'range', autoOffsetReset: 'earliest' }]) {
    assert.deepEqual(behaviour(new Topic(7, options)), lab, JSON.stringify(options));
  }
  // The lab: FNV-1a placement, range split, reading from offset 0.
  assert.deepEqual(lab.placed, Array.from({ length: 40 }, (_, i) => partitionFor(`key-${i}`, 7)));
  assert.deepEqual(lab.split, [[0, 1, 2], [3, 4], [5, 6]]);
  assert.deepEqual(lab.start, [0]);
});

test('every choice of every option is accepted, and each option changes what it says', () => {
  const lab = behaviour(new Topic(7));
  for (const [name, choices] of Object.entries(CHOICES)) {
    for (const choice of choices.slice(1)) {
      const other = behaviour(new Topic(7, { [name]: choice }));
      // Only the aspect the option governs differs from the lab.
      const aspect = { partitioner: 'placed', assignor: 'split', autoOffsetReset: 'start' }[name];
      for (const key of Object.keys(lab)) {
        if (key === aspect) assert.notDeepEqual(other[key], lab[key], `${name}: ${choice}`);
        else assert.deepEqual(other[key], lab[key], `${name}: ${choice}, ${key}`);
      }
    }
  }
});

test('options that are not an object (or undefined or null) are a TypeError', () => {
  for (const bad of NOT_OBJECTS) {
    assert.throws(() => new Topic(3, bad), { name: 'TypeError', message: /Topic: options must be an object/ }, String(typeof bad));
  }
});

test('an option that is not a string (or undefined) is a TypeError naming it', () => {
  for (const name of Object.keys(CHOICES)) {
    for (const bad of NOT_STRINGS) {
      assert.throws(() => new Topic(3, { [name]: bad }), {
        name: 'TypeError',
        message: new RegExp(`options\\.${name} must be a string`),
      });
    }
  }
});

test('an unknown field is a TypeError; the C++/Python spelling gets a hint', () => {
  assert.throws(() => new Topic(3, { assigner: 'sticky' }), {
    name: 'TypeError',
    message: /no field "assigner".*partitioner, assignor, autoOffsetReset/,
  });
  assert.throws(() => new Topic(3, { auto_offset_reset: 'none' }), {
    name: 'TypeError',
    message: /"auto_offset_reset".*spelled autoOffsetReset/,
  });
  // Fields are read like any property, inherited ones too; only own
  // string-keyed fields are checked for unknown names.
  const inherited = Object.create({ assignor: 'roundrobin', extra: 1 });
  assert.deepEqual(behaviour(new Topic(7, inherited)).split, [[0, 3, 6], [1, 4], [2, 5]]);
  assert.deepEqual(behaviour(new Topic(7, { [Symbol('x')]: 1 })).split, [[0, 1, 2], [3, 4], [5, 6]]);
});

test('an unknown choice is a RangeError naming the option (JS spelling) and its choices', () => {
  for (const [name, choices] of Object.entries(CHOICES)) {
    for (const bad of ['', 'unknown', choices[0].toUpperCase(), ` ${choices[0]}`]) {
      let caught;
      try {
        new Topic(3, { [name]: bad });
      } catch (error) {
        caught = error;
      }
      assert.ok(caught instanceof RangeError, `${name}: ${JSON.stringify(bad)}`);
      assert.match(caught.message, new RegExp(name));
      for (const choice of choices) assert.ok(caught.message.includes(choice), `${caught.message} lists ${choice}`);
    }
  }
  // A value with a NUL in it is no choice either (its message ends at the NUL:
  // C++ exception messages are C strings).
  for (const [name, choices] of Object.entries(CHOICES)) {
    assert.throws(() => new Topic(3, { [name]: `${choices[0]}\u0000` }), RangeError);
  }
  // Kafka's other spellings are not ours.
  for (const [name, bad] of [['assignor', 'round-robin'], ['assignor', 'cooperative_sticky'],
    ['assignor', 'CooperativeStickyAssignor'], ['partitioner', 'murmur'], ['autoOffsetReset', 'smallest']]) {
    assert.throws(() => new Topic(3, { [name]: bad }), RangeError, `${name}: ${bad}`);
  }
});

test('validation order: types first (numPartitions, options), then numPartitions, then options in table order', () => {
  assert.throws(() => new Topic('3', { assignor: 'nope' }), { name: 'TypeError', message: /numPartitions/ });
  assert.throws(() => new Topic(0, 'options'), TypeError);
  assert.throws(() => new Topic(0, { assignor: 7 }), { name: 'TypeError', message: /assignor/ });
  assert.throws(() => new Topic(2.5, { assignor: 7 }), TypeError);
  assert.throws(() => new Topic(0, { typo: 'x' }), TypeError);
  // A numPartitions that is no safe int32 is the binding's RangeError, before any option value.
  for (const bad of [2.5, NaN, 2 ** 40]) {
    assert.throws(() => new Topic(bad, { partitioner: 'x' }), { name: 'RangeError', message: /numPartitions/ });
  }
  // Then partitioner, assignor, autoOffsetReset.
  assert.throws(() => new Topic(3, { autoOffsetReset: 'z', assignor: 'y', partitioner: 'x' }), {
    name: 'RangeError',
    message: /partitioner/,
  });
  assert.throws(() => new Topic(3, { autoOffsetReset: 'z', assignor: 'y' }), {
    name: 'RangeError',
    message: /assignor/,
  });
  // A wrong type in a later option wins over a wrong value in an earlier one.
  assert.throws(() => new Topic(3, { partitioner: 'x', autoOffsetReset: 5 }), TypeError);
});

test('validation order: numPartitions < 1 is reported before an unknown option value', () => {
  // SPEC.md: "The options are checked after num_partitions, in the table's order."
  for (const bad of [0, -1]) {
    let caught;
    try {
      new Topic(bad, { partitioner: 'x', assignor: 'y', autoOffsetReset: 'z' });
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof RangeError, String(bad));
    assert.doesNotMatch(caught.message, /partitioner|assignor|autoOffsetReset/, `numPartitions ${bad}`);
  }
});

test('a getter on the options object runs once per field; what it throws passes through', () => {
  const reads = [];
  const options = {};
  for (const name of Object.keys(CHOICES)) {
    Object.defineProperty(options, name, {
      enumerable: true,
      get() {
        reads.push(name);
        return undefined;
      },
    });
  }
  new Topic(2, options);
  assert.deepEqual(reads, ['partitioner', 'assignor', 'autoOffsetReset']);
  const boom = new Error('boom');
  assert.throws(() => new Topic(2, { get assignor() { throw boom; } }), (error) => error === boom);
});

test('options are read once, at construction: changing the object later changes nothing', () => {
  const options = { assignor: 'roundrobin' };
  const topic = new Topic(4, options);
  options.assignor = 'range';
  topic.join('g', 'A');
  topic.join('g', 'B');
  assert.deepEqual(topic.assignment('g', 'A'), [0, 2]);
});

test('a Topic is still constructed only with new', () => {
  assert.throws(() => Topic(3, {}), TypeError);
});
