// SPDX-License-Identifier: Apache-2.0
//
// A typed use of kgroups/broker (CommonJS side), checked by `tsc --noEmit` in scripts/test-node.
// The @ts-expect-error lines must stay errors: they check that broker.d.ts rejects misuse.
import {
  Broker,
  BrokerError,
  kgroupsdArgs,
  findKgroupsd,
  type BrokerEvent,
  type BrokerNode,
  type BrokerOptions,
  type ClusterInfo,
  type Fault,
  type GroupInfo,
  type GroupSummary,
  type KafkajsClientConfig,
  type RdkafkaClientConfig,
  type TopicInfo,
} from 'kgroups/broker';

async function harness(): Promise<void> {
  const options: BrokerOptions = {
    topics: { orders: 3 },
    manualClock: true,
    initialRebalanceDelayMs: 0,
    extraArgs: ['--verbose'],
    startTimeoutMs: 5000,
  };
  const broker: Broker = await Broker.start(options);
  const bootstrap: string = broker.bootstrapServers;
  const brokers: string[] = broker.brokers;
  const url: string = broker.httpUrl;
  const topics: TopicInfo[] = await broker.topics();
  const end: number = (await broker.topic('orders')).partitions[0].end_offset;
  const groups: GroupSummary[] = await broker.groups();
  const group: GroupInfo = await broker.group('billing');
  const lag: number = group.lag + group.offsets.reduce((sum, o) => sum + o.lag, 0);
  const committed: number | null = group.offsets[0].committed;
  const firstAssignment = group.members[0].assignment?.[0].partitions ?? [];
  const fault: Fault = await broker.inject({ api: 'Produce', error: 'NOT_LEADER_OR_FOLLOWER', count: 2, topic: 'orders', partition: 0 });
  await broker.inject({ api: 1, latencyMs: 200 });
  await broker.inject({ api: 'Fetch', close: true, count: -1 });
  await broker.inject({ coordinator: 'unavailable', count: 3, group: 'billing' });
  await broker.coordinatorMoved({ count: 1 });
  await broker.coordinatorUnavailable();
  await broker.removeFault(fault.id);
  const armed: Fault[] = await broker.faults();
  await broker.clearFaults();
  const now: number = await broker.advance(45000);
  const manual: boolean = (await broker.clock()).manual;
  const events: BrokerEvent[] = await broker.events({ since: 0, type: ['rebalance_completed', 'member_expired'], group: 'billing' });
  const generation: number | undefined = events[0]?.generation;
  const stable: GroupInfo = await broker.waitFor(async (b) => {
    const g = await b.group('billing');
    return g.state === 'Stable' ? g : undefined;
  }, { timeoutMs: 5000, message: 'billing to be Stable' });
  const metrics: string = await broker.metrics();
  try {
    await broker.group('unknown');
  } catch (error) {
    if (error instanceof BrokerError) {
      const status: number = error.status;
      const message: string = error.serverMessage;
      void [status, message];
    }
  }
  const exit: number | string | null = await broker.stop({ timeoutMs: 1000 });
  {
    await using scoped = await Broker.start();
    void scoped.log();
  }
  const args: string[] = kgroupsdArgs({ topics: { a: 1 } });
  const file: string = findKgroupsd({ kgroupsd: '/usr/bin/kgroupsd' });

  const secured: Broker = await Broker.start({
    security: {
      listeners: ['PLAINTEXT', 'SASL_SSL'], users: { alice: 'secret' }, mechanisms: ['PLAIN', 'SCRAM-SHA-256'],
      clientAuth: 'requested', superUsers: 'admin', allowEveryone: false,
      acls: [{ resource_type: 'TOPIC', resource_name: 'orders', principal: 'User:alice', operation: 'WRITE', permission: 'ALLOW' }],
    },
  });
  const kafkajs: KafkajsClientConfig = secured.kafkajsConfig({ user: 'alice', mechanism: 'PLAIN' });
  const rdkafka: RdkafkaClientConfig = secured.rdkafkaConfig({ protocol: 'SASL_SSL', user: 'alice' });
  const saslSsl: string | undefined = secured.listeners.SASL_SSL;
  const certs: string | null = secured.certs;
  await secured.addAcls({ resource_type: 'GROUP', resource_name: 'g', principal: 'User:alice', operation: 'READ', permission: 'ALLOW' });
  // @ts-expect-error: not a SASL mechanism kgroupsd serves
  secured.kafkajsConfig({ mechanism: 'GSSAPI' });
  void [kafkajs, rdkafka, saslSsl, certs];

  const cluster: Broker = await Broker.start({ brokers: 3, defaultReplicationFactor: 3, topics: { payments: 1 } });
  const info: ClusterInfo = await cluster.cluster();
  const controller: number = info.controller;
  const leader: number = await cluster.leader('payments', 0);
  const stopped: BrokerNode = await cluster.stopBroker(leader);
  const state: 'running' | 'stopped' | 'isolated' = stopped.state;
  await cluster.startBroker(leader);
  await cluster.isolateBroker(info.brokers[1].id);
  await cluster.delayReplication(2, 500);
  const isr: number[] = (await cluster.topic('payments')).partitions[0].isr;
  const elections: BrokerEvent[] = await cluster.events({ type: ['leader_elected', 'isr_shrunk', 'broker_stopped'] });
  const lost: number | undefined = elections[0]?.lost_records;
  void [controller, state, isr, lost];
  // @ts-expect-error broker ids are node ids (numbers)
  await cluster.stopBroker('0');
  // @ts-expect-error delayReplication takes milliseconds as a number
  await cluster.delayReplication(0, '1s');

  void [bootstrap, brokers, url, topics, end, groups, lag, committed, firstAssignment, armed, now, manual];
  void [generation, stable, metrics, exit, args, file];

  // @ts-expect-error topics maps names to partition counts
  await Broker.start({ topics: ['orders'] });
  // @ts-expect-error the fault fields are camelCase: latencyMs
  await broker.inject({ api: 'Produce', latency_ms: 5 });
  // @ts-expect-error coordinator is 'unavailable' or 'moved'
  await broker.inject({ coordinator: 'gone' });
  // @ts-expect-error advance takes milliseconds as a number
  await broker.advance('45s');
  // @ts-expect-error not an event type
  await broker.events({ type: 'rebalanced' });
  // @ts-expect-error the constructor is private: use Broker.start
  new Broker();
}
void harness;
