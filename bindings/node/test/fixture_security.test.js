// SPDX-License-Identifier: Apache-2.0
//
// kgroups/broker's security option without a real kgroupsd: the flags it becomes and what it
// refuses, the configs kafkajsConfig and rdkafkaConfig build (SCRAM, PLAIN, unsecured-JWS
// OAUTHBEARER, CA and client certificates), and a stand-in kgroupsd printing a ready line
// with two listeners, which shows the command line Broker.start runs and the folder it
// cleans up. kafkajs against a real secured kgroupsd: tests/clients/kafkajs/fixture_security.test.js.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Broker, kgroupsdArgs } = require('kgroups/broker');
const { normalizeSecurity, securityArgs } = require('../broker_security.js');
const { kafkajsConfig, rdkafkaConfig, unsecuredJws } = require('../client_config.js');

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kgroups-security-test-'));
test.after(() => fs.rmSync(scratch, { recursive: true, force: true }));

const LISTENERS = { PLAINTEXT: '127.0.0.1:1', SASL_SSL: '127.0.0.1:2,127.0.0.1:3', SSL: '127.0.0.1:4' };

// A folder like `kgroups certs` writes, with stand-in contents.
function fakeCerts() {
  const dir = fs.mkdtempSync(path.join(scratch, 'certs-'));
  for (const name of ['ca.pem', 'client-cert.pem', 'client-key.pem']) fs.writeFileSync(path.join(dir, name), `${name}\n`);
  return dir;
}

function claimsOf(token) {
  const [header, claims, signature] = token.split('.');
  assert.deepEqual(JSON.parse(Buffer.from(header, 'base64url')), { alg: 'none' });
  assert.equal(signature, '');
  return JSON.parse(Buffer.from(claims, 'base64url'));
}

test('the security option becomes --listeners, key material, users, mechanisms and authorizer flags', () => {
  const security = normalizeSecurity({
    listeners: ['PLAINTEXT', 'SASL_SSL'], mechanisms: ['PLAIN'], clientAuth: 'required',
    superUsers: ['admin', 'User:CN=client'], allowEveryone: true,
  });
  assert.deepEqual(securityArgs(security, '/u', '/c'), [
    '--listeners', 'PLAINTEXT://127.0.0.1:0,SASL_SSL://127.0.0.1:0',
    '--ssl-keystore-location', '/c/broker.pem', '--ssl-truststore-location', '/c/ca.pem',
    '--ssl-client-auth', 'required', '--sasl-enabled-mechanisms', 'PLAIN', '--sasl-users', '/u',
    '--super-users', 'User:admin;User:CN=client', '--allow-everyone-if-no-acl-found']);
  assert.deepEqual(kgroupsdArgs({ security: {} }), ['--http', '127.0.0.1:0']);
});

test('the security option refuses what kgroupsd would', () => {
  assert.throws(() => normalizeSecurity('SASL_SSL'), TypeError);
  assert.throws(() => normalizeSecurity({ listeners: 'TLS' }), /listeners: "TLS" is not one of/);
  assert.throws(() => normalizeSecurity({ listeners: ['SSL', 'SSL'] }), /once/);
  assert.throws(() => normalizeSecurity({ mechanisms: ['GSSAPI'] }), RangeError);
  assert.throws(() => normalizeSecurity({ listeners: 'SASL_PLAINTEXT', clientAuth: 'required' }), /needs an SSL/);
  assert.throws(() => normalizeSecurity({ users: { 'a:b': 'x' } }), TypeError);
  assert.throws(() => normalizeSecurity({ users: { a: 1 } }), TypeError);
});

test('kafkajsConfig: SASL_SSL with PLAIN and SCRAM, the CA as PEM text', () => {
  const certs = fakeCerts();
  const security = normalizeSecurity({ listeners: ['PLAINTEXT', 'SASL_SSL'], users: { alice: 'a', bob: 'b' } });
  assert.deepEqual(kafkajsConfig(security, LISTENERS, certs, { user: 'alice', mechanism: 'PLAIN' }), {
    brokers: ['127.0.0.1:2', '127.0.0.1:3'], ssl: { ca: ['ca.pem\n'] },
    sasl: { mechanism: 'plain', username: 'alice', password: 'a' },
  });
  assert.deepEqual(kafkajsConfig(security, LISTENERS, certs, { user: 'bob', password: 'wrong' }).sasl,
    { mechanism: 'scram-sha-256', username: 'bob', password: 'wrong' });
  assert.deepEqual(kafkajsConfig(security, LISTENERS, certs, { protocol: 'PLAINTEXT' }), { brokers: ['127.0.0.1:1'] });
});

test('kafkajsConfig: OAUTHBEARER gets a provider of unsecured JWS tokens; client certificates under clientAuth', async () => {
  const certs = fakeCerts();
  const security = normalizeSecurity({ listeners: 'SASL_SSL', clientAuth: 'requested' });
  const config = kafkajsConfig(security, LISTENERS, certs, { user: 'carol', mechanism: 'OAUTHBEARER' });
  assert.deepEqual(config.ssl, { ca: ['ca.pem\n'], cert: 'client-cert.pem\n', key: 'client-key.pem\n' });
  assert.equal(config.sasl.mechanism, 'oauthbearer');
  const claims = claimsOf((await config.sasl.oauthBearerProvider()).value);
  assert.equal(claims.sub, 'carol');
  assert.equal(claims.exp - claims.iat, 3600);
  assert.equal(claimsOf(unsecuredJws('dan', { lifetimeMs: 60000, scope: 'x' })).scope, 'x');
});

test('rdkafkaConfig: librdkafka names, as the Python fixture gives confluent-kafka', () => {
  const certs = fakeCerts();
  const security = normalizeSecurity({ listeners: ['SSL', 'SASL_SSL'], users: { alice: 'a' }, clientAuth: 'required' });
  assert.deepEqual(rdkafkaConfig(security, LISTENERS, certs, { mechanism: 'SCRAM-SHA-512' }), {
    'bootstrap.servers': '127.0.0.1:2,127.0.0.1:3', 'security.protocol': 'SASL_SSL',
    'ssl.ca.location': path.join(certs, 'ca.pem'), 'ssl.certificate.location': path.join(certs, 'client-cert.pem'),
    'ssl.key.location': path.join(certs, 'client-key.pem'), 'sasl.mechanisms': 'SCRAM-SHA-512',
    'sasl.username': 'alice', 'sasl.password': 'a',
  });
  assert.deepEqual(rdkafkaConfig(security, LISTENERS, certs, { protocol: 'SSL' })['security.protocol'], 'SSL');
  const oauth = rdkafkaConfig(security, LISTENERS, certs, { user: 'carol', mechanism: 'OAUTHBEARER' });
  assert.equal(oauth['sasl.oauthbearer.config'], 'principal=carol');
  assert.equal(oauth['enable.sasl.oauthbearer.unsecure.jwt'], true);
});

test('client configs refuse what the broker does not have, saying what to do', () => {
  const two = normalizeSecurity({ users: { a: '1', b: '2' }, mechanisms: ['PLAIN'] });
  assert.throws(() => kafkajsConfig(two, LISTENERS, null, {}), /name the user/);
  assert.throws(() => kafkajsConfig(two, LISTENERS, null, { user: 'zed' }), /not in the broker's users/);
  assert.throws(() => kafkajsConfig(two, LISTENERS, null, { user: 'a', mechanism: 'SCRAM-SHA-256' }), /not enabled/);
  assert.throws(() => rdkafkaConfig(two, { SASL_SSL: 'h:1' }, null, { protocol: 'SSL' }), /no SSL listener/);
  const ssl = normalizeSecurity({ listeners: 'SSL' });
  assert.throws(() => rdkafkaConfig(ssl, LISTENERS, null, { user: 'a' }), /takes no SASL user/);
});

test('Broker.start with security runs --listeners, reads every listener from the ready line and removes its folder on stop', async () => {
  const argsFile = path.join(scratch, 'arguments');
  const kgroupsd = path.join(scratch, 'kgroupsd');
  fs.writeFileSync(kgroupsd, `#!/bin/sh\nprintf '%s\\n' "$@" > ${argsFile}\n` +
    "echo 'kgroupsd listening on 127.0.0.1:11,127.0.0.1:12, SASL_PLAINTEXT on 127.0.0.1:13,127.0.0.1:14, http on 127.0.0.1:15'\n" +
    'exec sleep 30\n', { mode: 0o755 });
  const broker = await Broker.start({
    kgroupsd, brokers: 2, security: { listeners: ['PLAINTEXT', 'SASL_PLAINTEXT'], users: { alice: 'secret' } },
  });
  try {
    const args = fs.readFileSync(argsFile, 'utf8').trim().split('\n');
    assert.ok(!args.includes('--listen'));
    assert.equal(args[args.indexOf('--listeners') + 1], 'PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0');
    const usersFile = args[args.indexOf('--sasl-users') + 1];
    assert.equal(fs.readFileSync(usersFile, 'utf8'), 'alice:secret\n');
    assert.equal(fs.statSync(usersFile).mode & 0o777, 0o600);
    assert.equal(broker.certs, null);
    assert.equal(broker.bootstrapServers, '127.0.0.1:11,127.0.0.1:12');
    assert.deepEqual(broker.listeners, { PLAINTEXT: '127.0.0.1:11,127.0.0.1:12', SASL_PLAINTEXT: '127.0.0.1:13,127.0.0.1:14' });
    assert.deepEqual(broker.kafkajsConfig(), {
      brokers: ['127.0.0.1:13', '127.0.0.1:14'], sasl: { mechanism: 'scram-sha-256', username: 'alice', password: 'secret' },
    });
    await broker.stop();
    assert.ok(!fs.existsSync(path.dirname(usersFile)));
  } finally {
    await broker.stop();
  }
});

test('Broker.start with a TLS listener makes certificates with the kgroups CLI', { skip: !process.env.KGROUPS_CLI && 'KGROUPS_CLI is not set' }, async () => {
  const kgroupsd = path.join(scratch, 'kgroupsd-tls');
  fs.writeFileSync(kgroupsd, "#!/bin/sh\necho 'kgroupsd listening on 127.0.0.1:21, http on 127.0.0.1:22'\nexec sleep 30\n", { mode: 0o755 });
  const broker = await Broker.start({ kgroupsd, security: { listeners: 'SSL', clientAuth: 'required' } });
  try {
    assert.deepEqual(broker.listeners, { SSL: '127.0.0.1:21' });
    const config = broker.rdkafkaConfig();
    assert.match(fs.readFileSync(config['ssl.ca.location'], 'utf8'), /BEGIN CERTIFICATE/);
    assert.match(fs.readFileSync(config['ssl.key.location'], 'utf8'), /BEGIN PRIVATE KEY/);
    assert.match(broker.kafkajsConfig().ssl.cert, /BEGIN CERTIFICATE/);
  } finally {
    await broker.stop();
  }
  assert.ok(!fs.existsSync(broker.certs));
});
