// SPDX-License-Identifier: Apache-2.0
//
// kafkajs 2.2.4's admin client against kgroupsd, each call checked by its effect:
// createTopics with configEntries (and validateOnly, duplicates, unknown configs),
// describeConfigs and alterConfigs, deleteTopics (the topic, its data and its groups' offsets
// gone), createPartitions, deleteTopicRecords (the low watermark moves, a consumer from the
// start begins there), fetchOffsets/setOffsets/resetOffsets, and deleteGroups.
'use strict';

process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';

const test = require('node:test');
const assert = require('node:assert/strict');
const { ConfigResourceTypes, ConfigSource, Kafka, logLevel } = require('kafkajs');
const { startKgroupsd } = require('./kgroupsd');

const TIMEOUT_MS = 30000;
const TEST = { timeout: 120000 };
let broker;
let kafka;
let admin;

test.before(async () => {
  broker = await startKgroupsd(['--group-min-session-timeout-ms', '1000']);
  kafka = new Kafka({ clientId: 'kgroups-admin-test', brokers: broker.brokers, logLevel: logLevel.NOTHING });
  admin = kafka.admin();
  await admin.connect();
});

test.after(async () => {
  await admin.disconnect();
  const code = await broker.stop();
  assert.equal(code, 0, `kgroupsd exited with ${code} on SIGTERM; log:\n${broker.log()}`);
});

// Writes `perPartition` messages to each of `partitions` partitions ("p<partition>-<i>").
async function produce(topic, partitions, perPartition) {
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    const messages = [];
    for (let p = 0; p < partitions; p += 1) {
      for (let i = 0; i < perPartition; i += 1) messages.push({ partition: p, key: `k${i}`, value: `p${p}-${i}` });
    }
    await producer.send({ topic, messages, acks: -1 });
  } finally {
    await producer.disconnect();
  }
}

async function until(condition, what) {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; log:\n${broker.log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Reads the topic from the start in a fresh group until `count` messages arrived, then 500 ms
// more (anything unexpected shows up); returns [{partition, offset, value}].
async function readAll(topic, count, groupId) {
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100, allowAutoTopicCreation: false });
  const rows = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        rows.push({ partition, offset: Number(message.offset), value: message.value.toString() });
      },
    });
    await until(() => rows.length >= count, `${count} messages from ${topic}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  } finally {
    await consumer.disconnect();
  }
  return rows;
}

// name -> {value, source, isDefault, readOnly} for the topic's configs (all when configNames is
// undefined: kafkajs sends an empty list as null).
async function topicConfigs(topic, configNames) {
  const { resources } = await admin.describeConfigs({
    includeSynonyms: false,
    resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames }],
  });
  assert.equal(resources.length, 1);
  const [resource] = resources;
  assert.equal(resource.errorCode, 0, resource.errorMessage);
  assert.equal(resource.resourceName, topic);
  return new Map(resource.configEntries.map((entry) => [entry.configName, {
    value: entry.configValue, source: entry.configSource, isDefault: entry.isDefault, readOnly: entry.readOnly,
  }]));
}

// partition -> committed offset (a string, '-1' where none) of the group on the topic.
async function committed(groupId, topic) {
  const [result] = await admin.fetchOffsets({ groupId, topics: [topic] });
  assert.equal(result.topic, topic);
  return Object.fromEntries(result.partitions.map(({ partition, offset }) => [partition, offset]));
}

async function partitionCount(topic) {
  const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
  assert.equal(topics.length, 1);
  return topics[0].partitions.length;
}

test('createTopics with configEntries creates the topic with those configs', TEST, async () => {
  const topic = 'js-admin-create';
  const created = await admin.createTopics({
    topics: [{
      topic,
      numPartitions: 3,
      configEntries: [{ name: 'retention.ms', value: '3600000' }, { name: 'cleanup.policy', value: 'compact' }],
    }],
  });
  assert.equal(created, true);
  assert.ok((await admin.listTopics()).includes(topic));
  assert.equal(await partitionCount(topic), 3);

  const configs = await topicConfigs(topic, ['retention.ms', 'cleanup.policy', 'max.message.bytes']);
  assert.deepEqual(configs.get('retention.ms'),
    { value: '3600000', source: ConfigSource.TOPIC_CONFIG, isDefault: false, readOnly: false });
  assert.equal(configs.get('cleanup.policy').value, 'compact');
  assert.equal(configs.get('cleanup.policy').source, ConfigSource.TOPIC_CONFIG);
  // Never set: Kafka's default, described as a default.
  assert.deepEqual(configs.get('max.message.bytes'),
    { value: '1048588', source: ConfigSource.DEFAULT_CONFIG, isDefault: true, readOnly: false });
  // Every config comes back when none is named.
  const all = await topicConfigs(topic, undefined);
  for (const name of ['cleanup.policy', 'retention.ms', 'retention.bytes', 'max.message.bytes',
    'message.timestamp.type', 'segment.bytes', 'min.compaction.lag.ms', 'delete.retention.ms']) {
    assert.ok(all.has(name), `describeConfigs without names lacks ${name}`);
  }
  assert.equal(all.get('retention.ms').value, '3600000');

  // Creating it again: kafkajs resolves false on TOPIC_ALREADY_EXISTS; nothing changes.
  assert.equal(await admin.createTopics({ topics: [{ topic, numPartitions: 5 }] }), false);
  assert.equal(await partitionCount(topic), 3);
});

test('createTopics with validateOnly creates nothing', TEST, async () => {
  const topic = 'js-admin-validate-only';
  await admin.createTopics({
    validateOnly: true,
    waitForLeaders: false,
    topics: [{ topic, numPartitions: 2, configEntries: [{ name: 'retention.ms', value: '1000' }] }],
  });
  assert.ok(!(await admin.listTopics()).includes(topic));
});

test('createTopics with an unknown config is refused with INVALID_CONFIG and creates nothing', TEST, async () => {
  const topic = 'js-admin-bad-config';
  await assert.rejects(
    admin.createTopics({ topics: [{ topic, numPartitions: 1, configEntries: [{ name: 'no.such.config', value: '1' }] }] }),
    (error) => {
      const types = (error.errors ?? [error]).map((e) => e.type);
      assert.deepEqual(types, ['INVALID_CONFIG'], String(error));
      return true;
    });
  assert.ok(!(await admin.listTopics()).includes(topic));
});

test('alterConfigs sets the topic\'s configs, and describeConfigs shows the new values', TEST, async () => {
  const topic = 'js-admin-alter';
  await admin.createTopics({
    topics: [{ topic, numPartitions: 1, configEntries: [{ name: 'cleanup.policy', value: 'compact' }] }],
  });
  const alter = (configEntries, validateOnly = false) => admin.alterConfigs({
    validateOnly, resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configEntries }],
  });

  const { resources } = await alter([{ name: 'retention.ms', value: '7200000' }, { name: 'max.message.bytes', value: '2000000' }]);
  assert.equal(resources.length, 1);
  assert.equal(resources[0].errorCode, 0);
  let configs = await topicConfigs(topic, ['retention.ms', 'max.message.bytes', 'cleanup.policy']);
  assert.equal(configs.get('retention.ms').value, '7200000');
  assert.equal(configs.get('retention.ms').source, ConfigSource.TOPIC_CONFIG);
  assert.equal(configs.get('max.message.bytes').value, '2000000');
  // AlterConfigs (not incremental) replaces the topic's whole set: what the request leaves
  // out returns to its default, as with Kafka.
  assert.equal(configs.get('cleanup.policy').value, 'delete');
  assert.equal(configs.get('cleanup.policy').isDefault, true);

  // validateOnly checks without changing anything.
  await alter([{ name: 'retention.ms', value: '60000' }], true);
  configs = await topicConfigs(topic, ['retention.ms']);
  assert.equal(configs.get('retention.ms').value, '7200000');

  // A bad value or an unknown name is refused and changes nothing.
  await assert.rejects(alter([{ name: 'retention.ms', value: 'soon' }]), (error) => error.type === 'INVALID_CONFIG');
  await assert.rejects(alter([{ name: 'no.such.config', value: '1' }]), (error) => error.type === 'INVALID_CONFIG');
  configs = await topicConfigs(topic, ['retention.ms']);
  assert.equal(configs.get('retention.ms').value, '7200000');

  // A topic that does not exist.
  await assert.rejects(
    admin.alterConfigs({ resources: [{ type: ConfigResourceTypes.TOPIC, name: 'js-admin-missing', configEntries: [] }] }),
    (error) => error.type === 'UNKNOWN_TOPIC_OR_PARTITION');
});

test('deleteTopics removes the topic, its data and its groups\' offsets', TEST, async () => {
  const topic = 'js-admin-delete';
  const groupId = 'js-admin-delete-group';
  await admin.createTopics({ topics: [{ topic, numPartitions: 2 }] });
  await produce(topic, 2, 5);
  await admin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '3' }, { partition: 1, offset: '5' }] });
  assert.deepEqual(await committed(groupId, topic), { 0: '3', 1: '5' });

  await admin.deleteTopics({ topics: [topic] });
  assert.ok(!(await admin.listTopics()).includes(topic));

  // The same name again is a new, empty topic, and the group has no offsets on it.
  await admin.createTopics({ topics: [{ topic, numPartitions: 2 }] });
  const offsets = await admin.fetchTopicOffsets(topic);
  assert.deepEqual(offsets.map(({ partition, low, high }) => [partition, low, high]).sort(),
    [[0, '0', '0'], [1, '0', '0']]);
  assert.deepEqual(await committed(groupId, topic), { 0: '-1', 1: '-1' });

  // A topic that does not exist: UNKNOWN_TOPIC_OR_PARTITION (kafkajs retries it, then gives up).
  const strict = kafka.admin({ retry: { retries: 0 } });
  await strict.connect();
  try {
    await assert.rejects(strict.deleteTopics({ topics: ['js-admin-never-created'] }),
      (error) => /UNKNOWN_TOPIC_OR_PARTITION|does not host this topic-partition/.test(`${error.type} ${error.message} ${error.originalError?.type}`));
  } finally {
    await strict.disconnect();
  }
});

test('createPartitions raises the partition count, and the new partitions take messages', TEST, async () => {
  const topic = 'js-admin-partitions';
  await admin.createTopics({ topics: [{ topic, numPartitions: 2 }] });
  await admin.createPartitions({ topicPartitions: [{ topic, count: 5 }] });
  assert.equal(await partitionCount(topic), 5);
  await produce(topic, 5, 2);
  const offsets = await admin.fetchTopicOffsets(topic);
  assert.deepEqual(offsets.map(({ partition, high }) => [partition, high]).sort(),
    [[0, '2'], [1, '2'], [2, '2'], [3, '2'], [4, '2']]);

  // Fewer partitions than it has, or validateOnly: refused or not applied; the count stays.
  await assert.rejects(admin.createPartitions({ topicPartitions: [{ topic, count: 3 }] }),
    (error) => error.type === 'INVALID_PARTITIONS');
  await admin.createPartitions({ validateOnly: true, topicPartitions: [{ topic, count: 8 }] });
  assert.equal(await partitionCount(topic), 5);
});

test('deleteTopicRecords moves the low watermark, and a consumer from the start begins there', TEST, async () => {
  const topic = 'js-admin-delete-records';
  await admin.createTopics({ topics: [{ topic, numPartitions: 2 }] });
  await produce(topic, 2, 10);
  const before = await admin.fetchTopicOffsets(topic);
  assert.deepEqual(before.map(({ partition, low, high }) => [partition, low, high]).sort(),
    [[0, '0', '10'], [1, '0', '10']]);

  // Partition 0 up to offset 4; partition 1 up to its high watermark (-1).
  await admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: '4' }, { partition: 1, offset: '-1' }] });
  const after = await admin.fetchTopicOffsets(topic);
  assert.deepEqual(after.map(({ partition, low, high }) => [partition, low, high]).sort(),
    [[0, '4', '10'], [1, '10', '10']]);

  const rows = await readAll(topic, 6, 'js-admin-delete-records-reader');
  assert.deepEqual(rows.map((row) => `${row.partition}:${row.offset}:${row.value}`).sort(),
    [4, 5, 6, 7, 8, 9].map((i) => `0:${i}:p0-${i}`).sort());

  // Beyond the high watermark: OFFSET_OUT_OF_RANGE, and the watermark stays.
  await assert.rejects(admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: '11' }] }),
    (error) => {
      const refusal = error.cause ?? error; // kafkajs wraps it in a KafkaJSNonRetriableError
      return refusal.name === 'KafkaJSDeleteTopicRecordsError' &&
        refusal.partitions.every((p) => p.error.type === 'OFFSET_OUT_OF_RANGE');
    });
  assert.equal((await admin.fetchTopicOffsets(topic)).find((p) => p.partition === 0).low, '4');
});

test('fetchOffsets shows what setOffsets and resetOffsets committed', TEST, async () => {
  const topic = 'js-admin-offsets';
  const groupId = 'js-admin-offsets-group';
  await admin.createTopics({ topics: [{ topic, numPartitions: 3 }] });
  await produce(topic, 3, 10);
  assert.deepEqual(await committed(groupId, topic), { 0: '-1', 1: '-1', 2: '-1' });

  await admin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '3' }, { partition: 1, offset: '7' }] });
  assert.deepEqual(await committed(groupId, topic), { 0: '3', 1: '7', 2: '-1' });

  // A member of the group starts where the offsets say (partition 2: from the start).
  const rows = await readAll(topic, 7 + 3 + 10, groupId);
  const firstOffsets = {};
  for (const row of rows) firstOffsets[row.partition] = Math.min(firstOffsets[row.partition] ?? Infinity, row.offset);
  assert.deepEqual(firstOffsets, { 0: 3, 1: 7, 2: 0 });
  assert.equal(rows.length, 20);

  // resetOffsets commits the earliest (-2) or latest (-1) marker on every partition;
  // fetchOffsets with resolveOffsets turns them into the watermarks and commits those.
  await admin.resetOffsets({ groupId, topic, earliest: true });
  assert.deepEqual(await committed(groupId, topic), { 0: '-2', 1: '-2', 2: '-2' });
  const [{ partitions: resolvedEarliest }] = await admin.fetchOffsets({ groupId, topics: [topic], resolveOffsets: true });
  assert.deepEqual(resolvedEarliest.map(({ partition, offset }) => [partition, offset]).sort(), [[0, '0'], [1, '0'], [2, '0']]);
  assert.deepEqual(await committed(groupId, topic), { 0: '0', 1: '0', 2: '0' });

  await admin.resetOffsets({ groupId, topic });
  await admin.fetchOffsets({ groupId, topics: [topic], resolveOffsets: true });
  assert.deepEqual(await committed(groupId, topic), { 0: '10', 1: '10', 2: '10' });
});

test('deleteGroups removes a group and its offsets; a group with members is refused', TEST, async () => {
  const topic = 'js-admin-groups';
  const groupId = 'js-admin-groups-idle';
  const busyGroupId = 'js-admin-groups-busy';
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
  await produce(topic, 1, 3);
  await admin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '2' }] });
  const groupIds = async () => (await admin.listGroups()).groups.map((group) => group.groupId);
  assert.ok((await groupIds()).includes(groupId));

  // A group with a live member.
  const member = kafka.consumer({ groupId: busyGroupId, maxWaitTimeInMs: 100 });
  let joined = false;
  member.on(member.events.GROUP_JOIN, () => { joined = true; });
  await member.connect();
  try {
    await member.subscribe({ topic, fromBeginning: true });
    await member.run({ eachMessage: async () => {} });
    await until(() => joined, 'the member to join');
    await assert.rejects(admin.deleteGroups([busyGroupId]), (error) => {
      assert.equal(error.name, 'KafkaJSDeleteGroupsError', String(error));
      assert.deepEqual(error.groups.map((g) => [g.groupId, g.error.type]), [[busyGroupId, 'NON_EMPTY_GROUP']]);
      return true;
    });
    assert.ok((await groupIds()).includes(busyGroupId));
  } finally {
    await member.disconnect();
  }

  const results = await admin.deleteGroups([groupId]);
  assert.deepEqual(results.map(({ groupId: id, errorCode }) => [id, errorCode]), [[groupId, 0]]);
  assert.ok(!(await groupIds()).includes(groupId));
  assert.deepEqual(await committed(groupId, topic), { 0: '-1' });

  // Deleted already: GROUP_ID_NOT_FOUND.
  await assert.rejects(admin.deleteGroups([groupId]),
    (error) => error.groups?.[0]?.error?.type === 'GROUP_ID_NOT_FOUND');
});
