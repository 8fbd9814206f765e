// SPDX-License-Identifier: Apache-2.0
//
// node-rdkafka 3.6.1 (librdkafka 2.12.0) against kgroupsd's secured listeners (issue 30),
// through the kgroups/broker fixture's `security` option and its rdkafkaConfig:
// - over SASL_SSL with PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 and OAUTHBEARER (librdkafka's
//   unsecured JWT), a super user creates a topic (AdminClient), sees it in Metadata, produces
//   and consumes it in a group;
// - over SSL with a client certificate (ssl.client.auth required) the certificate's subject
//   is the principal (the only super user);
// - a wrong password, an unknown user, an expired OAUTHBEARER token (set with
//   setOauthBearerToken, which hands librdkafka the token string as it is) and a mechanism
//   the broker does not enable each end in librdkafka's ERR__AUTHENTICATION, and a correctly
//   configured producer delivers right after each;
// - ACLs: alice, allowed READ on topic t and group g but not WRITE, gets
//   TOPIC_AUTHORIZATION_FAILED producing to t, reads what a super user wrote in group g, and
//   gets GROUP_AUTHORIZATION_FAILED in a group without an ACL.
// Needs $KGROUPSD and $KGROUPS_CLI (for the certificates).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { createRequire } = require('node:module');
const path = require('node:path');
const Kafka = require('node-rdkafka');
const LibrdKafkaError = require('node-rdkafka/lib/error');
const { produce } = require('./helpers');

const bindingsNode = path.resolve(__dirname, '..', '..', '..', 'bindings', 'node');
const { Broker } = createRequire(path.join(bindingsNode, 'package.json'))('kgroups/broker');

const { ERRORS } = Kafka.CODES;
const USERS = { alice: 'alice-secret', admin: 'admin-secret' };
const MECHANISMS = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512', 'OAUTHBEARER'];
const WAIT_MS = 15000;

const values = (prefix, count) => Array.from({ length: count }, (_, n) => `${prefix}-${n}`);

// Produces `texts` to partition 0 of `topic` with librdkafka settings `config`; resolves to
// the offsets the delivery reports gave.
async function produceTo(config, topic, texts) {
  const reports = await produce(config['bootstrap.servers'], topic,
    texts.map((value) => ({ partition: 0, value })), config);
  return reports.map((report) => report.offset);
}

// Creates `topic` (one partition) with an AdminClient.
function createTopic(config, topic) {
  const admin = Kafka.AdminClient.create({ ...config, 'socket.timeout.ms': 10000 });
  return new Promise((resolve, reject) => {
    admin.createTopic({ topic, num_partitions: 1, replication_factor: 1 }, 10000, (error) => {
      admin.disconnect();
      if (error) reject(error);
      else resolve();
    });
  });
}

// The topic names Metadata gives a producer connected with `config`.
function metadataTopics(config) {
  const producer = new Kafka.Producer({ ...config, 'socket.timeout.ms': 10000 });
  return new Promise((resolve, reject) => {
    producer.connect({ timeout: 10000 }, (error, metadata) => {
      if (error) {
        reject(error);
        return;
      }
      producer.disconnect(() => resolve(metadata.topics.map((topic) => topic.name)));
    });
  });
}

// Joins `groupId` with librdkafka settings `config`, reads `topic` from the beginning until
// `count` values, and resolves to them. Rejects with the first consumer error.
function consume(config, groupId, topic, count, { timeoutMs = WAIT_MS } = {}) {
  return new Promise((resolve, reject) => {
    const consumer = new Kafka.KafkaConsumer({
      ...config, 'group.id': groupId, 'enable.auto.commit': true, 'fetch.wait.max.ms': 100,
      'socket.timeout.ms': 10000, 'session.timeout.ms': 10000, 'heartbeat.interval.ms': 1000,
    }, { 'auto.offset.reset': 'earliest' });
    const read = [];
    let settled = false;
    const finish = (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const done = () => (error ? reject(error) : resolve(read));
      if (consumer.isConnected()) consumer.disconnect(done);
      else done();
    };
    const timer = setTimeout(() => finish(new Error(`read ${read.length} of ${count} records in ${timeoutMs} ms`)),
      timeoutMs);
    const onError = (error) => {
      if (error && error.code !== ERRORS.ERR__TIMED_OUT && error.code !== ERRORS.ERR__PARTITION_EOF) finish(error);
    };
    consumer.on('event.error', onError);
    // consume(n, cb) rather than the flowing consume(cb): its errors keep their codes, and
    // come at once (the flowing loop reports its error only when the consumer disconnects).
    const next = () => {
      if (settled) return;
      consumer.consume(100, (error, messages) => {
        if (error) {
          onError(error);
        } else {
          for (const message of messages) read.push(message.value.toString());
          if (read.length >= count) finish(null);
        }
        setImmediate(next);
      });
    };
    consumer.on('ready', () => {
      consumer.subscribe([topic]);
      consumer.setDefaultConsumeTimeout(100);
      next();
    });
    consumer.connect({ timeout: 10000 }, (error) => {
      if (error) finish(error);
    });
  });
}

// Whether a node-rdkafka error is librdkafka's `code`. node-rdkafka passes some errors on as
// text only ('event.error' from its event_cb, delivery reports): code -1 and librdkafka's
// err2str text ("Local: Authentication failure") lower-cased after its "Local: " or
// "Broker: " prefix.
function hasCode(error, code) {
  if (!error) return false;
  if (error.code === code) return true;
  const text = LibrdKafkaError.create(code).message.split(': ').slice(1).join(': ').toLowerCase();
  return error.code === -1 && error.message === text;
}
const isAuthenticationError = (error) => hasCode(error, ERRORS.ERR__AUTHENTICATION);

// Connects a producer with `config` and resolves, once librdkafka reported ERR__AUTHENTICATION,
// to {errors, logs}: the errors and its error log lines (which say why); rejects if none came
// within 10 s or if connect() succeeded. connect() itself fails later (its Metadata request
// cannot succeed) and then disconnects the producer.
function authenticationErrors(config, { token, expected = isAuthenticationError, what = 'ERR__AUTHENTICATION' } = {}) {
  const producer = new Kafka.Producer({
    ...config, 'socket.timeout.ms': 3000, 'reconnect.backoff.ms': 500, 'reconnect.backoff.max.ms': 1000,
  });
  if (token !== undefined) producer.setOauthBearerToken(token);
  // A producer's events come through its poll(), which connect() does not run, and
  // setPollInterval waits for 'ready', which never comes here: poll while the handle exists.
  const poller = setInterval(() => {
    if (producer.isConnected()) producer.poll();
  }, 20);
  const errors = [];
  const logs = [];
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poller);
      if (error) reject(error);
      else resolve({ errors, logs });
    };
    const timer = setTimeout(() => settle(new Error(`no ${what} within 10 s; saw errors: ${
      errors.map((e) => `${e.code} ${e.message}`).join('; ') || 'none'}; logs: ${logs.join('\n')}`)), 10000);
    producer.on('event.log', (log) => {
      if (log.severity <= 3) logs.push(log.message);
    });
    producer.on('event.error', (error) => {
      errors.push(error);
      // Give the log line that explains it (queued just before) a moment to arrive.
      if (expected(error)) setTimeout(() => settle(null), 50);
    });
    producer.connect({ timeout: 3000 }, (error) => {
      if (!error) {
        producer.disconnect();
        settle(new Error('connect() succeeded where authentication should fail'));
      }
    });
  });
}

// An unsecured JWS (alg none) with the given claims, as Kafka's OAuthBearerUnsecuredJws reads it.
function unsecuredJws(claims) {
  const part = (object) => Buffer.from(JSON.stringify(object)).toString('base64url');
  return `${part({ alg: 'none' })}.${part(claims)}.`;
}

test('SASL_SSL: each mechanism creates a topic, produces and consumes it in a group', async (t) => {
  const broker = await Broker.start({
    autoCreateTopics: false,
    security: { listeners: ['SASL_SSL'], users: USERS, superUsers: ['alice'] },
  });
  t.after(() => broker.stop());
  for (const mechanism of MECHANISMS) {
    await t.test(mechanism, async () => {
      const config = broker.rdkafkaConfig({ user: 'alice', mechanism });
      assert.equal(config['security.protocol'], 'SASL_SSL');
      assert.equal(config['sasl.mechanisms'], mechanism);
      assert.equal(config['bootstrap.servers'], broker.listeners.SASL_SSL);
      const topic = `sasl-${mechanism.toLowerCase()}`;
      await createTopic(config, topic);
      assert.ok((await metadataTopics(config)).includes(topic), `Metadata lacks ${topic}`);
      const texts = values(mechanism, 5);
      assert.deepEqual(await produceTo(config, topic, texts), [0, 1, 2, 3, 4]);
      assert.deepEqual(await consume(config, `group-${mechanism}`, topic, texts.length), texts);
      assert.equal((await broker.topic(topic)).partitions[0].end_offset, texts.length);
    });
  }
});

test('SSL with a client certificate: its subject is the principal; a client without one is refused', async (t) => {
  const broker = await Broker.start({
    topics: { tls: 1 },
    // The certificate's principal is the only one allowed anything: a broker taking the
    // wrong principal refuses the produce.
    security: { listeners: ['SSL'], clientAuth: 'required', superUsers: ['User:CN=client'] },
  });
  t.after(() => broker.stop());
  const config = broker.rdkafkaConfig({ protocol: 'SSL' });
  assert.equal(config['security.protocol'], 'SSL');
  assert.ok(config['ssl.certificate.location'] && config['ssl.key.location']);
  assert.ok((await metadataTopics(config)).includes('tls'));
  const texts = values('tls', 3);
  assert.deepEqual(await produceTo(config, 'tls', texts), [0, 1, 2]);
  assert.deepEqual(await consume(config, 'tls-group', 'tls', texts.length), texts);

  // Without a client certificate the connection fails: with TLS 1.3 librdkafka finishes its
  // side of the handshake and then reads the broker's "certificate required" alert
  // (ERR__TRANSPORT); with TLS 1.2 the handshake itself fails (ERR__SSL).
  const noCert = { ...config };
  delete noCert['ssl.certificate.location'];
  delete noCert['ssl.key.location'];
  const { logs } = await authenticationErrors(noCert, {
    what: 'ERR__TRANSPORT or ERR__SSL',
    expected: (error) => hasCode(error, ERRORS.ERR__TRANSPORT) || hasCode(error, ERRORS.ERR__SSL),
  });
  assert.ok(logs.some((line) => /alert certificate required|SSL handshake failed/i.test(line)), logs.join('\n'));
  assert.equal((await broker.topic('tls')).partitions[0].end_offset, texts.length);
});

test('authentication failures end in ERR__AUTHENTICATION; a good producer is served after each', async (t) => {
  const broker = await Broker.start({
    topics: { after: 1 },
    security: { listeners: ['SASL_SSL'], users: USERS, superUsers: ['alice'] },
  });
  t.after(() => broker.stop());
  const good = broker.rdkafkaConfig({ user: 'alice', mechanism: 'SCRAM-SHA-512' });
  let produced = 0;
  const goodProduces = async (what) => {
    assert.deepEqual(await produceTo(good, 'after', [`after ${what}`]), [produced], `the good producer after ${what}`);
    produced += 1;
  };

  const failsWith = async (config, logPattern, options) => {
    const { logs } = await authenticationErrors(config, options);
    assert.ok(logs.some((line) => logPattern.test(line)), `librdkafka's log lacks ${logPattern}:\n${logs.join('\n')}`);
  };
  await failsWith(broker.rdkafkaConfig({ user: 'alice', mechanism: 'SCRAM-SHA-256', password: 'not-alices' }),
    /SASL authentication error: Authentication failed/);
  await goodProduces('a wrong SCRAM password');
  await failsWith(broker.rdkafkaConfig({ user: 'alice', mechanism: 'PLAIN', password: 'not-alices' }),
    /SASL authentication error: Authentication failed/);
  await goodProduces('a wrong PLAIN password');
  await failsWith(broker.rdkafkaConfig({ user: 'mallory', mechanism: 'SCRAM-SHA-512', password: 'whatever' }),
    /SASL authentication error: Authentication failed/);
  await goodProduces('an unknown user');

  // An expired token: librdkafka's own unsecured-JWT maker only makes live tokens, but
  // setOauthBearerToken hands it a token string as it is (node-rdkafka gives it the longest
  // lifetime, so librdkafka sends it): one whose exp passed a minute ago.
  const now = Math.floor(Date.now() / 1000);
  const oauth = broker.rdkafkaConfig({ user: 'alice', mechanism: 'OAUTHBEARER' });
  delete oauth['enable.sasl.oauthbearer.unsecure.jwt'];
  delete oauth['sasl.oauthbearer.config'];
  // Kafka's refusal (RFC 7628): the error challenge, then SASL_AUTHENTICATION_FAILED with it.
  await failsWith(oauth, /SASL authentication error: \{"status":"invalid_token"\}/,
    { token: unsecuredJws({ sub: 'alice', iat: now - 120, exp: now - 60 }) });
  await goodProduces('an expired token');
  // The same route with a live token delivers, so the expiry was what failed.
  const reports = await new Promise((resolve, reject) => {
    const producer = new Kafka.Producer({ ...oauth, dr_cb: true, 'socket.timeout.ms': 10000 });
    producer.setOauthBearerToken(unsecuredJws({ sub: 'alice', iat: now, exp: now + 600 }));
    producer.setPollInterval(10);
    const timer = setTimeout(() => reject(new Error('the live token\'s record had no delivery report in 10 s')), 10000);
    producer.on('delivery-report', (error, report) => {
      clearTimeout(timer);
      producer.disconnect(() => (error ? reject(error) : resolve(report)));
    });
    producer.connect({ timeout: 10000 }, (error) => {
      if (error) {
        clearTimeout(timer);
        reject(error);
        return;
      }
      producer.produce('after', 0, Buffer.from('live token'));
    });
  });
  assert.equal(reports.offset, produced);
  produced += 1;
  assert.equal((await broker.topic('after')).partitions[0].end_offset, produced);
});

test('a mechanism the broker does not enable ends in ERR__AUTHENTICATION; an enabled one still works', async (t) => {
  const broker = await Broker.start({
    topics: { only: 1 },
    security: { listeners: ['SASL_SSL'], mechanisms: ['SCRAM-SHA-256'], users: USERS, superUsers: ['alice'] },
  });
  t.after(() => broker.stop());
  const scram = broker.rdkafkaConfig({ user: 'alice', mechanism: 'SCRAM-SHA-256' });
  const { logs } = await authenticationErrors({ ...scram, 'sasl.mechanisms': 'PLAIN' });
  assert.ok(logs.some((line) => /SASL PLAIN mechanism handshake failed: Broker: Unsupported SASL mechanism: broker's supported mechanisms: SCRAM-SHA-256/.test(line)),
    `librdkafka's log:\n${logs.join('\n')}`);
  assert.deepEqual(await produceTo(scram, 'only', ['after PLAIN was refused']), [0]);
});

// Needs Kafka's authorization in every handler (git log: "Merge sec-authz").
test('ACLs: READ on topic t and group g but no WRITE', async (t) => {
  const broker = await Broker.start({
    topics: { t: 1 },
    security: {
      listeners: ['SASL_SSL'],
      users: USERS,
      superUsers: ['admin'],
      acls: [
        { resource_type: 'TOPIC', resource_name: 't', pattern_type: 'LITERAL', principal: 'User:alice',
          host: '*', operation: 'READ', permission: 'ALLOW' },
        { resource_type: 'GROUP', resource_name: 'g', pattern_type: 'LITERAL', principal: 'User:alice',
          host: '*', operation: 'READ', permission: 'ALLOW' },
      ],
    },
  });
  t.after(() => broker.stop());
  const admin = broker.rdkafkaConfig({ user: 'admin', mechanism: 'SCRAM-SHA-256' });
  const alice = broker.rdkafkaConfig({ user: 'alice', mechanism: 'SCRAM-SHA-256' });
  const texts = values('acl', 3);
  assert.deepEqual(await produceTo(admin, 't', texts), [0, 1, 2]);

  await t.test('producing to t without WRITE fails with TOPIC_AUTHORIZATION_FAILED', async () => {
    const code = await new Promise((resolve, reject) => { // the delivery report's error
      const producer = new Kafka.Producer({ ...alice, dr_cb: true, 'message.timeout.ms': 5000, 'socket.timeout.ms': 10000 });
      producer.setPollInterval(10);
      const timer = setTimeout(() => reject(new Error('no delivery report in 10 s')), 10000);
      producer.on('delivery-report', (error) => {
        clearTimeout(timer);
        producer.disconnect(() => resolve(error));
      });
      producer.connect({ timeout: 10000 }, (error) => {
        if (error) {
          clearTimeout(timer);
          reject(error);
          return;
        }
        producer.produce('t', 0, Buffer.from('alice was here'));
      });
    });
    assert.ok(hasCode(code, ERRORS.ERR_TOPIC_AUTHORIZATION_FAILED), `the delivery report's error: ${code && code.code} ${code && code.message}`);
    assert.equal((await broker.topic('t')).partitions[0].end_offset, texts.length, 'alice\'s record was not written');
  });

  await t.test('alice reads what the super user wrote, in group g', async () => {
    assert.deepEqual(await consume(alice, 'g', 't', texts.length), texts);
  });

  await t.test('a group without an ACL fails with GROUP_AUTHORIZATION_FAILED', async () => {
    await assert.rejects(consume(alice, 'not-g', 't', texts.length, { timeoutMs: 8000 }), (error) => {
      assert.ok(hasCode(error, ERRORS.ERR_GROUP_AUTHORIZATION_FAILED), `got ${error.code}: ${error.message}`);
      return true;
    });
  });
});
