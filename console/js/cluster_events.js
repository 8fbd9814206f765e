// ClusterEvents: what happened to the brokers of a cluster (--brokers N; docs/CLUSTER.md), as
// lines for the timeline: brokers stopped, started or isolated, leaders elected (unclean ones
// marked, with the records they lost), in-sync replica sets that shrank or grew, coordinators
// that moved (of groups: a __consumer_offsets partition's; of transactions: a
// __transaction_state partition's), reassignments started, completed or cancelled. Keeps the
// newest MAX_ENTRIES, newest first. Plain data, no DOM: tests/browser/cluster_events.test.mjs
// checks it directly.

export const CLUSTER_EVENT_TYPES = [
  'broker_stopped', 'broker_started', 'broker_isolated', 'leader_elected', 'isr_shrunk', 'isr_expanded',
  'coordinator_moved', 'reassignment_started', 'reassignment_completed', 'reassignment_cancelled',
];
const MAX_ENTRIES = 200;

const nodes = (ids) => `[${(ids ?? []).join(', ')}]`;

// coordinator_moved names the internal partition whose leader coordinates now: offsets_partition
// (groups) or transaction_state_partition (transactional ids).
function describeCoordinatorMove(event) {
  const transactional = event.transaction_state_partition !== undefined;
  const partition = transactional
    ? `__transaction_state-${event.transaction_state_partition}`
    : `__consumer_offsets-${event.offsets_partition}`;
  const whose = transactional ? 'the transactional ids' : 'the groups';
  if (event.coordinator < 0) {
    return { kind: 'coordinator', text: `coordinator of ${partition} is offline`, detail: `${whose} it holds have no coordinator until it gets a leader` };
  }
  return {
    kind: 'coordinator',
    text: `coordinator of ${partition} moved to broker ${event.coordinator}`,
    detail: `${whose} whose records it holds are coordinated by broker ${event.coordinator} now; clients find it with FindCoordinator`,
  };
}

function describeReassignment(event, partition) {
  const target = `reassignment of ${partition} to ${nodes(event.target_replicas)}`;
  switch (event.type) {
    case 'reassignment_started': {
      const changes = [];
      if (event.adding_replicas?.length) changes.push(`adding ${nodes(event.adding_replicas)}`);
      if (event.removing_replicas?.length) changes.push(`removing ${nodes(event.removing_replicas)}`);
      const what = changes.length > 0 ? `: ${changes.join(', ')}` : ' (the same replicas, reordered)';
      return { kind: 'reassignment', text: `${target} started${what}`, detail: `replicas while it runs: ${nodes(event.replicas)}; added ones catch up and join the ISR` };
    }
    case 'reassignment_completed':
      return { kind: 'reassignment', text: `${target} completed`, detail: 'every target is in the ISR and the leaving replicas went' };
    default:
      return { kind: 'reassignment', text: `${target} cancelled: back on ${nodes(event.replicas)}`, detail: 'the original replicas are back and the added ones went' };
  }
}

// The timeline's line for one cluster event: {kind, text, detail}, or null for other events.
// `kind` names the CSS class (reason-<kind>): broker, election, unclean, isr, coordinator,
// reassignment.
export function describeClusterEvent(event) {
  const partition = `${event.topic}-${event.partition}`;
  switch (event.type) {
    case 'broker_stopped':
      return { kind: 'broker', text: `broker ${event.broker} stopped`, detail: 'its listener refuses, its replicas are offline' };
    case 'broker_started':
      return { kind: 'broker', text: `broker ${event.broker} started`, detail: 'its replicas catch up and rejoin the ISR' };
    case 'broker_isolated':
      return { kind: 'broker', text: `broker ${event.broker} isolated`, detail: 'it answers its clients but is cut from replication' };
    case 'leader_elected': {
      const leader = event.leader < 0 ? 'no leader (offline)' : `leader broker ${event.leader}`;
      if (event.unclean) {
        return {
          kind: 'unclean',
          text: `unclean election: ${partition} → ${leader}, ${event.lost_records} record${event.lost_records === 1 ? '' : 's'} lost`,
          detail: `an out-of-sync replica was elected at epoch ${event.leader_epoch}; the log was cut to what it holds`,
        };
      }
      const lost = event.lost_records > 0 ? `, ${event.lost_records} unacknowledged record${event.lost_records === 1 ? '' : 's'} cut` : '';
      return { kind: 'election', text: `${partition} → ${leader} (epoch ${event.leader_epoch})${lost}`, detail: 'leader elected from the ISR' };
    }
    case 'isr_shrunk':
      return { kind: 'isr', text: `ISR of ${partition} shrank to ${nodes(event.isr)}`, detail: 'a replica fell behind or stopped' };
    case 'isr_expanded':
      return { kind: 'isr', text: `ISR of ${partition} grew to ${nodes(event.isr)}`, detail: 'a replica caught up' };
    case 'coordinator_moved':
      return describeCoordinatorMove(event);
    case 'reassignment_started':
    case 'reassignment_completed':
    case 'reassignment_cancelled':
      return describeReassignment(event, partition);
    default:
      return null;
  }
}

export class ClusterEvents {
  constructor() {
    this.lastId = 0;
    this.entries = []; // [{id, time_ms, type, kind, text, detail}], newest first
  }

  // Applies one event (ignored unless it is a cluster event not applied yet); returns its
  // entry or null.
  apply(event) {
    if (event.id <= this.lastId) return null;
    const line = describeClusterEvent(event);
    if (!line) return null;
    this.lastId = event.id;
    const entry = { id: event.id, time_ms: event.time_ms, type: event.type, ...line };
    this.entries.unshift(entry);
    if (this.entries.length > MAX_ENTRIES) this.entries.length = MAX_ENTRIES;
    return entry;
  }
}
