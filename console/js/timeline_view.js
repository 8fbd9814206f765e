// Timeline view: the selected group's rebalance timeline (TimelineModel) as a table, one row
// per member and one column per generation, each member's partitions as numbered blocks in a
// colour-blind-safe palette (console.css, .partition-N). Loads GET /v1/events/log?group=G,
// then follows the EventFeed; Pause buffers live events and applies them on resume.

import { getJson } from './api.js';
import { html } from './dom.js';
import { TimelineModel, shortMemberId } from './timeline_model.js';

const PALETTE_SIZE = 8; // Okabe-Ito colours in console.css

export class TimelineView {
  constructor(feed, announce) {
    this.feed = feed;
    this.announce = announce;
    this.select = document.getElementById('timeline-group');
    this.pauseButton = document.getElementById('timeline-pause');
    this.bufferedText = document.getElementById('timeline-buffered');
    this.view = document.getElementById('timeline-view');
    this.error = document.getElementById('timeline-error');
    this.model = null;
    this.loading = false;
    this.paused = false;
    this.buffered = [];
    this.select.addEventListener('change', () => this.show(this.select.value));
    this.pauseButton.addEventListener('click', () => this.setPaused(!this.paused));
    feed.subscribe((event) => this.receive(event));
    this.render();
  }

  // Keeps the group choices in step with GET /v1/groups.
  setGroups(groupIds) {
    const wanted = new Set(groupIds);
    if (this.model) wanted.add(this.model.group);
    const have = new Set([...this.select.options].map((o) => o.value).filter(Boolean));
    for (const id of wanted) {
      if (!have.has(id)) this.select.append(html('option', { value: id, text: id }));
    }
  }

  async show(group) {
    if (this.model?.group === group) return;
    this.setGroups([group].filter(Boolean));
    this.select.value = group;
    this.buffered = [];
    this.model = group ? new TimelineModel(group) : null;
    if (!group) return this.render();
    this.loading = true;
    const model = this.model;
    try {
      const events = await getJson(`/v1/events/log?group=${encodeURIComponent(group)}`);
      for (const event of events) model.apply(event);
      for (const event of this.feed.since(model.lastId, group)) model.apply(event);
      this.error.textContent = '';
    } catch (error) {
      this.error.textContent = error.message;
    } finally {
      if (this.model === model) this.loading = false;
    }
    if (this.model === model) this.render();
  }

  receive(event) {
    if (!this.model || this.loading || !this.model.concerns(event)) return;
    if (this.paused) {
      this.buffered.push(event);
      this.bufferedText.textContent = `${this.buffered.length} event(s) waiting`;
      return;
    }
    this.applyLive([event]);
  }

  applyLive(events) {
    let changed = false;
    for (const event of events) {
      changed = true;
      const column = this.model.apply(event);
      if (column) {
        const members = Object.keys(column.assignment).length;
        const why = column.reasons.map((r) => r.text).join(', ');
        this.announce(`Group ${this.model.group} rebalanced: generation ${column.generation}, ` +
          `${members} member${members === 1 ? '' : 's'}${why ? ` (${why})` : ''}.`);
      }
    }
    if (changed) this.render();
  }

  setPaused(paused) {
    this.paused = paused;
    this.pauseButton.setAttribute('aria-pressed', String(paused));
    this.pauseButton.textContent = paused ? 'Resume' : 'Pause';
    if (!paused) {
      const events = this.buffered;
      this.buffered = [];
      this.bufferedText.textContent = '';
      if (this.model) this.applyLive(events);
    } else {
      this.bufferedText.textContent = 'Paused: new events are kept and shown on resume';
    }
  }

  render() {
    const model = this.model;
    if (!model) {
      this.view.replaceChildren(html('p', { class: 'muted', text: 'Choose a group to see its rebalances.' }));
      return;
    }
    if (model.columns.length === 0) {
      this.view.replaceChildren(html('p', { class: 'muted', text: `Group ${model.group} has not completed a rebalance yet.` }));
      return;
    }
    const columns = model.columns;
    const head = html('tr', {}, html('th', { scope: 'col', text: 'Member' }),
      columns.map((c) => html('th', { scope: 'col', 'data-generation': c.generation },
        `Generation ${c.generation}`, c.protocol ? html('span', { class: 'protocol', text: c.protocol }) : null)));
    const rows = model.members.map((member) => html('tr', { 'data-member-id': member },
      html('th', { scope: 'row', title: member, text: shortMemberId(member) }),
      columns.map((c) => memberCell(c, member))));
    const reasons = html('tr', { class: 'reasons' }, html('th', { scope: 'row', text: 'Why' }),
      columns.map((c) => html('td', {},
        c.reasons.length === 0 ? '—' : html('ul', {}, c.reasons.map((r) =>
          html('li', { class: `reason reason-${r.kind}`, title: r.detail, text: r.text }))))));
    const replayed = html('tr', { class: 'replayed' }, html('th', { scope: 'row', text: 'Replayed after' }),
      columns.map((c) => html('td', { 'data-generation': c.generation, 'data-replayed': model.replayedAfter(c.generation),
        text: `${model.replayedAfter(c.generation)} records` })));
    this.view.replaceChildren(html('table', { class: 'timeline', 'data-group': model.group },
      html('caption', { text: `Rebalances of group ${model.group} (${columns.length} generations)` }),
      html('thead', {}, head), html('tbody', {}, rows), html('tfoot', {}, reasons, replayed)));
    this.view.scrollLeft = this.view.scrollWidth;
  }
}

function memberCell(column, member) {
  const topics = column.assignment[member];
  if (topics === undefined) return html('td', { class: 'absent', text: '' });
  if (topics === null) return html('td', { text: 'in group (assignment not decodable)' });
  const several = topics.length > 1;
  const blocks = topics.flatMap((t) => t.partitions.map((p) => html('span', {
    class: `block partition-${p % PALETTE_SIZE}`,
    title: `${t.topic} partition ${p}`,
    'data-topic': t.topic,
    'data-partition': p,
    text: several ? `${t.topic}-${p}` : p,
  })));
  return html('td', { 'data-generation': column.generation, 'data-member-id': member },
    blocks.length ? blocks : html('span', { class: 'muted', text: 'no partitions' }));
}
