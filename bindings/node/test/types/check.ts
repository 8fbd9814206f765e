// SPDX-License-Identifier: Apache-2.0
//
// A small typed use of kgroups (CommonJS side), checked by `tsc --noEmit` in
// scripts/test-node. The @ts-expect-error lines must stay errors: they check
// that index.d.ts rejects what SPEC.md calls a TypeError.
import { NotAssignedError, Topic, partitionFor, type ConsumerRecord, type Offsets } from 'kgroups';

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
