// Groups view: every group (GET /v1/groups) as a list of buttons, each naming the broker that
// coordinates it; the selected group in full (GET /v1/groups/{id}): state, protocol,
// generation, coordinator, members with their assignment, and per partition its end offset,
// committed offset and lag, drawn as bars; a share group with each
// member's records held and per share-partition its offsets, records in flight by state and
// totals. Refreshed every 2 s and soon after each event of the group.

import { getJson } from './api.js';
import { html, svg, syncKeyed } from './dom.js';

const REFRESH_MS = 2000;
const EVENT_DELAY_MS = 150; // events come in bursts: refresh once after a burst
const BAR_WIDTH = 240;
const BAR_HEIGHT = 16;

export class GroupsView {
  constructor(feed, onSelect) {
    this.onSelect = onSelect;
    this.list = document.getElementById('group-list');
    this.empty = document.getElementById('groups-empty');
    this.error = document.getElementById('groups-error');
    this.detail = document.getElementById('group-detail');
    this.selected = null;
    this.pending = null;
    feed.subscribe((event) => { if (event.group_id) this.refreshSoon(); });
    setInterval(() => this.refresh(), REFRESH_MS);
    this.refresh();
  }

  refreshSoon() {
    if (this.pending) return;
    this.pending = setTimeout(() => { this.pending = null; this.refresh(); }, EVENT_DELAY_MS);
  }

  async refresh() {
    try {
      const { groups } = await getJson('/v1/groups');
      this.renderList(groups);
      this.error.textContent = '';
      this.onGroups?.(groups.map((g) => g.group_id));
    } catch (error) {
      this.error.textContent = error.message;
    }
    if (this.selected) await this.refreshDetail();
  }

  renderList(groups) {
    this.empty.hidden = groups.length > 0;
    syncKeyed(this.list, groups, (g) => g.group_id,
      (g) => {
        const button = html('button', { type: 'button', class: 'group-button',
          onclick: () => this.select(g.group_id) });
        return html('li', {}, button);
      },
      (li, g) => {
        const button = li.firstElementChild;
        button.setAttribute('aria-pressed', String(g.group_id === this.selected));
        button.dataset.groupId = g.group_id;
        button.replaceChildren(html('strong', { text: g.group_id }),
          html('span', { class: 'group-summary',
            text: `${g.type} · ${g.state} · ${g.members} member${g.members === 1 ? '' : 's'} · generation ${g.generation}${coordinatorSuffix(g)}` }));
      });
  }

  async select(groupId) {
    this.selected = groupId;
    for (const button of this.list.querySelectorAll('button')) {
      button.setAttribute('aria-pressed', String(button.dataset.groupId === groupId));
    }
    this.onSelect(groupId);
    await this.refreshDetail();
  }

  async refreshDetail() {
    const groupId = this.selected;
    let group;
    try {
      group = await getJson(`/v1/groups/${encodeURIComponent(groupId)}`);
    } catch (error) {
      if (groupId !== this.selected) return;
      this.detail.replaceChildren(html('h3', { text: groupId }), html('p', { class: 'error', text: error.message }));
      return;
    }
    if (groupId === this.selected) this.detail.replaceChildren(...renderGroup(group));
  }
}

// " · coordinator broker N" for the group list (nothing when no broker coordinates it now).
function coordinatorSuffix(group) {
  return group.coordinator === null || group.coordinator === undefined
    ? '' : ` · coordinator broker ${group.coordinator}`;
}

// The broker that coordinates the group, as a fact's value.
function coordinatorFact(group) {
  return ['Coordinator', group.coordinator === null || group.coordinator === undefined
    ? 'none now' : `broker ${group.coordinator}`];
}

function renderGroup(group) {
  if (group.type === 'share') return renderShareGroup(group);
  const facts = [
    ['State', group.state], ['Type', group.type], ['Protocol type', group.protocol_type || '—'],
    ['Assignor (protocol)', group.protocol || '—'], ['Generation', group.generation],
    ['Leader', group.leader ?? '—'], coordinatorFact(group), ['Total lag', group.lag],
  ];
  return [
    html('h3', { text: `Group ${group.group_id}` }),
    html('dl', { class: 'facts', 'data-group-id': group.group_id },
      facts.flatMap(([name, value]) => [html('dt', { text: name }), html('dd', { text: value })])),
    html('h4', { text: `Members (${group.members.length})` }),
    membersTable(group.members),
    html('h4', { text: 'Offsets and lag per partition' }),
    offsetsTable(group.offsets),
  ];
}

// A share group (KIP-932): members with the records each holds, and per share-partition its
// start and end offsets, the records in flight by state, and what happened to its records.
function renderShareGroup(group) {
  const settings = group.share_settings ?? {};
  const facts = [
    ['State', group.state], ['Type', group.type], ['Assignor', group.protocol || '—'],
    ['Group epoch', group.generation], coordinatorFact(group),
    ['Lock duration (ms)', settings['share.record.lock.duration.ms'] ?? '—'],
    ['Delivery count limit', settings['share.delivery.count.limit'] ?? '—'],
    ['Auto offset reset', settings['share.auto.offset.reset'] ?? '—'],
  ];
  return [
    html('h3', { text: `Share group ${group.group_id}` }),
    html('dl', { class: 'facts', 'data-group-id': group.group_id },
      facts.flatMap(([name, value]) => [html('dt', { text: name }), html('dd', { text: value })])),
    html('h4', { text: `Members (${group.members.length})` }),
    membersTable(group.members, true),
    html('h4', { text: 'Share-partitions' }),
    sharePartitionsTable(group.share_partitions ?? []),
  ];
}

function sharePartitionsTable(partitions) {
  if (partitions.length === 0) return html('p', { class: 'muted', text: 'No share-partitions yet.' });
  const columns = ['Topic', 'Partition', 'Start offset', 'End offset', 'Available', 'Acquired',
    'Acknowledged', 'Archived', 'Deliveries', 'Redeliveries', 'Accepted', 'Released', 'Rejected',
    'Archived at limit', 'Locks expired'];
  return html('table', { class: 'data share-partitions' },
    html('thead', {}, html('tr', {}, columns.map((name) => html('th', { scope: 'col', text: name })))),
    html('tbody', {}, partitions.map((p) => html('tr', {
      'data-topic': p.topic, 'data-partition': p.partition,
    }, [
      html('td', { text: p.topic }), html('td', { class: 'num', text: p.partition }),
      ...[p.start_offset, p.end_offset, p.in_flight.available, p.in_flight.acquired,
        p.in_flight.acknowledged, p.in_flight.archived, p.totals.deliveries,
        p.totals.redeliveries, p.totals.accepted, p.totals.released, p.totals.rejected,
        p.totals.archived_by_limit, p.totals.locks_expired]
        .map((value) => html('td', { class: 'num', text: value })),
    ]))));
}

function assignmentText(assignment) {
  if (assignment === null) return 'not decodable';
  if (assignment.length === 0) return 'none';
  return assignment.map((t) => `${t.topic}: ${t.partitions.join(', ')}`).join('; ');
}

// withHeld: a share group's members, with the records each holds (acquired, not acknowledged).
function membersTable(members, withHeld = false) {
  if (members.length === 0) return html('p', { class: 'muted', text: 'No members.' });
  const columns = ['Member id', 'Client id', 'Host', 'Assignment', ...(withHeld ? ['Records held'] : [])];
  return html('table', { class: 'data members' },
    html('thead', {}, html('tr', {}, columns.map((name) => html('th', { scope: 'col', text: name })))),
    html('tbody', {}, members.map((m) => html('tr', {
      'data-member-id': m.member_id,
      'data-partitions': JSON.stringify(m.assignment ?? []),
    }, html('td', { class: 'mono', text: m.member_id }), html('td', { text: m.client_id }),
    html('td', { text: m.host }), html('td', { class: 'assignment', text: assignmentText(m.assignment) }),
    ...(withHeld ? [html('td', { class: 'num records-held', text: m.records_held ?? 0 })] : [])))));
}

function offsetsTable(offsets) {
  if (offsets.length === 0) return html('p', { class: 'muted', text: 'No committed or assigned partitions.' });
  const scale = Math.max(1, ...offsets.map((o) => o.end_offset ?? 0));
  return html('table', { class: 'data offsets' },
    html('thead', {}, html('tr', {}, ['Topic', 'Partition', 'End offset', 'Committed', 'Lag', 'Committed (filled) and lag (outlined)']
      .map((name) => html('th', { scope: 'col', text: name })))),
    html('tbody', {}, offsets.map((o) => html('tr', {
      class: 'lag-row',
      'data-topic': o.topic,
      'data-partition': o.partition,
      'data-end-offset': o.end_offset ?? '',
      'data-committed': o.committed ?? '',
      'data-lag': o.lag ?? '',
    }, html('td', { text: o.topic }), html('td', { text: o.partition }),
    html('td', { class: 'num', text: o.end_offset ?? '—' }), html('td', { class: 'num', text: o.committed ?? '—' }),
    html('td', { class: 'num lag', text: o.lag ?? '—' }), html('td', {}, lagBar(o, scale))))));
}

// The partition's log up to its end offset: the committed part filled, the lag outlined.
function lagBar(offset, scale) {
  const end = offset.end_offset ?? 0;
  const lag = offset.lag ?? 0;
  const done = Math.max(0, end - lag);
  const x = (value) => (value / scale) * BAR_WIDTH;
  return svg('svg', { class: 'lag-bar', width: BAR_WIDTH, height: BAR_HEIGHT, role: 'img',
    'aria-label': `end offset ${end}, committed ${offset.committed ?? 'none'}, lag ${lag}` },
  svg('rect', { class: 'bar-track', x: 0, y: 2, width: BAR_WIDTH, height: BAR_HEIGHT - 4 }),
  svg('rect', { class: 'bar-committed', x: 0, y: 2, width: x(done), height: BAR_HEIGHT - 4 }),
  svg('rect', { class: 'bar-lag', x: x(done), y: 2, width: x(lag), height: BAR_HEIGHT - 4 }));
}
