// Cluster timeline view: the cluster's events (ClusterEvents: brokers stopped, started or
// isolated, leader elections with unclean ones marked, ISR changes, coordinator moves,
// reassignments), newest first, in the
// timeline panel beside the selected group's rebalances. Loads GET /v1/events/log, then
// follows the EventFeed. Hidden with one broker, which has no such events.

import { getJson } from './api.js';
import { ClusterEvents } from './cluster_events.js';
import { html } from './dom.js';

export class ClusterTimelineView {
  constructor(feed, announce) {
    this.announce = announce;
    this.root = document.getElementById('cluster-events');
    this.list = document.getElementById('cluster-event-list');
    this.error = document.getElementById('cluster-events-error');
    this.model = new ClusterEvents();
    this.clustered = false;
    this.loaded = false;
    this.early = []; // events that arrived while the log was loading
    feed.subscribe((event) => this.receive(event));
    this.load();
  }

  async load() {
    try {
      for (const event of await getJson('/v1/events/log')) this.model.apply(event);
      this.error.textContent = '';
    } catch (error) {
      this.error.textContent = error.message;
    }
    this.loaded = true;
    for (const event of this.early.splice(0)) this.model.apply(event);
    this.render();
  }

  setClustered(clustered) {
    if (clustered === this.clustered) return;
    this.clustered = clustered;
    this.render();
  }

  receive(event) {
    if (!this.loaded) {
      this.early.push(event);
      return;
    }
    const entry = this.model.apply(event);
    if (!entry) return;
    if (['unclean', 'broker', 'coordinator'].includes(entry.kind)) this.announce(`Cluster: ${entry.text}.`);
    this.render();
  }

  render() {
    const entries = this.model.entries;
    this.root.hidden = !this.clustered && entries.length === 0;
    if (entries.length === 0) {
      this.list.replaceChildren(html('li', { class: 'muted', text: 'No broker stopped, no leader moved yet.' }));
      return;
    }
    this.list.replaceChildren(...entries.map((entry) => html('li', {
      class: `cluster-event reason-${entry.kind}`, 'data-type': entry.type, 'data-event-id': entry.id, title: entry.detail,
    }, html('time', { datetime: new Date(entry.time_ms).toISOString(), text: new Date(entry.time_ms).toLocaleTimeString() }),
    ' ', entry.kind === 'unclean' ? html('strong', { text: entry.text }) : entry.text)));
  }
}
