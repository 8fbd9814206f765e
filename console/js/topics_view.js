// Topics view: every topic's partitions (log start, end offset, bytes) and a sparkline of each
// partition's produce rate over the last minute, computed here by polling GET /v1/topics every
// second and differencing end offsets.

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
    setInterval(() => this.poll(), POLL_MS);
    this.poll();
  }

  async poll() {
    try {
      const { topics } = await getJson('/v1/topics');
      this.record(topics, performance.now());
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

  render(topics) {
    if (topics.length === 0) {
      this.root.replaceChildren(html('p', { class: 'muted', text: 'No topics yet.' }));
      return;
    }
    this.root.replaceChildren(...topics.map((topic) => html('table', { class: 'data topic', 'data-topic': topic.name },
      html('caption', { text: `${topic.name} (${topic.partitions.length} partition${topic.partitions.length === 1 ? '' : 's'})` }),
      html('thead', {}, html('tr', {}, ['Partition', 'Log start', 'End offset', 'Bytes', 'Produce rate (last minute)']
        .map((name) => html('th', { scope: 'col', text: name })))),
      html('tbody', {}, topic.partitions.map((p) => {
        const rates = this.rates.get(`${topic.name}/${p.partition}`) ?? [];
        return html('tr', { 'data-partition': p.partition, 'data-end-offset': p.end_offset },
          html('td', { text: p.partition }), html('td', { class: 'num', text: p.log_start_offset }),
          html('td', { class: 'num', text: p.end_offset }), html('td', { class: 'num', text: p.bytes }),
          html('td', {}, sparkline(rates)));
      })))));
  }
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
