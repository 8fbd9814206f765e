// Topics view: every topic's partitions (log start, end offset, bytes) and a sparkline of each
// partition's produce rate over the last minute, computed here by polling GET /v1/topics every
// second and differencing end offsets. In a cluster (--brokers N) also each partition's leader,
// replicas, in-sync replicas (those out of sync marked) and log end offset beside the high
// watermark. With --log-dirs also each partition's segment files (base offset, size, whether
// active or cleaned), so retention and compaction can be watched acting on files.

import { getJson } from './api.js';
import { html, svg } from './dom.js';

const POLL_MS = 1000;
const SAMPLES = 60;
const SPARK_WIDTH = 120;
const SPARK_HEIGHT = 24;

export class TopicsView {
  constructor() {
    this.root = document.getElementById('topic-list');
    this.error = document.getElementById('topics-error');
    this.previous = new Map(); // "topic/partition" → {end, time}
    this.rates = new Map();    // "topic/partition" → [records/s, ...] oldest first
    this.clustered = false;    // several brokers: show leaders and replicas
    this.topics = null;        // the last GET /v1/topics answer
    setInterval(() => this.poll(), POLL_MS);
    this.poll();
  }

  async poll() {
    try {
      const { topics } = await getJson('/v1/topics');
      this.record(topics, performance.now());
      this.topics = topics;
      this.render(topics);
      this.error.textContent = '';
    } catch (error) {
      this.error.textContent = error.message;
    }
  }

  record(topics, now) {
    for (const topic of topics) {
      for (const p of topic.partitions) {
        const key = `${topic.name}/${p.partition}`;
        const before = this.previous.get(key);
        this.previous.set(key, { end: p.end_offset, time: now });
        if (!before || now <= before.time) continue;
        const rate = Math.max(0, (p.end_offset - before.end) / ((now - before.time) / 1000));
        const rates = this.rates.get(key) ?? [];
        rates.push(rate);
        if (rates.length > SAMPLES) rates.shift();
        this.rates.set(key, rates);
      }
    }
  }

  setClustered(clustered) {
    if (clustered === this.clustered) return;
    this.clustered = clustered;
    if (this.topics) this.render(this.topics);
  }

  render(topics) {
    this.onDisk = topics.some((topic) => topic.partitions.some((p) => p.segments));
    if (topics.length === 0) {
      this.root.replaceChildren(html('p', { class: 'muted', text: 'No topics yet.' }));
      return;
    }
    this.root.replaceChildren(...topics.map((topic) => html('table', { class: 'data topic', 'data-topic': topic.name },
      html('caption', { text: `${topic.name} (${topic.partitions.length} partition${topic.partitions.length === 1 ? '' : 's'})` }),
      html('thead', {}, html('tr', {}, this.columns().map((name) => html('th', { scope: 'col', text: name })))),
      html('tbody', {}, topic.partitions.map((p) => {
        const rates = this.rates.get(`${topic.name}/${p.partition}`) ?? [];
        return html('tr', { 'data-partition': p.partition, 'data-end-offset': p.end_offset,
          'data-leader': p.leader, 'data-isr': (p.isr ?? []).join(',') },
        html('td', { text: p.partition }),
        this.clustered ? replicationCells(p) : null,
        html('td', { class: 'num', text: p.log_start_offset }),
        html('td', { class: 'num', text: p.end_offset }),
        this.clustered ? html('td', { class: 'num', text: p.log_end_offset }) : null,
        html('td', { class: 'num', text: p.bytes }),
        html('td', {}, sparkline(rates)),
        this.onDisk ? segmentsCell(p) : null);
      })))));
  }

  columns() {
    const segments = this.onDisk ? ['Segment files'] : [];
    if (!this.clustered) {
      return ['Partition', 'Log start', 'End offset', 'Bytes', 'Produce rate (last minute)', ...segments];
    }
    return ['Partition', 'Leader', 'Replicas', 'In-sync replicas', 'Log start', 'High watermark', 'Log end',
      'Bytes', 'Produce rate (last minute)', ...segments];
  }
}

// Leader, replicas and ISR of a partition; replicas out of the ISR are marked.
function replicationCells(p) {
  const isr = new Set(p.isr ?? []);
  const leader = p.leader < 0
    ? html('td', { class: 'offline', text: 'offline' })
    : html('td', { text: `broker ${p.leader}`, title: `leader epoch ${p.leader_epoch}` });
  const replicas = html('td', {}, (p.replicas ?? []).map((node) => html('span', {
    class: isr.has(node) ? 'replica' : 'replica out-of-sync', title: isr.has(node) ? 'in sync' : 'out of sync',
    text: node })));
  const short = isr.size < (p.replicas ?? []).length;
  const inSync = html('td', { class: short ? 'under-replicated' : undefined, 'data-cell': 'isr',
    text: `${[...isr].join(', ') || 'none'}${short ? ` (${isr.size} of ${p.replicas.length})` : ''}` });
  return [leader, replicas, inSync];
}

// The partition's segment files (--log-dirs), oldest first: each named by its base offset as
// Kafka names the file, with its size; the active one and those the cleaner rewrote marked.
function segmentsCell(p) {
  const segments = p.segments ?? [];
  const hidden = (p.segment_count ?? segments.length) - segments.length;
  return html('td', { class: 'segments', 'data-cell': 'segments' },
    hidden > 0 ? html('span', { class: 'muted', text: `${hidden} older, ` }) : null,
    segments.map((s) => html('span', {
      class: `segment${s.active ? ' active' : ''}${s.cleaned ? ' cleaned' : ''}`,
      title: `${String(s.base_offset).padStart(20, '0')}.log: offsets ${s.base_offset}–${s.end_offset - 1}, ` +
        `${s.batches} batch${s.batches === 1 ? '' : 'es'}${s.active ? ', active' : ''}${s.cleaned ? ', cleaned' : ''}`,
      text: `${s.base_offset} (${formatBytes(s.bytes)}${s.active ? ', active' : ''}${s.cleaned ? ', cleaned' : ''})`,
    })));
}

function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

function sparkline(rates) {
  const now = rates.length ? rates[rates.length - 1] : 0;
  const label = `${now.toFixed(1)} records/s`;
  const top = Math.max(1, ...rates);
  const step = SPARK_WIDTH / (SAMPLES - 1);
  const offset = SAMPLES - rates.length;
  const points = rates.map((r, i) =>
    `${((offset + i) * step).toFixed(1)},${(SPARK_HEIGHT - 2 - (r / top) * (SPARK_HEIGHT - 4)).toFixed(1)}`);
  return html('span', { class: 'spark' },
    svg('svg', { width: SPARK_WIDTH, height: SPARK_HEIGHT, role: 'img', 'aria-label': `produce rate now ${label}, peak ${top.toFixed(1)} records/s` },
      svg('line', { class: 'spark-base', x1: 0, y1: SPARK_HEIGHT - 2, x2: SPARK_WIDTH, y2: SPARK_HEIGHT - 2 }),
      points.length > 1 ? svg('polyline', { class: 'spark-line', points: points.join(' ') }) : null),
    html('span', { class: 'spark-value', text: label }));
}
