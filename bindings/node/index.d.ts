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

/** One record returned by {@link Topic.sharePoll}: a record acquired by the member. */
export interface ShareRecord<K extends KeyOrValue = KeyOrValue, V extends KeyOrValue = KeyOrValue>
  extends ConsumerRecord<K, V> {
  /** How many times the record has been delivered (acquired), 1 on the first delivery. */
  deliveryCount: number;
}

/**
 * What a share group's member did with records ({@link Topic.acknowledge}): `"accept"`
 * (processed: never delivered again), `"release"` (give it back: delivered again, with a
 * higher delivery count) or `"reject"` (unprocessable: archived, never delivered again).
 */
export type AcknowledgeType = 'accept' | 'release' | 'reject';

/** A record named by its place, `[partition, offset]`, for {@link Topic.acknowledge}. */
export type RecordPosition = [partition: number, offset: number];

/**
 * Where a share group starts on a partition first assigned to it: `"latest"` (its end
 * offset then; the default, Kafka's) or `"earliest"` (offset 0).
 */
export type ShareAutoOffsetReset = 'latest' | 'earliest';

/** A share-partition's state, as {@link Topic.sharePartitionState} returns it. */
export interface SharePartitionState {
  /** The share-partition start offset: every record below it is accepted, rejected or archived. */
  startOffset: number;
  /** The first offset never acquired. */
  endOffset: number;
  /** Records in flight available to be acquired (released earlier). */
  available: number;
  /** Records in flight acquired by a member, under a lock. */
  acquired: number;
  /** Records accepted, at or above the start offset. */
  acknowledged: number;
  /** Records rejected or archived, at or above the start offset. */
  archived: number;
  /** Deliveries since the partition was first assigned to the group. */
  deliveries: number;
  /** Of those, deliveries of a record delivered before. */
  redeliveries: number;
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
  /** Where a share group starts on a partition first assigned to it; default `"latest"`. */
  shareAutoOffsetReset?: ShareAutoOffsetReset | undefined;
  /**
   * How long a record acquired by {@link Topic.sharePoll} stays locked to its member, in
   * milliseconds of the topic's clock ({@link Topic.advanceClock}); at least 1, default 30000.
   */
  recordLockDurationMs?: number | undefined;
  /** A record released after this many deliveries is archived instead; 2..10, default 5. */
  deliveryCountLimit?: number | undefined;
  /** The most records in flight per partition and share group; 100..10000, default 2000. */
  partitionMaxRecordLocks?: number | undefined;
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

  // ---- Share groups (SPEC.md, "Share groups"; Kafka's KIP-932 queues) ----

  /**
   * Adds the member to the share group (creating it) and reassigns the group with
   * Kafka's simple share assignor: several members may share a partition. A partition
   * first assigned to the group starts where shareAutoOffsetReset says. Nothing if
   * already a member.
   * @throws RangeError if a consumer group has this name.
   */
  shareJoin(group: string, memberId: string): void;

  /**
   * Removes the member (a clean leave or a crash: the same) and releases every record it
   * holds, to be delivered again to the others (or archived at deliveryCountLimit).
   * Nothing for a non-member.
   */
  shareLeave(group: string, memberId: string): void;

  /** The member's partitions, ascending (others may share them); `[]` for a non-member. */
  shareAssignment(group: string, memberId: string): number[];

  /**
   * Acquires up to maxRecords records for the member, partitions ascending, each
   * partition's released records first, then new ones, and locks them to the member
   * until `clock() + recordLockDurationMs`. Commits nothing.
   * @throws RangeError if maxRecords is negative, then if the member is not in the group.
   */
  sharePoll(group: string, memberId: string, maxRecords?: number): ShareRecord[];

  /**
   * Accepts, releases or rejects the records at `[partition, offset]` that the member
   * holds. An empty array does nothing.
   * @throws TypeError if records is not an array of [partition, offset] pairs or type not a string.
   * @throws RangeError if type is not "accept", "release" or "reject".
   * @throws NotAcquiredError if one of them is not held by the member now; then nothing
   *   is acknowledged.
   */
  acknowledge(group: string, memberId: string, records: RecordPosition[] | null | undefined,
              type: AcknowledgeType): void;
  /**
   * The same for every record the member holds now (Kafka's implicit acknowledgement);
   * nothing for a member holding nothing or a non-member.
   */
  acknowledge(group: string, memberId: string, type: AcknowledgeType): void;

  /**
   * Moves the topic's clock forward by `ms` milliseconds; locks that run out by then
   * release their records.
   * @throws RangeError if ms is negative (or not a safe integer), or the clock would
   *   pass the largest value at which a lock deadline still fits in 64 bits.
   */
  advanceClock(ms: number): void;

  /** The topic's clock in milliseconds: 0 at creation, moved only by {@link advanceClock}. */
  clock(): number;

  /**
   * The share-partition start offset: every record below it is accepted, rejected or
   * archived. For a partition the group was never assigned: where shareAutoOffsetReset
   * would start it now.
   * @throws RangeError for a partition outside 0..numPartitions-1.
   */
  shareStartOffset(group: string, partition: number): number;

  /**
   * The share-partition's records in flight by state, and its totals.
   * @throws RangeError for a partition outside 0..numPartitions-1.
   */
  sharePartitionState(group: string, partition: number): SharePartitionState;

  /**
   * Frees the topic's records, groups and share groups now, rather than when the
   * garbage collector gets to the object (which in code that never yields to the
   * event loop is never): the memory goes back to the process for the next Topic.
   * Calling it again does nothing. Where Node defines `Symbol.dispose`, the Topic's
   * `[Symbol.dispose]` is this method (not declared here: it needs TypeScript's
   * `esnext.disposable` lib). Records already returned by poll stay valid: they are
   * copies. Afterwards every other method throws an Error saying the Topic is closed.
   */
  close(): void;
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
 * Thrown by {@link Topic.acknowledge} when a named record is not held by the member
 * now (never acquired, acquired by another member, already acknowledged, or its lock
 * ran out). Nothing was acknowledged.
 */
export class NotAcquiredError extends Error {
  constructor(message: string, partition?: number, offset?: number);
  readonly name: 'NotAcquiredError';
  /** The partition of the first named record the member does not hold. */
  readonly partition?: number;
  /** Its offset. */
  readonly offset?: number;
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
