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

/** A partitioner: `"fnv1a"` (the lab's, the default) or `"murmur2"` (Kafka's default partitioner). */
export type Partitioner = 'fnv1a' | 'murmur2';

/**
 * An assignor: `"range"` (the lab's, the default), `"roundrobin"` and `"sticky"`
 * rebalance eagerly; `"cooperative-sticky"` rebalances cooperatively (members
 * keep their positions on the partitions they keep).
 */
export type Assignor = 'range' | 'roundrobin' | 'sticky' | 'cooperative-sticky';

/**
 * Where a group starts on a partition it has never committed: `"earliest"`
 * (offset 0, the default), `"latest"` (the end offset when the partition is
 * assigned) or `"none"` ({@link Topic.poll} throws {@link NoOffsetError}).
 */
export type AutoOffsetReset = 'earliest' | 'latest' | 'none';

/**
 * The options of {@link Topic}'s constructor (SPEC.md, "Options"). A missing or
 * undefined field takes its default, which is the lab's rule.
 */
export interface TopicOptions {
  /** Which partitioner places keyed records; default `"fnv1a"`. */
  partitioner?: Partitioner | undefined;
  /** Which assignor splits a group's partitions; default `"range"`. */
  assignor?: Assignor | undefined;
  /** Where a group starts on a partition it never committed; default `"earliest"`. */
  autoOffsetReset?: AutoOffsetReset | undefined;
}

/** {partition: lag} for every partition of the topic, as {@link Topic.lag} returns it. */
export type Lag = { [partition: number]: number };

/** One member of a generation in a {@link Rebalance}. */
export interface MemberRebalance {
  /** The consumer id. */
  id: string;
  /** Its partitions after the rebalance, ascending. */
  assignment: number[];
  /** The partitions it gave up, ascending: eagerly everything it owned, cooperatively only what moved away. */
  revoked: number[];
  /** The partitions it was given, ascending: eagerly everything it now owns, cooperatively only what is new to it. */
  assigned: number[];
}

/** One entry of a group's rebalance history ({@link Topic.rebalances}). */
export interface Rebalance {
  /** 1 for the group's first rebalance, then counting up. */
  generation: number;
  /** What changed the membership. */
  cause: 'join' | 'leave';
  /** The consumer that joined or left. */
  consumer: string;
  /** The new generation's members, sorted by id (bytewise); one that left is not among them. */
  members: MemberRebalance[];
}

/**
 * One topic of Kafka's consumer-group model: partitions that are append-only
 * logs, and consumer groups that split them with the range assignor, track
 * positions and committed offsets, and rebalance eagerly on every join and leave.
 * {@link TopicOptions} choose another partitioner, assignor or offset reset.
 *
 * Errors: a wrong argument type is a TypeError; a number that is not a safe
 * integer, a partition out of range, a negative maxRecords or an offset outside
 * 0..endOffset is a RangeError. A call that throws changes nothing.
 */
export class Topic {
  /**
   * A new empty topic. `options` of undefined or null (or none) means the defaults.
   * @throws TypeError if options is not an object, has a field that is not a
   *   string (or undefined), or has a field other than partitioner, assignor and
   *   autoOffsetReset.
   * @throws RangeError if numPartitions < 1 (or not a safe integer), or an
   *   option is not one of its choices (the message lists them).
   */
  constructor(numPartitions: number, options?: TopicOptions | null);

  /**
   * Appends the record to partition `partitionFor(key, numPartitions,
   * partitioner)` and returns `[partition, offset]`. The topic keeps a copy of
   * the bytes.
   */
  append(key: KeyOrValue, value: KeyOrValue): [partition: number, offset: number];

  /**
   * The offset the next record appended to `partition` will get (its record count).
   * @throws RangeError for a partition outside 0..numPartitions-1.
   */
  endOffset(partition: number): number;

  /**
   * Adds the consumer to the group and rebalances it; nothing if already a
   * member. Eagerly every member restarts every partition from the group's
   * committed offset; cooperatively only the partitions that move do. A
   * partition the group never committed starts where autoOffsetReset says.
   */
  join(group: string, consumerId: string): void;

  /** Removes the consumer from the group and rebalances it; nothing if not a member. */
  leave(group: string, consumerId: string): void;

  /** The consumer's partitions in ascending order; `[]` for an idle consumer or a non-member. */
  assignment(group: string, consumerId: string): number[];

  /**
   * Up to maxRecords records from the consumer's partitions (ascending, each in
   * offset order from the consumer's position, which advances). Commits nothing.
   * @throws RangeError if maxRecords is negative.
   * @throws NoOffsetError (autoOffsetReset "none", maxRecords > 0) if some of the
   *   consumer's partitions have neither a position nor a committed offset; then
   *   no position moves.
   */
  poll(group: string, consumerId: string, maxRecords?: number): ConsumerRecord[];

  /**
   * Without offsets (undefined or null): stores the consumer's position on each
   * of its partitions (that has one) as the group's committed offset. With offsets: stores
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

  /**
   * `{partition: endOffset(partition) - committed(group, partition)}` for every
   * partition of the topic (also for a group that never existed).
   */
  lag(group: string): Lag;

  /**
   * The group's rebalances, oldest first, one per join or leave that changed
   * the membership (the most recent 1,000); `[]` for a group that never existed.
   */
  rebalances(group: string): Rebalance[];
}

/**
 * The partition a key lands on: with `"fnv1a"` (the default) 32-bit FNV-1a over
 * its UTF-8 bytes (or its bytes), with `"murmur2"` Kafka's murmur2 of them made
 * positive (`& 0x7fffffff`); either modulo numPartitions.
 * @throws TypeError if partitioner is not a string (or undefined).
 * @throws RangeError if numPartitions < 1 or partitioner is no known partitioner.
 */
export function partitionFor(key: KeyOrValue, numPartitions: number, partitioner?: Partitioner): number;

/** Thrown by {@link Topic.commit} with offsets naming a partition not assigned to the consumer. */
export class NotAssignedError extends Error {
  constructor(message: string, partition?: number);
  readonly name: 'NotAssignedError';
  /** The first named partition that is not assigned to the consumer. */
  readonly partition?: number;
}

/**
 * Thrown by {@link Topic.poll} under autoOffsetReset `"none"` when some of the
 * consumer's partitions have neither a position nor a committed offset.
 */
export class NoOffsetError extends Error {
  constructor(message: string, partitions?: number[]);
  readonly name: 'NoOffsetError';
  /** Those partitions, ascending. */
  readonly partitions: number[];
}
