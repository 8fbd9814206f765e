// SPDX-License-Identifier: Apache-2.0
//
// The client settings a test needs to reach a secured Broker as a given user: kafkajs's
// config object and node-rdkafka's (librdkafka's names). Pure functions of the normalized
// security option (broker_security.js), the listeners' addresses and the certificate folder.
// OAUTHBEARER uses Kafka's unsecured JWS tokens (header {"alg":"none"}, claims sub, iat,
// exp), which kgroupsd accepts: kafkajs gets an oauthBearerProvider making them, librdkafka
// makes them itself (enable.sasl.oauthbearer.unsecure.jwt).
'use strict';

const fs = require('node:fs');
const path = require('node:path');

function base64url(object) {
  return Buffer.from(JSON.stringify(object)).toString('base64url');
}

/**
 * An unsecured JWS (alg "none", no signature) as Kafka's OAuthBearerUnsecuredJws reads it.
 * @param {string} principal the sub claim
 * @param {{lifetimeMs?: number, scope?: string}} [options]
 */
function unsecuredJws(principal, { lifetimeMs = 3600000, scope } = {}) {
  const now = Math.floor(Date.now() / 1000);
  const claims = { sub: principal, iat: now, exp: now + Math.floor(lifetimeMs / 1000) };
  if (scope !== undefined) claims.scope = scope;
  return `${base64url({ alg: 'none' })}.${base64url(claims)}.`;
}

// The first SASL listener for a user or mechanism, else the first that is not PLAINTEXT.
function defaultProtocol(security, wantsSasl) {
  const sasl = wantsSasl ? security.listeners.find((protocol) => protocol.startsWith('SASL_')) : undefined;
  return sasl ?? security.listeners.find((protocol) => protocol !== 'PLAINTEXT') ?? security.listeners[0];
}

// The listener, mechanism and credentials of one client configuration; throws RangeError
// for what the broker does not have.
function choose(security, listeners, { protocol, user, mechanism, password } = {}) {
  const chosen = protocol ?? defaultProtocol(security, user !== undefined || mechanism !== undefined);
  if (listeners[chosen] === undefined) {
    throw new RangeError(`the broker has no ${chosen} listener; it has ${Object.keys(listeners).join(', ')}`);
  }
  const choice = { protocol: chosen, brokers: listeners[chosen], tls: chosen === 'SSL' || chosen === 'SASL_SSL' };
  if (!chosen.startsWith('SASL_')) {
    if (user !== undefined || mechanism !== undefined) {
      throw new RangeError(`a ${chosen} listener takes no SASL user or mechanism (its principal is the client ` +
        "certificate's, or User:ANONYMOUS); pass protocol: 'SASL_SSL' or the like");
    }
    return choice;
  }
  const enabled = security.enabledMechanisms;
  choice.mechanism = mechanism ?? (enabled.includes('SCRAM-SHA-256') ? 'SCRAM-SHA-256' : enabled[0]);
  if (!enabled.includes(choice.mechanism)) {
    throw new RangeError(`mechanism ${choice.mechanism} is not enabled; the broker has ${enabled.join(', ')}`);
  }
  const names = Object.keys(security.users);
  if (user === undefined && names.length !== 1) {
    throw new RangeError(`name the user: {user: 'alice', ...} (the broker has ${names.length} users)`);
  }
  choice.user = user ?? names[0];
  if (choice.mechanism !== 'OAUTHBEARER') {
    if (password === undefined && !Object.hasOwn(security.users, choice.user)) {
      throw new RangeError(`user ${choice.user} is not in the broker's users (${names.join(', ') || 'none'}); ` +
        'add it to security.users or pass password');
    }
    choice.password = password ?? security.users[choice.user];
  }
  return choice;
}

/**
 * kafkajs's config: {brokers, ssl, sasl}. ssl is {ca} (with {cert, key} under clientAuth) as
 * PEM text; sasl {mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512', username, password}
 * or {mechanism: 'oauthbearer', oauthBearerProvider}.
 */
function kafkajsConfig(security, listeners, certs, choiceOptions) {
  const choice = choose(security, listeners, choiceOptions);
  const config = { brokers: choice.brokers.split(',') };
  if (choice.tls) {
    const ssl = {};
    if (certs !== null) {
      ssl.ca = [fs.readFileSync(path.join(certs, 'ca.pem'), 'utf8')];
      if (security.clientAuth !== 'none') {
        ssl.cert = fs.readFileSync(path.join(certs, 'client-cert.pem'), 'utf8');
        ssl.key = fs.readFileSync(path.join(certs, 'client-key.pem'), 'utf8');
      }
    }
    config.ssl = ssl;
  }
  if (choice.mechanism === undefined) return config;
  if (choice.mechanism === 'OAUTHBEARER') {
    const principal = choice.user;
    config.sasl = { mechanism: 'oauthbearer', oauthBearerProvider: async () => ({ value: unsecuredJws(principal) }) };
  } else {
    config.sasl = { mechanism: choice.mechanism.toLowerCase(), username: choice.user, password: choice.password };
  }
  return config;
}

/**
 * node-rdkafka's (librdkafka's) settings: bootstrap.servers, security.protocol,
 * ssl.ca.location (ssl.certificate.location, ssl.key.location), sasl.mechanisms with
 * sasl.username and sasl.password, or for OAUTHBEARER enable.sasl.oauthbearer.unsecure.jwt and
 * sasl.oauthbearer.config "principal=USER".
 */
function rdkafkaConfig(security, listeners, certs, choiceOptions) {
  const choice = choose(security, listeners, choiceOptions);
  const config = { 'bootstrap.servers': choice.brokers, 'security.protocol': choice.protocol };
  if (choice.tls && certs !== null) {
    config['ssl.ca.location'] = path.join(certs, 'ca.pem');
    if (security.clientAuth !== 'none') {
      config['ssl.certificate.location'] = path.join(certs, 'client-cert.pem');
      config['ssl.key.location'] = path.join(certs, 'client-key.pem');
    }
  }
  if (choice.mechanism === undefined) return config;
  config['sasl.mechanisms'] = choice.mechanism;
  if (choice.mechanism === 'OAUTHBEARER') {
    config['enable.sasl.oauthbearer.unsecure.jwt'] = true;
    config['sasl.oauthbearer.config'] = `principal=${choice.user}`;
  } else {
    config['sasl.username'] = choice.user;
    config['sasl.password'] = choice.password;
  }
  return config;
}

module.exports = { kafkajsConfig, rdkafkaConfig, unsecuredJws };
