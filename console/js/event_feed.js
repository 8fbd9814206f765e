// EventFeed: kgroupsd's events (GET /v1/events, server-sent events) for the whole console.
// Tells each subscriber every new event once, in id order; keeps the newest ones so a view
// that has just loaded /v1/events/log can catch up on what arrived meanwhile; after a drop it
// reopens from the last id it saw (the server ignores Last-Event-ID, so `since` it is).

import { CLUSTER_EVENT_TYPES } from './cluster_events.js';

// Every type docs/HTTP-API.md lists, records_replayed and the cluster's: SSE messages carry
// their type as the event name, so each needs its own listener.
export const EVENT_TYPES = [
  'topic_created', 'topic_deleted', 'member_joined', 'member_left', 'member_expired',
  'rebalance_started', 'rebalance_completed', 'offsets_committed', 'group_deleted',
  'records_replayed', 'records_released', ...CLUSTER_EVENT_TYPES,
];
const KEPT = 2000; // newest events kept for catching up
const REOPEN_DELAY_MS = 1000;

export class EventFeed {
  constructor(onStatus) {
    this.onStatus = onStatus; // (text, live: boolean)
    this.lastId = null;       // null until the stream is open: then the newest id seen
    this.recent = [];
    this.listeners = new Set();
    this.source = null;
  }

  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // Events kept here with id > `id`, for group `group` (topic events too).
  since(id, group) {
    return this.recent.filter((e) => e.id > id && (!e.group_id || e.group_id === group));
  }

  // Resolves once the stream is open (bounded by the browser's own connect timeout).
  open() {
    const url = this.lastId === null ? '/v1/events' : `/v1/events?since=${this.lastId}`;
    const source = new EventSource(url);
    this.source = source;
    for (const type of EVENT_TYPES) {
      source.addEventListener(type, (message) => this.receive(JSON.parse(message.data)));
    }
    source.addEventListener('error', () => {
      if (this.source !== source) return;
      source.close();
      this.onStatus('Event stream lost; reconnecting…', false);
      setTimeout(() => this.open(), REOPEN_DELAY_MS);
    });
    return new Promise((resolve) => {
      source.addEventListener('open', () => {
        if (this.lastId === null) this.lastId = 0;
        this.onStatus('Live: following kgroupsd’s events', true);
        resolve();
      }, { once: true });
    });
  }

  receive(event) {
    if (event.id <= this.lastId) return; // already seen before a reconnect
    this.lastId = event.id;
    this.recent.push(event);
    if (this.recent.length > KEPT) this.recent.splice(0, this.recent.length - KEPT);
    for (const listener of this.listeners) listener(event);
  }
}
