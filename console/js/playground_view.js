// Playground view: start simulated consumers (group, topic, assignor) and producers (topic,
// rate) that kgroupsd runs itself, stop a consumer (it leaves the group) or crash it (it stops
// without leaving, so the coordinator expires it), stop a producer: the playground API of
// docs/HTTP-API.md. Polls GET /v1/playground every second; a failed call shows the API's
// message (404 when this kgroupsd has no playground).

import { deleteJson, getJson, postJson } from './api.js';
import { html, syncKeyed } from './dom.js';

const POLL_MS = 1000;

export class PlaygroundView {
  constructor(announce) {
    this.announce = announce;
    this.status = document.getElementById('playground-status');
    this.consumers = document.querySelector('#playground-consumers tbody');
    this.producers = document.querySelector('#playground-producers tbody');
    const consumerForm = document.getElementById('consumer-form');
    const producerForm = document.getElementById('producer-form');
    consumerForm.addEventListener('submit', (e) => {
      e.preventDefault();
      const data = new FormData(consumerForm);
      this.act(() => postJson('/v1/playground/consumers', {
        group: data.get('group'), topic: data.get('topic'), assignor: data.get('assignor'),
      }), (c) => `Started consumer ${c.id} in group ${c.group} (${c.assignor}).`);
    });
    producerForm.addEventListener('submit', (e) => {
      e.preventDefault();
      const data = new FormData(producerForm);
      this.act(() => postJson('/v1/playground/producers', {
        topic: data.get('topic'), rate: Number(data.get('rate')),
      }), (p) => `Started producer ${p.id} on ${p.topic} at ${p.rate} records/s.`);
    });
    setInterval(() => this.poll(), POLL_MS);
    this.poll();
  }

  // Runs one API call, says how it went, and refreshes the lists.
  async act(call, describe) {
    delete this.status.dataset.unavailable; // this action's outcome stays until the next one
    try {
      const result = await call();
      this.say(describe(result), false);
    } catch (error) {
      this.say(error.message, true);
    }
    await this.poll();
  }

  say(text, failed) {
    this.status.textContent = text;
    this.status.classList.toggle('error', failed);
  }

  async poll() {
    let state;
    try {
      state = await getJson('/v1/playground');
    } catch (error) {
      this.unavailable = error.message;
      if (!this.status.textContent || this.status.dataset.unavailable) {
        this.say(`The playground is not available: ${error.message}`, true);
        this.status.dataset.unavailable = 'true';
      }
      return;
    }
    if (this.status.dataset.unavailable) {
      delete this.status.dataset.unavailable;
      this.say('', false);
    }
    this.renderConsumers(state.consumers);
    this.renderProducers(state.producers);
  }

  renderConsumers(consumers) {
    syncKeyed(this.consumers, consumers, (c) => c.id,
      (c) => html('tr', { 'data-consumer-id': c.id },
        ...Array.from({ length: 8 }, () => html('td')),
        html('td', { class: 'actions' },
          html('button', { type: 'button', class: 'leave', 'aria-label': `Stop consumer ${c.id} (leave the group)`,
            onclick: () => this.act(() => deleteJson(`/v1/playground/consumers/${c.id}`),
              () => `Consumer ${c.id} left its group.`) }, 'Stop (leave)'),
          html('button', { type: 'button', class: 'crash', 'aria-label': `Crash consumer ${c.id} (no leave)`,
            onclick: () => this.act(() => deleteJson(`/v1/playground/consumers/${c.id}?crash=true`),
              () => `Consumer ${c.id} crashed; the coordinator expires it after its session timeout.`) }, 'Crash'))),
      (row, c) => {
        const cells = row.children;
        const values = [c.id, c.group, c.topic, `${c.assignor} (${c.protocol})`, c.state,
          c.assignment.length ? c.assignment.join(', ') : '—', c.consumed, c.replayed];
        values.forEach((value, i) => { cells[i].textContent = String(value); });
        row.dataset.state = c.state;
        for (const button of row.querySelectorAll('button')) button.disabled = c.state === 'stopped';
      });
  }

  renderProducers(producers) {
    syncKeyed(this.producers, producers, (p) => p.id,
      (p) => html('tr', { 'data-producer-id': p.id },
        html('td'), html('td'), html('td'), html('td'),
        html('td', { class: 'actions' },
          html('button', { type: 'button', 'aria-label': `Stop producer ${p.id}`,
            onclick: () => this.act(() => deleteJson(`/v1/playground/producers/${p.id}`),
              () => `Producer ${p.id} stopped.`) }, 'Stop'))),
      (row, p) => {
        const values = [p.id, p.topic, `${p.rate}/s`, p.produced];
        values.forEach((value, i) => { row.children[i].textContent = String(value); });
      });
  }
}
