// SPDX-License-Identifier: Apache-2.0
//
// Type declarations of kgroups/broker: a kgroupsd for tests (docs/HTTP-API.md for the shapes).
// Symbol.asyncDispose and AsyncDisposable come from TypeScript's (>= 5.2) disposable lib.
/// <reference lib="esnext.disposable" />

/** How {@link Broker.start} runs kgroupsd. */
export interface BrokerOptions {
  /** Topics created at start-up, name → partitions: `{orders: 3}` → `--topic orders:3`. */
  topics?: Record<string, number>;
  /** Group timers follow a clock that moves only by {@link Broker.advance} (`--manual-clock`). */
  manualClock?: boolean;
  /** How long a new group's first rebalance waits for more members (`--initial-rebalance-delay-ms`; kgroupsd: 30 ms, 0 with manualClock). */
  initialRebalanceDelayMs?: number;
  /** `false` → `--no-auto-create`: unknown topics are not created on Metadata or Produce. */
  autoCreateTopics?: boolean;
  /** Brokers in the process, node ids 0..N-1, each on its own free port (`--brokers N`; default 1; docs/CLUSTER.md). */
  brokers?: number;
  /**
   * `--log-dirs`: keep every partition's log on disk in this folder, in Kafka's layout
   * (docs/STORAGE.md); {@link Broker.restart} after {@link Broker.kill} or {@link Broker.stop}
   * recovers it. Default: logs live in memory.
   */
  logDirs?: string;
  /** `--log-flush-interval-messages`: records appended between two flushes (1: every batch is on disk before it is acknowledged). Default: the OS flushes. */
  logFlushIntervalMessages?: number;
  /** `--log-flush-interval-ms`: how old the oldest unflushed record may get before a flush. Default: never. */
  logFlushIntervalMs?: number;
  /** Replicas of topics created without a replication factor, `topics` too (`--default-replication-factor`; at most `brokers`). */
  defaultReplicationFactor?: number;
  /** More kgroupsd flags, appended as they are. */
  extraArgs?: string[];
  /**
   * The kgroupsd binary. Default: $KGROUPSD, then the one `npm install` built for this package
   * (build/npm-kgroupsd under engine/ in a packed copy, under the checkout for a linked folder),
   * then the other build dirs of the kgroups checkout this package is a folder of (build/broker,
   * build/install, build/release, build/dev), then PATH.
   */
  kgroupsd?: string;
  /** How long to wait for kgroupsd's ready line (default 10000). */
  startTimeoutMs?: number;
  /** How long one HTTP API request may take (default 10000). */
  requestTimeoutMs?: number;
  /**
   * Secured listeners instead of the one PLAINTEXT listener (`--listeners`, docs/SECURITY.md):
   * the users file and, for TLS, a throwaway CA and certificates (`kgroups certs`) go into a
   * folder of the Broker's, removed by stop(); `acls` are created before start resolves.
   */
  security?: SecurityOptions;
}

/** A Kafka security protocol, one per listener. */
export type SecurityProtocol = 'PLAINTEXT' | 'SSL' | 'SASL_PLAINTEXT' | 'SASL_SSL';
/** A SASL mechanism kgroupsd serves. */
export type SaslMechanism = 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512' | 'OAUTHBEARER';

/** An ACL as the HTTP API's POST /v1/acls takes it (Kafka's names). */
export interface AclSpec {
  resource_type: string;
  resource_name: string;
  pattern_type?: string;
  principal: string;
  host?: string;
  operation: string;
  permission: 'ALLOW' | 'DENY' | string;
}

/** {@link BrokerOptions.security}: a secured broker's listeners and who may use them. */
export interface SecurityOptions {
  /** The listeners' protocols in order, each on a free loopback port (default 'SASL_SSL'); the first is bootstrapServers. */
  listeners?: SecurityProtocol | SecurityProtocol[];
  /** SASL mechanisms to enable (default: all four). */
  mechanisms?: SaslMechanism | SaslMechanism[];
  /** name → password, for PLAIN and both SCRAMs (OAUTHBEARER takes any name). */
  users?: Record<string, string>;
  /** ssl.client.auth (default 'none'); needs an SSL or SASL_SSL listener. */
  clientAuth?: 'none' | 'requested' | 'required';
  /** The client certificate's common name (default 'client'): principal User:CN=<clientCn>. */
  clientCn?: string;
  /** Names ('admin') or principals ('User:admin') the authorizer lets do anything. */
  superUsers?: string | string[];
  /** ACLs created once kgroupsd is up. */
  acls?: AclSpec | AclSpec[];
  /** allow.everyone.if.no.acl.found. */
  allowEveryone?: boolean;
  /** A folder `kgroups certs` wrote, used instead of a fresh throwaway CA. */
  certs?: string;
}

/** Which listener, user and mechanism a client configuration is for. */
export interface ClientChoice {
  /** Default: the first SASL listener when a user or mechanism is named, else the first that is not PLAINTEXT. */
  protocol?: SecurityProtocol;
  /** Default: the only user. */
  user?: string;
  /** Default: SCRAM-SHA-256 when enabled, else the first enabled. */
  mechanism?: SaslMechanism;
  /** Overrides the user's password (e.g. a wrong one). */
  password?: string;
}

/** kafkajs's connection settings for `new Kafka({clientId, ...config})`. */
export interface KafkajsClientConfig {
  brokers: string[];
  /** PEM text of the CA (and of the client certificate and key under clientAuth). */
  ssl?: { ca?: string[]; cert?: string; key?: string };
  sasl?:
    | { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string }
    | { mechanism: 'oauthbearer'; oauthBearerProvider: () => Promise<{ value: string }> };
}

/** node-rdkafka's (librdkafka's) settings, as confluent-kafka takes them too. */
export interface RdkafkaClientConfig {
  'bootstrap.servers': string;
  'security.protocol': SecurityProtocol;
  'ssl.ca.location'?: string;
  'ssl.certificate.location'?: string;
  'ssl.key.location'?: string;
  'sasl.mechanisms'?: SaslMechanism;
  'sasl.username'?: string;
  'sasl.password'?: string;
  'enable.sasl.oauthbearer.unsecure.jwt'?: boolean;
  'sasl.oauthbearer.config'?: string;
}

/** One partition of a topic. */
export interface PartitionInfo {
  partition: number;
  log_start_offset: number;
  /** What consumers read up to: the high watermark. */
  end_offset: number;
  high_watermark: number;
  /** The leader's log end (above the high watermark: records not yet on every in-sync replica). */
  log_end_offset: number;
  last_stable_offset: number;
  bytes: number;
  /** The leading broker's node id (-1: offline). */
  leader: number;
  leader_epoch: number;
  /** Node ids in assignment order (the first is the preferred leader). */
  replicas: number[];
  /** The in-sync replicas' node ids. */
  isr: number[];
}

/** What a broker of the cluster is doing. */
export type BrokerState = 'running' | 'stopped' | 'isolated';

/** One broker of the cluster (GET /v1/brokers), as {@link Broker.cluster} and the broker controls return it. */
export interface BrokerNode {
  id: number;
  host: string;
  port: number;
  state: BrokerState;
  /** Whether it is the controller (the lowest running node id). */
  controller: boolean;
  /** How late its followers fetch (0: at once). */
  replication_delay_ms: number;
  /** Partitions it leads. */
  leader_partitions: number;
  /** Partitions it holds a replica of (led ones included). */
  replica_partitions: number;
}

/** The brokers of the cluster, from {@link Broker.cluster}. */
export interface ClusterInfo {
  /** The controller's node id (-1: no broker runs). */
  controller: number;
  brokers: BrokerNode[];
}

/** A topic (GET /v1/topics/{name} adds `configs`). */
export interface TopicInfo {
  name: string;
  id: string;
  internal: boolean;
  partitions: PartitionInfo[];
  /** The configs set on the topic (only from {@link Broker.topic}). */
  configs?: Record<string, string>;
}

/** `classic` (JoinGroup/SyncGroup) or `consumer` (KIP-848). */
export type GroupType = 'classic' | 'consumer';

/** A group in summary, from {@link Broker.groups}. */
export interface GroupSummary {
  group_id: string;
  type: GroupType;
  /** Kafka's name: Empty, PreparingRebalance, CompletingRebalance, Stable, Dead (classic); Empty, Assigning, Reconciling, Stable (consumer). */
  state: string;
  protocol_type: string;
  protocol: string;
  generation: number;
  /** How many members. */
  members: number;
}

/** Partitions of one topic. */
export interface TopicPartitions {
  topic: string;
  partitions: number[];
}

/** A member of a group. */
export interface GroupMember {
  member_id: string;
  instance_id: string | null;
  client_id: string;
  host: string;
  /** Its assignment; null when the protocol type is not `consumer`. */
  assignment: TopicPartitions[] | null;
}

/** A partition the group committed or is assigned. */
export interface GroupOffset {
  topic: string;
  partition: number;
  /** null when the group has not committed it. */
  committed: number | null;
  end_offset: number;
  lag: number;
  metadata?: string | null;
}

/** A group in full, from {@link Broker.group}. */
export interface GroupInfo extends Omit<GroupSummary, 'members'> {
  leader: string | null;
  members: GroupMember[];
  offsets: GroupOffset[];
  /** The sum of the offsets' lag. */
  lag: number;
}

/** What happened to a group or topic (GET /v1/events/log). */
export type EventType =
  | 'topic_created'
  | 'topic_deleted'
  | 'member_joined'
  | 'member_left'
  | 'member_expired'
  | 'rebalance_started'
  | 'rebalance_completed'
  | 'offsets_committed'
  | 'group_deleted'
  | 'records_replayed'
  | 'broker_stopped'
  | 'broker_started'
  | 'broker_isolated'
  | 'leader_elected'
  | 'isr_shrunk'
  | 'isr_expanded'
  | 'coordinator_moved'
  | 'reassignment_started'
  | 'reassignment_completed'
  | 'reassignment_cancelled';

/** One event; the fields beyond id, time_ms and type depend on the type. */
export interface BrokerEvent {
  id: number;
  time_ms: number;
  type: EventType;
  group_id?: string;
  /** Group events: `classic` or `consumer`. */
  group_type?: GroupType;
  topic?: string;
  /** topic_created, topic_deleted: its partition count. */
  partitions?: number;
  member_id?: string | null;
  client_id?: string;
  instance_id?: string | null;
  generation?: number;
  /** rebalance_completed: the assignor (null for a classic group left empty). */
  protocol?: string | null;
  /** rebalance_completed: the classic group's leader (null for consumer groups); leader_elected: the new leader's node id (-1: offline). */
  leader?: string | number | null;
  /** member_left, member_expired, rebalance_started: a sentence, to read, not to parse. */
  reason?: string;
  /** rebalance_completed: each member's partitions (null for a protocol type other than consumer). */
  assignment?: Record<string, TopicPartitions[] | null>;
  /** offsets_committed: what was committed. */
  offsets?: Array<{ topic: string; partition: number; offset: number }>;
  /** broker_stopped, broker_started, broker_isolated: the broker's node id. */
  broker?: number;
  /** leader_elected, isr_shrunk, isr_expanded, reassignment_*: the partition (with `topic`). */
  partition?: number;
  /** leader_elected: the new leader's epoch. */
  leader_epoch?: number;
  /** leader_elected: an out-of-sync replica was chosen. */
  unclean?: boolean;
  /** leader_elected: records the election cut from the log. */
  lost_records?: number;
  /** isr_shrunk, isr_expanded: the in-sync replicas now. */
  isr?: number[];
  /** reassignment_*: the replicas asked for, the first the preferred leader. */
  target_replicas?: number[];
  /** reassignment_*: the targets that were not replicas. */
  adding_replicas?: number[];
  /** reassignment_*: the original replicas that are not targets. */
  removing_replicas?: number[];
  /** reassignment_*: the replica set after the event. */
  replicas?: number[];
  [field: string]: unknown;
}

/** Which events {@link Broker.events} returns. */
export interface EventFilter {
  /** Only events after this event id. */
  since?: number;
  /** Only events of this type (or these types). */
  type?: EventType | EventType[];
  /** Only events of this group (topic events are left out too). */
  group?: string;
}

/**
 * A fault for {@link Broker.inject}: the next `count` requests of `api` (matching `topic`,
 * `partition` or `group` when given) answer `error`, are delayed by `latencyMs`, or have
 * their connection closed (`close`). Or `coordinator`: the group coordinator is unavailable
 * (COORDINATOR_NOT_AVAILABLE) or moved (NOT_COORDINATOR).
 */
export interface FaultSpec {
  /** An API name (`Produce`, `JoinGroup`, ...) or key. */
  api?: string | number;
  /** A Kafka error name (`NOT_LEADER_OR_FOLLOWER`) or code. */
  error?: string | number;
  /** How many matching requests (default 1; -1: until removed). */
  count?: number;
  topic?: string;
  partition?: number;
  group?: string;
  /** Delay the matching responses by this many milliseconds. */
  latencyMs?: number;
  /** Close the connection instead of answering. */
  close?: boolean;
  coordinator?: 'unavailable' | 'moved';
}

/** An armed fault, as the broker shows it (GET /v1/faults). */
export interface Fault {
  id: number;
  /** Matching requests still to be hit (-1: until removed); a used-up fault disappears. */
  remaining: number;
  /** The count it was armed with. */
  count: number;
  api?: string;
  api_key?: number;
  error?: string;
  error_code?: number;
  topic?: string;
  partition?: number;
  group?: string;
  latency_ms?: number;
  close?: boolean;
  coordinator?: 'unavailable' | 'moved';
  [field: string]: unknown;
}

/** The coordinator clock. */
export interface ClockInfo {
  manual: boolean;
  now_ms: number;
}

/** A request the HTTP API refused: the server's message and HTTP status. */
export class BrokerError extends Error {
  readonly name: 'BrokerError';
  /** 400 bad input, 404 unknown topic/group/fault, 405 wrong method, 409 conflict (e.g. the clock is not manual), 429 too many faults, ... */
  readonly status: number;
  /** The server's message alone (`message` also names the request). */
  readonly serverMessage: string;
  readonly method: string;
  readonly path: string;
}

/** Options for {@link Broker.waitFor}. */
export interface WaitForOptions {
  /** Give up after this long (default 10000). */
  timeoutMs?: number;
  /** Between two calls of the predicate (default 25). */
  intervalMs?: number;
  /** Names the condition in the timeout error. */
  message?: string;
}

/**
 * A kgroupsd (in-memory Kafka broker) for a test: started on free loopback ports by
 * {@link Broker.start}, stopped by {@link Broker.stop} (or when the process ends).
 */
export class Broker implements AsyncDisposable {
  private constructor();

  /**
   * Starts kgroupsd and resolves once it is ready. Rejects with an Error that names the
   * command and carries kgroupsd's stderr if it exits or is not ready within startTimeoutMs,
   * and with an Error listing where it looked if there is no kgroupsd binary.
   */
  static start(options?: BrokerOptions): Promise<Broker>;

  /** The Kafka listener's host and port (broker 0's with several brokers). */
  readonly host: string;
  readonly port: number;
  /** "HOST:PORT" (with several brokers "HOST:P0,HOST:P1,..."), for librdkafka's bootstrap.servers. */
  readonly bootstrapServers: string;
  /** ["HOST:PORT", ...], one per broker, for kafkajs's brokers. */
  readonly brokers: string[];
  /** The HTTP API's base URL, e.g. http://127.0.0.1:40123. */
  readonly httpUrl: string;
  /** Every listener's bootstrap addresses by protocol, e.g. {PLAINTEXT: "127.0.0.1:40001", SASL_SSL: "127.0.0.1:40002"}. */
  readonly listeners: Partial<Record<SecurityProtocol, string>>;
  /** The folder of the broker's certificates (ca.pem, broker.pem, client-cert.pem, client-key.pem, ...), or null without TLS. */
  readonly certs: string | null;
  /**
   * kafkajs's settings to reach the broker as a user: brokers, ssl, sasl (OAUTHBEARER: a
   * provider of unsecured JWS tokens). Throws RangeError for a listener, mechanism or user the
   * broker does not have.
   */
  kafkajsConfig(choice?: ClientChoice): KafkajsClientConfig;
  /** node-rdkafka's (librdkafka's) settings for the same. */
  rdkafkaConfig(choice?: ClientChoice): RdkafkaClientConfig;
  /** Creates ACLs (POST /v1/acls); rejects with a BrokerError if refused. */
  addAcls(acls: AclSpec | AclSpec[]): Promise<unknown>;
  /** kgroupsd's process id. */
  readonly pid: number;
  /** The last 256 KiB of kgroupsd's log (stderr). */
  log(): string;

  topics(): Promise<TopicInfo[]>;
  /** Rejects with a BrokerError (404) for an unknown topic. */
  topic(name: string): Promise<TopicInfo>;
  groups(): Promise<GroupSummary[]>;
  /** Rejects with a BrokerError (404) for an unknown group. */
  group(id: string): Promise<GroupInfo>;

  /** Arms a fault and resolves to it (with its id). */
  inject(fault: FaultSpec): Promise<Fault>;
  /** inject({coordinator: 'unavailable', count, group}). */
  coordinatorUnavailable(options?: { count?: number; group?: string }): Promise<Fault>;
  /** inject({coordinator: 'moved', count, group}). */
  coordinatorMoved(options?: { count?: number; group?: string }): Promise<Fault>;
  faults(): Promise<Fault[]>;
  removeFault(id: Fault['id']): Promise<void>;
  clearFaults(): Promise<void>;

  clock(): Promise<ClockInfo>;
  /**
   * Moves the manual clock forward and applies the group timers that became due (members
   * expire, rebalances complete) before it resolves to the new now_ms. Needs manualClock.
   */
  advance(ms: number): Promise<number>;

  /** The kept events (the newest 1,000), oldest first, filtered (GET /v1/events/log). */
  events(filter?: EventFilter): Promise<BrokerEvent[]>;

  /**
   * Calls predicate(broker) until it returns something truthy and resolves to that; a
   * predicate that throws counts as "not yet". Rejects after timeoutMs.
   */
  waitFor<T>(predicate: (broker: Broker) => T | Promise<T>, options?: WaitForOptions): Promise<NonNullable<T>>;

  /** GET /metrics: Prometheus text. */
  metrics(): Promise<string>;

  /** The brokers of the cluster and the controller (GET /v1/brokers). */
  cluster(): Promise<ClusterInfo>;
  /** The node id leading the partition now (-1: offline); RangeError for a partition the topic lacks. */
  leader(topic: string, partition?: number): Promise<number>;
  /** Stops a broker: its listener refuses, its connections close, its partitions elect new leaders. */
  stopBroker(id: number): Promise<BrokerNode>;
  /** Starts a stopped or isolated broker; its replicas catch up and rejoin the ISR. */
  startBroker(id: number): Promise<BrokerNode>;
  /** Cuts a broker from replication while it still answers its clients (its acks=all writes never succeed). */
  isolateBroker(id: number): Promise<BrokerNode>;
  /** The broker's followers fetch only every `ms` milliseconds (0: at once). */
  delayReplication(id: number, ms: number): Promise<BrokerNode>;

  /** SIGTERM, then SIGKILL after timeoutMs (default 5000); resolves to the exit code or signal. */
  stop(options?: { timeoutMs?: number }): Promise<number | string | null>;
  /** kill -9: nothing flushed, closed or checkpointed; resolves once it is gone, to the signal ('SIGKILL'), or to the exit code of a broker already stopped. */
  kill(): Promise<number | string | null>;
  /**
   * After {@link Broker.stop} or {@link Broker.kill}: starts kgroupsd again with the same
   * options, log folder and ports, and resolves once it is ready (PLAINTEXT only). Rejects if
   * the broker still runs or does not start.
   */
  restart(): Promise<void>;
  /** The log folder given (logDirs), or null. */
  readonly logDirs: string | null;
  [Symbol.asyncDispose](): Promise<void>;
}

/** The kgroupsd binary Broker.start runs for these options; throws an Error listing where it looked. */
export function findKgroupsd(options?: Pick<BrokerOptions, 'kgroupsd'>, env?: Record<string, string | undefined>): string;

/** The flags Broker.start passes to kgroupsd for these options. */
export function kgroupsdArgs(options?: BrokerOptions): string[];

declare const _default: {
  Broker: typeof Broker;
  BrokerError: typeof BrokerError;
  findKgroupsd: typeof findKgroupsd;
  kgroupsdArgs: typeof kgroupsdArgs;
};
export default _default;
