// SPDX-License-Identifier: Apache-2.0
//
// A small typed use of kgroups (CommonJS side), checked by `tsc --noEmit` in
// scripts/test-node. The @ts-expect-error lines must stay errors: they check
// that index.d.ts rejects what SPEC.md calls a TypeError.
import {
  NoOffsetError,
  NotAcquiredError,
  NotAssignedError,
  Topic,
  partitionFor,
  type Assignor,
  type ConsumerRecord,
  type Lag,
  type MemberRebalance,
  type Offsets,
  type Rebalance,
  type TopicOptions,
  type AcknowledgeType,
  type RecordPosition,
  type ShareRecord,
  type SharePartitionState,
} from 'kgroups';

const topic: Topic = new Topic(6);
topic.join('billing', 'A');
const [partition, offset]: [number, number] = topic.append('key', new Uint8Array([1, 2]));
const end: number = topic.endOffset(partition) + offset;
const partitions: number[] = topic.assignment('billing', 'A');
const records: ConsumerRecord[] = topic.poll('billing', 'A', 500);
for (const record of records) {
  const key: string | Uint8Array = record.key;
  const text: string = typeof record.value === 'string' ? record.value : record.value.join(',');
  void key;
  void text;
}
const offsets: Offsets = { 0: 5, 1: 2 };
try {
  topic.commit('billing', 'A', offsets);
} catch (error) {
  if (error instanceof NotAssignedError) {
    const which: number | undefined = error.partition;
    void which;
  }
}
topic.commit('billing', 'A');
topic.commit('billing', 'A', null);
const committed: number = topic.committed('billing', 0);
const home: number = partitionFor('key', 6);
void [end, partitions, committed, home];

// Options (SPEC.md "Options"): any subset, undefined fields, or none at all.
const options: TopicOptions = { partitioner: 'murmur2', assignor: 'cooperative-sticky', autoOffsetReset: 'none' };
const withOptions = new Topic(6, options);
new Topic(6, {});
new Topic(6, { assignor: undefined });
new Topic(6, null);
new Topic(6, undefined);
const assignors: Assignor[] = ['range', 'roundrobin', 'sticky', 'cooperative-sticky'];
for (const assignor of assignors) new Topic(3, { assignor });
const murmur: number = partitionFor('key', 6, 'murmur2') + partitionFor(new Uint8Array([1]), 6, 'fnv1a');
try {
  withOptions.poll('billing', 'A');
} catch (error) {
  if (error instanceof NoOffsetError) {
    const missing: number[] = error.partitions;
    void missing;
  }
}
const lag: Lag = withOptions.lag('billing');
const firstLag: number | undefined = lag[0];
const history: Rebalance[] = withOptions.rebalances('billing');
for (const { generation, cause, consumer, members } of history) {
  const why: 'join' | 'leave' = cause;
  const each: MemberRebalance[] = members;
  const lists: number[][] = each.flatMap((m) => [m.assignment, m.revoked, m.assigned]);
  const ids: string[] = each.map((m) => m.id);
  void [generation, why, consumer, lists, ids];
}
void [murmur, firstLag];

// @ts-expect-error assignor names are Kafka's client spellings, not the Java class names
new Topic(3, { assignor: 'RoundRobinAssignor' });
// @ts-expect-error autoOffsetReset is spelled in camelCase in JavaScript
new Topic(3, { auto_offset_reset: 'none' });
// @ts-expect-error options values are strings
new Topic(3, { partitioner: 2 });
// @ts-expect-error the partitioner is fnv1a or murmur2
partitionFor('key', 6, 'crc32');
// @ts-expect-error NoOffsetError's partitions is a list
const onePartition: number = new NoOffsetError('m', [1]).partitions;
void onePartition;

// @ts-expect-error keys must be strings or Uint8Arrays
topic.append(42, 'value');
// @ts-expect-error numPartitions is a number
new Topic('6');
// @ts-expect-error offsets is a plain {partition: offset} object, not a Map
topic.commit('billing', 'A', new Map([[0, 5]]));
// @ts-expect-error offsets are numbers
topic.commit('billing', 'A', { 0: '5' });
// @ts-expect-error join returns nothing
const joined: number = topic.join('billing', 'B');
void joined;

// Share groups.
const queue = new Topic(2, {
  shareAutoOffsetReset: 'earliest',
  recordLockDurationMs: 1000,
  deliveryCountLimit: 3,
  partitionMaxRecordLocks: 100,
});
queue.shareJoin('jobs', 'W1');
const shared: ShareRecord[] = queue.sharePoll('jobs', 'W1', 10);
const positions: RecordPosition[] = shared.map((r) => [r.partition, r.offset]);
const deliveries: number[] = shared.map((r) => r.deliveryCount);
const how: AcknowledgeType = 'release';
queue.acknowledge('jobs', 'W1', positions, how);
queue.acknowledge('jobs', 'W1', 'accept');
queue.acknowledge('jobs', 'W1', null, 'reject');
queue.advanceClock(1000);
const now: number = queue.clock();
const start: number = queue.shareStartOffset('jobs', 0);
const state: SharePartitionState = queue.sharePartitionState('jobs', 0);
const sharedPartitions: number[] = queue.shareAssignment('jobs', 'W1');
queue.shareLeave('jobs', 'W1');
try {
  queue.acknowledge('jobs', 'W1', [[0, 0]], 'accept');
} catch (error) {
  if (error instanceof NotAcquiredError) {
    const where: [number | undefined, number | undefined] = [error.partition, error.offset];
    void where;
  }
}
void [deliveries, now, start, state.startOffset + state.redeliveries, sharedPartitions];
queue.close();

// @ts-expect-error the acknowledge types are accept, release and reject
queue.acknowledge('jobs', 'W1', 'gap');
// @ts-expect-error records are [partition, offset] pairs
queue.acknowledge('jobs', 'W1', [0, 1], 'accept');
// @ts-expect-error shareAutoOffsetReset has no "none"
new Topic(1, { shareAutoOffsetReset: 'none' });
// @ts-expect-error the share options are camelCase in JavaScript
new Topic(1, { delivery_count_limit: 3 });
// @ts-expect-error recordLockDurationMs is a number
new Topic(1, { recordLockDurationMs: '1000' });
