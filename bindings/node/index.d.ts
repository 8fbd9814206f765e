// SPDX-License-Identifier: Apache-2.0
//
// Type declarations of the kgroups package (SPEC.md, "JavaScript / TypeScript").

/** A record key or value: UTF-8 text or bytes. A Buffer is a Uint8Array. */
export type KeyOrValue = string | Uint8Array;

/** One record returned by {@link Topic.poll}. */
export interface ConsumerRecord<K extends KeyOrValue = KeyOrValue, V extends KeyOrValue = KeyOrValue> {
  /** The partition the record is on. */
  partition: number;
  /** Its offset on that partition, from 0. */
  offset: number;
  /** The key, as the kind it was appended as: a string, or a Uint8Array (a Buffer) for bytes. */
  key: K;
  /** The value, as the kind it was appended as. */
  value: V;
}

/** A {partition: offset} map for {@link Topic.commit}, such as `{ 0: 5, 1: 2 }`. */
export type Offsets = { [partition: number]: number };

/**
 * One topic of Kafka's consumer-group model: partitions that are append-only
 * logs, and consumer groups that split them with the range assignor, track
 * positions and committed offsets, and rebalance eagerly on every join and leave.
 *
 * Errors: a wrong argument type is a TypeError; a number that is not a safe
 * integer, a partition out of range, a negative maxRecords or an offset outside
 * 0..endOffset is a RangeError. A call that throws changes nothing.
 */
export class Topic {
  /**
   * A new empty topic.
   * @throws RangeError if numPartitions < 1 (or not a safe integer).
   */
  constructor(numPartitions: number);

  /**
   * Appends the record to partition `partitionFor(key, numPartitions)` and
   * returns `[partition, offset]`. The topic keeps a copy of the bytes.
   */
  append(key: KeyOrValue, value: KeyOrValue): [partition: number, offset: number];

  /**
   * The offset the next record appended to `partition` will get (its record count).
   * @throws RangeError for a partition outside 0..numPartitions-1.
   */
  endOffset(partition: number): number;

  /** Adds the consumer to the group and rebalances it; nothing if already a member. */
  join(group: string, consumerId: string): void;

  /** Removes the consumer from the group and rebalances it; nothing if not a member. */
  leave(group: string, consumerId: string): void;

  /** The consumer's partitions in ascending order; `[]` for an idle consumer or a non-member. */
  assignment(group: string, consumerId: string): number[];

  /**
   * Up to maxRecords records from the consumer's partitions (ascending, each in
   * offset order from the consumer's position, which advances). Commits nothing.
   * @throws RangeError if maxRecords is negative.
   */
  poll(group: string, consumerId: string, maxRecords?: number): ConsumerRecord[];

  /**
   * Without offsets (undefined or null): stores the consumer's position on each
   * of its partitions as the group's committed offset. With offsets: stores
   * them; every partition named must be assigned to this consumer now.
   * @throws NotAssignedError if a named partition is not assigned to the consumer.
   * @throws RangeError if an offset is outside 0..endOffset(partition) or a key
   *   is not a partition number; either way nothing is committed.
   */
  commit(group: string, consumerId: string, offsets?: Offsets | null): void;

  /**
   * The group's committed offset for `partition`, 0 if it has none.
   * @throws RangeError for a partition outside 0..numPartitions-1.
   */
  committed(group: string, partition: number): number;
}

/**
 * The partition a key lands on: 32-bit FNV-1a over its UTF-8 bytes (or its
 * bytes), modulo numPartitions.
 * @throws RangeError if numPartitions < 1.
 */
export function partitionFor(key: KeyOrValue, numPartitions: number): number;

/** Thrown by {@link Topic.commit} with offsets naming a partition not assigned to the consumer. */
export class NotAssignedError extends Error {
  constructor(message: string, partition?: number);
  readonly name: 'NotAssignedError';
  /** The first named partition that is not assigned to the consumer. */
  readonly partition?: number;
}
