// Brokers view: the brokers of the cluster (GET /v1/brokers: --brokers N, docs/CLUSTER.md),
// each with its address, state, whether it is the controller and how many partitions it leads
// and holds, and Stop / Start / Isolate buttons that call POST /v1/brokers/{id}/stop|start|
// isolate. Polled every second and soon after each cluster event. With one broker the panel is
// a single line: there is nothing to stop and start.

import { getJson, postJson } from './api.js';
import { CLUSTER_EVENT_TYPES } from './cluster_events.js';
import { html, syncKeyed } from './dom.js';

const POLL_MS = 1000;
const EVENT_DELAY_MS = 100; // a stop publishes a burst of events: refresh once after it

// The buttons of a broker row, and the states each one is enabled in.
const ACTIONS = [
  { action: 'stop', label: 'Stop', when: ['running', 'isolated'], done: 'stopped' },
  { action: 'start', label: 'Start', when: ['stopped', 'isolated'], done: 'started' },
  { action: 'isolate', label: 'Isolate', when: ['running'], done: 'isolated' },
];

export class BrokersView {
  // onBrokers(brokers) is called after every refresh with GET /v1/brokers' list.
  constructor(feed, announce, onBrokers) {
    this.announce = announce;
    this.onBrokers = onBrokers;
    this.section = document.getElementById('brokers');
    this.navLink = document.getElementById('brokers-nav');
    this.summary = document.getElementById('brokers-summary');
    this.table = document.getElementById('broker-table');
    this.rows = this.table.querySelector('tbody');
    this.status = document.getElementById('brokers-status');
    this.error = document.getElementById('brokers-error');
    this.busy = new Set(); // broker ids with a request under way
    this.pending = null;
    feed.subscribe((event) => { if (CLUSTER_EVENT_TYPES.includes(event.type)) this.refreshSoon(); });
    setInterval(() => this.refresh(), POLL_MS);
    this.refresh();
  }

  refreshSoon() {
    if (this.pending) return;
    this.pending = setTimeout(() => { this.pending = null; this.refresh(); }, EVENT_DELAY_MS);
  }

  async refresh() {
    try {
      const cluster = await getJson('/v1/brokers');
      this.render(cluster);
      this.error.textContent = '';
      this.onBrokers?.(cluster.brokers);
    } catch (error) {
      this.error.textContent = error.message;
    }
  }

  render({ brokers, controller }) {
    const clustered = brokers.length > 1;
    this.section.classList.toggle('compact', !clustered);
    this.navLink.hidden = !clustered;
    this.table.hidden = !clustered;
    if (!clustered) {
      const only = brokers[0];
      this.summary.textContent = only
        ? `One broker, ${only.host}:${only.port}. Start kgroupsd with --brokers 3 for a cluster whose brokers can be stopped and started here.`
        : 'No brokers.';
      return;
    }
    const running = brokers.filter((b) => b.state === 'running').length;
    this.summary.textContent = `${brokers.length} brokers, ${running} running; ` +
      (controller >= 0 ? `broker ${controller} is the controller.` : 'no controller: no broker runs.');
    syncKeyed(this.rows, brokers, (b) => b.id, (b) => this.createRow(b), (row, b) => this.updateRow(row, b));
  }

  createRow(broker) {
    const cells = ['id', 'address', 'state', 'controller', 'leads', 'holds']
      .map((name) => html(name === 'id' ? 'th' : 'td', { scope: name === 'id' ? 'row' : undefined, 'data-cell': name,
        class: name === 'leads' || name === 'holds' ? 'num' : undefined }));
    const buttons = ACTIONS.map(({ action, label }) => html('button', {
      type: 'button', class: `broker-${action}`, 'data-action': action, 'data-broker': broker.id,
      'aria-label': `${label} broker ${broker.id}`, text: label,
      onclick: () => this.act(broker.id, action),
    }));
    return html('tr', { 'data-broker': broker.id }, cells, html('td', {}, html('span', { class: 'actions' }, buttons)));
  }

  updateRow(row, broker) {
    row.dataset.state = broker.state;
    const cell = (name) => row.querySelector(`[data-cell="${name}"]`);
    cell('id').textContent = `broker ${broker.id}`;
    cell('address').textContent = `${broker.host}:${broker.port}`;
    const delay = broker.replication_delay_ms > 0 ? `, followers fetch every ${broker.replication_delay_ms} ms` : '';
    cell('state').replaceChildren(html('span', { class: `state state-${broker.state}`, text: broker.state }), delay);
    cell('controller').textContent = broker.controller ? 'controller' : '';
    cell('leads').textContent = broker.leader_partitions;
    cell('holds').textContent = broker.replica_partitions;
    for (const button of row.querySelectorAll('button[data-action]')) {
      const { when } = ACTIONS.find((a) => a.action === button.dataset.action);
      button.disabled = this.busy.has(broker.id) || !when.includes(broker.state);
    }
  }

  async act(id, action) {
    const { done } = ACTIONS.find((a) => a.action === action);
    this.busy.add(id);
    for (const button of this.rows.querySelectorAll(`button[data-broker="${id}"]`)) button.disabled = true;
    try {
      const broker = await postJson(`/v1/brokers/${id}/${action}`, {});
      this.status.textContent = `Broker ${id} ${done}: now ${broker.state}.`;
      this.announce(`Broker ${id} ${done}.`);
      this.error.textContent = '';
    } catch (error) {
      this.error.textContent = error.message;
    } finally {
      this.busy.delete(id);
    }
    await this.refresh();
  }
}
