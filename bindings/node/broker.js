// SPDX-License-Identifier: Apache-2.0
//
// kgroups/broker: a kgroupsd (the in-memory Kafka broker) for a test to start, provoke and
// inspect. Broker.start spawns kgroupsd on free loopback ports and resolves once it is ready;
// the methods are the HTTP API's routes (docs/HTTP-API.md) as promises: topics, groups with
// their members, assignment and lag, fault injection, the manual clock, the event log and
// the metrics, and with several brokers (`brokers: 3`) each broker's stop, start and
// isolation. Plain promises and no globals, so it works the same under node:test, Jest and
// Vitest. The child is killed by stop(), and if the test process ends first (kill_on_exit.js).
// With the `security` option it starts secured listeners (broker_security.js), and
// kafkajsConfig / rdkafkaConfig give a client what it needs to log in (client_config.js).
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const { BrokerError } = require('./broker_error.js');
const { kafkajsConfig, rdkafkaConfig } = require('./client_config.js');
const { ControlClient } = require('./control_client.js');
const { normalizeSecurity, prepareSecurity } = require('./broker_security.js');
const { findKgroupsd, kgroupsdArgs } = require('./kgroupsd_command.js');
const { killOnExit } = require('./kill_on_exit.js');

// The first listener's addresses (one HOST:PORT per broker, comma-separated: --brokers N),
// then each other listener's as ", PROTOCOL on ADDRESSES", then the HTTP address:
// "kgroupsd listening on 127.0.0.1:40001, SASL_SSL on 127.0.0.1:40002, http on 127.0.0.1:40003".
const READY_LINE = /^kgroupsd listening on ([^ ,]+(?:,[^ ,]+)*)((?:, [A-Z_]+ on [^ ,]+(?:,[^ ,]+)*)*), http on (.+):(\d+)$/;
const OTHER_LISTENER = /^([A-Z_]+) on (.+)$/;
const ADDRESS = /^(.+):(\d+)$/;
// The security a broker started without has: one PLAINTEXT listener.
const PLAINTEXT_ONLY = normalizeSecurity({ listeners: 'PLAINTEXT' });
// kgroupsd's stderr kept for error messages and log(): the last this many characters.
const LOG_TAIL_CHARS = 256 * 1024;

// The fault fields Broker#inject takes in camelCase, as the HTTP API spells them.
const FAULT_FIELDS = {
  api: 'api', error: 'error', count: 'count', topic: 'topic', partition: 'partition',
  group: 'group', latencyMs: 'latency_ms', close: 'close', coordinator: 'coordinator',
};

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

class Broker {
  /** Use Broker.start. */
  constructor(child, ready, options, logTail, security, prepared) {
    this._child = child;
    this._logTail = logTail;
    this._security = security ?? PLAINTEXT_ONLY;
    this._securityFolder = prepared?.folder ?? null;
    this._removeFolderOnExit = null; // Broker.start's 'exit' listener removing that folder
    /** The folder of the broker's certificates (ca.pem, client-cert.pem, ...), or null. */
    this.certs = prepared?.certs ?? null;
    this._listeners = ready.listeners;
    /** The Kafka listener's host (broker 0's with several brokers). */
    this.host = ready.host;
    /** The Kafka listener's port (broker 0's with several brokers). */
    this.port = ready.port;
    this._addresses = ready.addresses;
    /** The HTTP API's base URL, such as http://127.0.0.1:40123. */
    this.httpUrl = `http://${ready.httpHost}:${ready.httpPort}`;
    this._control = new ControlClient(ready.httpHost, ready.httpPort, options.requestTimeoutMs ?? 10000);
    this._exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode ?? child.signalCode);
      else child.once('exit', (code, signal) => resolve(code ?? signal));
    });
  }

  /**
   * Starts kgroupsd on free loopback ports and resolves once its ready line is out.
   * @param {import('./broker').BrokerOptions} [options]
   * @returns {Promise<Broker>}
   */
  static async start(options = {}) {
    const file = findKgroupsd(options);
    const security = options.security === undefined ? null : normalizeSecurity(options.security);
    const args = kgroupsdArgs(options);
    const prepared = security === null ? null : prepareSecurity(security, file);
    if (prepared !== null) args.push(...prepared.args);
    const firstProtocol = security === null ? 'PLAINTEXT' : security.listeners[0];
    const startTimeoutMs = options.startTimeoutMs ?? 10000;
    const removeFolder = () => {
      if (prepared !== null) fs.rmSync(prepared.folder, { recursive: true, force: true });
    };
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    killOnExit(child);
    const logTail = { text: '' };
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      logTail.text = (logTail.text + chunk).slice(-LOG_TAIL_CHARS);
    });
    const ready = await new Promise((resolve, reject) => {
      let stdout = '';
      let settled = false;
      const onError = (error) => fail(`could not be started: ${error.message}`);
      const onExit = (code, signal) => fail(`exited (${code ?? signal}) before it was ready`);
      function settle() {
        settled = true;
        clearTimeout(timer);
        child.off('error', onError);
        child.off('exit', onExit);
        child.stdout.off('data', onData);
        child.stdout.resume(); // keep draining whatever else it prints
      }
      function fail(why) {
        if (settled) return;
        settle();
        child.kill('SIGKILL');
        removeFolder();
        // Give stderr a moment to drain, so the message carries what kgroupsd said.
        setTimeout(() => reject(new Error(
          `kgroupsd ${why}\n  command: ${file} ${args.join(' ')}\n  stderr:\n${logTail.text || '(empty)'}`)), 50);
      }
      function onData(chunk) {
        stdout += chunk;
        const newline = stdout.indexOf('\n');
        if (newline < 0) return;
        const line = stdout.slice(0, newline);
        const match = READY_LINE.exec(line);
        const kafka = match ? match[1].split(',').map((address) => ADDRESS.exec(address)) : [];
        if (!match || kafka.some((address) => !address)) {
          fail('printed an unexpected ready line (expected "kgroupsd listening on HOST:PORT[, PROTOCOL on ' +
            'HOST:PORT]..., http on HOST:PORT", with one HOST:PORT per broker in each list): ' + line);
          return;
        }
        const listeners = { [firstProtocol]: match[1] };
        for (const other of match[2].split(', ').filter(Boolean)) {
          const [, protocol, addresses] = OTHER_LISTENER.exec(other);
          listeners[protocol] = addresses;
        }
        settle();
        resolve({
          host: kafka[0][1],
          port: Number(kafka[0][2]),
          addresses: kafka.map((address) => address[0]),
          listeners,
          httpHost: match[3],
          httpPort: Number(match[4]),
        });
      }
      const timer = setTimeout(() => fail(`did not print its ready line within ${startTimeoutMs} ms`), startTimeoutMs);
      child.on('error', onError);
      child.on('exit', onExit);
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', onData);
    });
    // A Broker the test forgets to stop does not keep the process alive; kill_on_exit ends it.
    child.unref();
    child.stdout.unref?.();
    child.stderr.unref?.();
    const broker = new Broker(child, ready, options, logTail, security, prepared);
    broker._options = options;
    if (prepared !== null) {
      // The folder goes with the process too, if the test never stops the broker.
      broker._removeFolderOnExit = removeFolder;
      process.once('exit', removeFolder);
    }
    if (security !== null && security.acls.length > 0) {
      try {
        await broker.addAcls(security.acls);
      } catch (error) {
        await broker.stop();
        throw error;
      }
    }
    return broker;
  }

  /**
   * Every listener's bootstrap addresses by protocol, such as
   * {PLAINTEXT: "127.0.0.1:40001", SASL_SSL: "127.0.0.1:40002"} (several brokers: each
   * "HOST:P0,HOST:P1,..."). Without the security option: {PLAINTEXT: bootstrapServers}.
   */
  get listeners() {
    return { ...this._listeners };
  }

  /**
   * kafkajs's config to reach the broker as `user` with SASL `mechanism`: {brokers, ssl, sasl}
   * (see broker.d.ts). `protocol` picks the listener (default: the first SASL one when a user
   * or mechanism is named, else the first that is not PLAINTEXT); `mechanism` defaults to SCRAM-SHA-256 when enabled, `user` to the only user;
   * `password` overrides the user's. Throws RangeError for what the broker does not have.
   * @param {import('./broker').ClientChoice} [choice]
   */
  kafkajsConfig(choice = {}) {
    return kafkajsConfig(this._security, this._listeners, this.certs, choice);
  }

  /**
   * node-rdkafka's (librdkafka's) settings for the same: bootstrap.servers, security.protocol,
   * ssl.* and sasl.* (see broker.d.ts).
   * @param {import('./broker').ClientChoice} [choice]
   */
  rdkafkaConfig(choice = {}) {
    return rdkafkaConfig(this._security, this._listeners, this.certs, choice);
  }

  /**
   * Creates ACLs (POST /v1/acls): one ACL object or an array, with resource_type,
   * resource_name, pattern_type, principal, host, operation and permission (Kafka's names).
   * Resolves to the server's answer; rejects with a BrokerError if refused.
   */
  addAcls(acls) {
    return this._control.request('POST', '/v1/acls', acls);
  }

  /**
   * The Kafka bootstrap address for librdkafka's bootstrap.servers: "HOST:PORT", or every
   * broker's, comma-separated, with several brokers ("HOST:P0,HOST:P1,HOST:P2").
   */
  get bootstrapServers() {
    return this._addresses.join(',');
  }

  /** The Kafka bootstrap addresses as kafkajs takes them: ["HOST:PORT", ...], one per broker. */
  get brokers() {
    return [...this._addresses];
  }

  /** kgroupsd's process id. */
  get pid() {
    return this._child.pid;
  }

  /** The last 256 KiB kgroupsd wrote to stderr (its log). */
  log() {
    return this._logTail.text;
  }

  /** Every topic with its partitions (GET /v1/topics). */
  async topics() {
    return (await this._control.request('GET', '/v1/topics')).topics;
  }

  /** One topic with its partitions and configs; rejects with a BrokerError (404) if unknown. */
  topic(name) {
    return this._control.request('GET', `/v1/topics/${encodeURIComponent(name)}`);
  }

  /** Every group, in summary (GET /v1/groups). */
  async groups() {
    return (await this._control.request('GET', '/v1/groups')).groups;
  }

  /** One group in full: members, assignment, offsets and lag; BrokerError (404) if unknown. */
  group(id) {
    return this._control.request('GET', `/v1/groups/${encodeURIComponent(id)}`);
  }

  /**
   * Arms a fault (POST /v1/faults) and resolves to it, with its id and remaining count.
   * @param {import('./broker').FaultSpec} fault
   */
  inject(fault) {
    if (fault === null || typeof fault !== 'object') {
      return Promise.reject(new TypeError('inject takes an object, e.g. {api: "Produce", error: "NOT_LEADER_OR_FOLLOWER"}'));
    }
    const body = {};
    for (const [key, value] of Object.entries(fault)) {
      if (value === undefined) continue;
      const field = FAULT_FIELDS[key];
      if (!field) {
        return Promise.reject(new TypeError(
          `inject: unknown field ${key}; the fields are ${Object.keys(FAULT_FIELDS).join(', ')}`));
      }
      body[field] = value;
    }
    return this._control.request('POST', '/v1/faults', body);
  }

  /** The group coordinator answers COORDINATOR_NOT_AVAILABLE for the next `count` requests. */
  coordinatorUnavailable({ count, group } = {}) {
    return this.inject({ coordinator: 'unavailable', count, group });
  }

  /** Group APIs answer NOT_COORDINATOR for the next `count` requests. */
  coordinatorMoved({ count, group } = {}) {
    return this.inject({ coordinator: 'moved', count, group });
  }

  /** The faults armed now (GET /v1/faults). */
  async faults() {
    return (await this._control.request('GET', '/v1/faults')).faults;
  }

  /** Disarms one fault by its id. */
  async removeFault(id) {
    await this._control.request('DELETE', `/v1/faults/${encodeURIComponent(id)}`);
  }

  /** Disarms every fault. */
  async clearFaults() {
    await this._control.request('DELETE', '/v1/faults');
  }

  /** The coordinator clock: {manual, now_ms}. */
  clock() {
    return this._control.request('GET', '/v1/clock');
  }

  /**
   * Moves the manual clock forward by ms and applies every group timer that became due
   * (expiring members, completing rebalances) before it resolves to the new now_ms. Needs
   * the manualClock option (BrokerError 409 otherwise).
   */
  async advance(ms) {
    return (await this._control.request('POST', '/v1/clock/advance', { ms })).now_ms;
  }

  /**
   * The events the broker kept (the newest 1,000), oldest first (GET /v1/events/log): those
   * after the event id `since`, of the given `type`s, of one `group` (unlike the HTTP route,
   * which lets topic events through, only that group's).
   * @param {{since?: number, type?: string | string[], group?: string}} [filter]
   */
  async events({ since, type, group } = {}) {
    const query = new URLSearchParams();
    if (since !== undefined) query.set('since', String(since));
    if (group !== undefined) query.set('group', group);
    const suffix = query.size > 0 ? `?${query}` : '';
    const answer = await this._control.request('GET', `/v1/events/log${suffix}`);
    const events = Array.isArray(answer) ? answer : answer.events;
    const types = type === undefined ? undefined : [type].flat();
    return events.filter((event) =>
      (types === undefined || types.includes(event.type)) &&
      (group === undefined || event.group_id === group) &&
      (since === undefined || event.id > since));
  }

  /**
   * Calls predicate(broker) every intervalMs until it returns (or resolves to) something
   * truthy, and resolves to that. A predicate that throws counts as "not yet". Rejects after
   * timeoutMs, with the last error or value it saw.
   * @template T
   * @param {(broker: Broker) => T | Promise<T>} predicate
   * @param {{timeoutMs?: number, intervalMs?: number, message?: string}} [options]
   * @returns {Promise<T>}
   */
  async waitFor(predicate, { timeoutMs = 10000, intervalMs = 25, message } = {}) {
    const deadline = Date.now() + timeoutMs;
    let last;
    for (;;) {
      try {
        const value = await predicate(this);
        if (value) return value;
        last = `it returned ${JSON.stringify(value)}`;
      } catch (error) {
        last = `it threw ${error && error.stack ? error.stack : String(error)}`;
      }
      if (Date.now() >= deadline) {
        throw new Error(`waitFor: ${message ?? 'the condition'} did not hold within ${timeoutMs} ms; last time ${last}`);
      }
      await sleep(Math.min(intervalMs, Math.max(deadline - Date.now(), 0)));
    }
  }

  /**
   * The brokers of the cluster (GET /v1/brokers): the controller's node id and each broker's
   * id, address, state (running, stopped, isolated), replication delay and the partitions it
   * leads and holds.
   * @returns {Promise<import('./broker').ClusterInfo>}
   */
  cluster() {
    return this._control.request('GET', '/v1/brokers');
  }

  /**
   * The node id leading partition `partition` of `topic` now (-1: none, the partition is
   * offline). Rejects with a BrokerError (404) for an unknown topic and a RangeError for a
   * partition it does not have.
   */
  async leader(topic, partition = 0) {
    const { partitions } = await this.topic(topic);
    const found = Number.isSafeInteger(partition) ? partitions[partition] : undefined;
    if (found === undefined) {
      throw new RangeError(`leader: topic ${topic} has partitions 0 to ${partitions.length - 1}, not ${String(partition)}`);
    }
    return found.leader;
  }

  /**
   * Stops broker `id` (POST /v1/brokers/{id}/stop): its listener refuses, its connections
   * close, and the partitions it led elect new leaders from their in-sync replicas. Resolves
   * to the broker as GET /v1/brokers shows it; BrokerError (404) for an unknown id.
   */
  stopBroker(id) {
    return this._brokerAction('stopBroker', id, 'stop');
  }

  /** Starts a stopped or isolated broker again; its replicas catch up and rejoin the ISR. */
  startBroker(id) {
    return this._brokerAction('startBroker', id, 'start');
  }

  /**
   * Cuts broker `id` from the controller and replication while it still answers its clients,
   * believing it leads what it led: its acks=all writes never succeed.
   */
  isolateBroker(id) {
    return this._brokerAction('isolateBroker', id, 'isolate');
  }

  /**
   * Broker `id`'s followers fetch only every `ms` milliseconds (0: at once); a follower late
   * by more than the replica lag time leaves the ISR.
   */
  delayReplication(id, ms) {
    if (!Number.isSafeInteger(ms) || ms < 0) {
      return Promise.reject(new RangeError(`delayReplication: ms must be an integer >= 0, got ${String(ms)}`));
    }
    return this._brokerAction('delayReplication', id, 'replication-delay', { ms });
  }

  _brokerAction(method, id, action, body = {}) {
    if (!Number.isSafeInteger(id) || id < 0) {
      return Promise.reject(new RangeError(`${method}: the broker id must be a node id (an integer >= 0), got ${String(id)}`));
    }
    return this._control.request('POST', `/v1/brokers/${id}/${action}`, body);
  }

  /** The Prometheus text of GET /metrics. */
  metrics() {
    return this._control.request('GET', '/metrics');
  }

  /**
   * Stops kgroupsd: SIGTERM, then SIGKILL if it has not exited within timeoutMs. Resolves to
   * its exit code (or the signal that ended it). Calling it again resolves the same way.
   */
  async stop({ timeoutMs = 5000 } = {}) {
    const child = this._child;
    if (child.exitCode === null && child.signalCode === null) {
      child.ref(); // wait for it even when nothing else keeps the process alive
      child.kill('SIGTERM');
      let timer;
      const killed = new Promise((resolve) => {
        timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve();
        }, timeoutMs);
      });
      await Promise.race([this._exited, killed]);
      clearTimeout(timer);
    }
    if (this._securityFolder !== null) {
      fs.rmSync(this._securityFolder, { recursive: true, force: true });
      process.off('exit', this._removeFolderOnExit);
    }
    return this._exited;
  }

  /**
   * kill -9: kgroupsd dies at once, flushing, closing and checkpointing nothing (with logDirs,
   * what it kept on disk is recovered by restart()). Resolves to the signal that ended it.
   */
  async kill() {
    const child = this._child;
    if (child.exitCode === null && child.signalCode === null) {
      child.ref();
      child.kill('SIGKILL');
    }
    return this._exited;
  }

  /**
   * Starts kgroupsd again after stop() or kill(), with the same options, log folder and ports,
   * and resolves once it is ready: clients reconnect to the same bootstrap servers.
   */
  async restart() {
    const child = this._child;
    if (child.exitCode === null && child.signalCode === null) {
      throw new Error('kgroupsd: restart() needs a stopped broker: call stop() or kill() first');
    }
    if (this._security !== PLAINTEXT_ONLY) {
      throw new Error('kgroupsd: restart() supports the PLAINTEXT listener only');
    }
    const url = new URL(this.httpUrl);
    // Every broker's address (--brokers N), not only the first one's.
    const options = { ...this._options, _listen: this._addresses.join(','),
      _http: `${url.hostname}:${url.port}` };
    // The ports were free ones the system picked: one may still be held for a moment (a
    // client's outgoing connection can get it as its local port), so a refused bind is tried
    // again until the start timeout.
    const deadline = Date.now() + (options.startTimeoutMs ?? 10000);
    for (;;) {
      try {
        const next = await Broker.start(options);
        next._options = this._options;
        Object.assign(this, next);
        return;
      } catch (error) {
        if (!String(error.message).includes('Address already in use') || Date.now() >= deadline) throw error;
      }
      await sleep(100);
    }
  }

  /** The log folder given (logDirs), or null when logs are in memory. */
  get logDirs() {
    return this._options?.logDirs ?? null;
  }

  /** `await using broker = await Broker.start()` stops it at the end of the block. */
  async [Symbol.asyncDispose ?? Symbol.for('nodejs.asyncDispose')]() {
    await this.stop();
  }
}

module.exports = { Broker, BrokerError, findKgroupsd, kgroupsdArgs };
