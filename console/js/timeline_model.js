// TimelineModel: one group's rebalance history built from its events (docs/HTTP-API.md,
// "Events"): a column per completed rebalance (generation) holding each member's partitions,
// the reasons that led to it (joins, leaves, expiries, other rebalance causes) and the records
// delivered again after it (records_replayed events of that generation). A broker stopped,
// started or isolated (--brokers N) is a reason too: the group's coordinator may have moved
// with it. Plain data, no DOM:
// tests/browser/timeline_model.test.mjs checks it directly.

import { describeClusterEvent } from './cluster_events.js';

const MAX_COLUMNS = 200; // oldest columns are dropped beyond this
// Events of no group that are reasons in every group's timeline.
export const BROKER_EVENT_TYPES = ['broker_stopped', 'broker_started', 'broker_isolated'];

// "kafkajs-6f1c2e3d-4299-..." → "kafkajs-6f1c2e3d…": the client id and the first part of the
// UUID Kafka appends, enough to tell members of one client apart at a glance.
export function shortMemberId(memberId) {
  const uuid = /^(.*-[0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.exec(memberId);
  if (uuid) return `${uuid[1]}…`;
  return memberId.length > 24 ? `${memberId.slice(0, 23)}…` : memberId;
}

export class TimelineModel {
  constructor(group) {
    this.group = group;
    this.lastId = 0;
    this.columns = [];      // [{generation, protocol, assignment: {member: [{topic, partitions}]}, reasons: [{kind, text, detail}]}]
    this.pending = [];      // reasons seen since the last completed rebalance
    this.members = [];      // member ids in the order they first appear in a column
    this.replayed = new Map(); // generation → records delivered again
  }

  // Applies one event (ignored if it is another group's or already applied). Returns the new
  // column when the event completed a rebalance, else null.
  apply(event) {
    if (event.id <= this.lastId || !this.concerns(event)) return null;
    this.lastId = event.id;
    switch (event.type) {
      case 'broker_stopped':
      case 'broker_started':
      case 'broker_isolated':
        this.pending.push(describeClusterEvent(event));
        return null;
      case 'member_joined':
        this.pending.push(memberReason('joined', event));
        return null;
      case 'member_left':
        this.pending.push(memberReason('left', event));
        return null;
      case 'member_expired':
        this.pending.push(memberReason('expired', event));
        return null;
      case 'rebalance_started':
        // Its reason repeats a join, leave or expiry already listed; keep the others
        // (e.g. "the subscribed topics' metadata changed", "member X rejoined").
        if (!this.pending.some((r) => r.member && event.reason?.includes(r.member))) {
          this.pending.push({ kind: 'rebalance', text: event.reason ?? 'rebalance', detail: event.reason });
        }
        return null;
      case 'group_deleted':
        this.pending.push({ kind: 'deleted', text: 'group deleted', detail: 'DeleteGroups' });
        return null;
      case 'records_replayed':
        this.replayed.set(event.generation,
          (this.replayed.get(event.generation) ?? 0) + (event.count ?? 0));
        return null;
      case 'rebalance_completed':
        return this.complete(event);
      default:
        return null;
    }
  }

  // Whether the event belongs in this group's timeline: the group's own, or a broker's.
  concerns(event) {
    return event.group_id === this.group || (!event.group_id && BROKER_EVENT_TYPES.includes(event.type));
  }

  complete(event) {
    const column = {
      generation: event.generation,
      protocol: event.protocol,
      assignment: event.assignment ?? {},
      reasons: this.pending,
    };
    this.pending = [];
    for (const member of Object.keys(column.assignment)) {
      if (!this.members.includes(member)) this.members.push(member);
    }
    this.columns.push(column);
    if (this.columns.length > MAX_COLUMNS) this.columns.shift();
    return column;
  }

  replayedAfter(generation) {
    return this.replayed.get(generation) ?? 0;
  }
}

function memberReason(kind, event) {
  return {
    kind,
    member: event.member_id,
    text: `${event.client_id || shortMemberId(event.member_id)} ${kind}`,
    detail: event.reason ?? `member ${event.member_id} ${kind}`,
  };
}
