// ClusterEvents: what happened to the brokers of a cluster (--brokers N; docs/CLUSTER.md), as
// lines for the timeline: brokers stopped, started or isolated, leaders elected (unclean ones
// marked, with the records they lost), in-sync replica sets that shrank or grew. Keeps the
// newest MAX_ENTRIES, newest first. Plain data, no DOM: tests/browser/cluster_events.test.mjs
// checks it directly.

export const CLUSTER_EVENT_TYPES = [
  'broker_stopped', 'broker_started', 'broker_isolated', 'leader_elected', 'isr_shrunk', 'isr_expanded',
];
const MAX_ENTRIES = 200;

const nodes = (ids) => `[${(ids ?? []).join(', ')}]`;

// The timeline's line for one cluster event: {kind, text, detail}, or null for other events.
// `kind` names the CSS class (reason-<kind>): broker, election, unclean, isr.
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
