// SPDX-License-Identifier: Apache-2.0
//
// The `security` option of Broker.start: a secured kgroupsd's listeners and who may use them,
// checked and normalized, and what starting one takes — a folder of its own holding the users
// file (USER:PASSWORD lines, mode 0600) and, for a TLS listener, a throwaway CA and
// certificates written by `kgroups certs` (the CLI's OpenSSL code; no openssl binary needed),
// and the kgroupsd flags (--listeners with port 0 each instead of --listen; docs/SECURITY.md).
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const PROTOCOLS = ['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'];
const MECHANISMS = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512', 'OAUTHBEARER'];
const CLIENT_AUTH = ['none', 'requested', 'required'];

function checkChoices(what, values, choices) {
  for (const value of values) {
    if (!choices.includes(value)) {
      throw new RangeError(`security.${what}: ${JSON.stringify(value)} is not one of ${choices.join(', ')}`);
    }
  }
}

function listOf(value, fallback) {
  if (value === undefined) return fallback;
  return Array.isArray(value) ? [...value] : [value];
}

/**
 * The security option checked, with its defaults: listeners ['SASL_SSL'], every mechanism,
 * no users, clientAuth 'none', clientCn 'client'. Throws RangeError or TypeError naming the
 * field that is wrong.
 * @param {import('./broker').SecurityOptions} security
 */
function normalizeSecurity(security) {
  if (security === null || typeof security !== 'object' || Array.isArray(security)) {
    throw new TypeError("security must be an object, e.g. {listeners: 'SASL_SSL', users: {alice: 'secret'}}");
  }
  const listeners = listOf(security.listeners, ['SASL_SSL']);
  checkChoices('listeners', listeners, PROTOCOLS);
  if (listeners.length === 0 || new Set(listeners).size !== listeners.length) {
    throw new RangeError(`security.listeners: name each protocol once, got ${JSON.stringify(listeners)}`);
  }
  const mechanisms = listOf(security.mechanisms, null);
  if (mechanisms !== null) checkChoices('mechanisms', mechanisms, MECHANISMS);
  const users = security.users ?? {};
  if (typeof users !== 'object' || Array.isArray(users) || !Object.entries(users).every(
    ([name, password]) => name !== '' && !name.includes(':') && typeof password === 'string' &&
      !`${name}${password}`.includes('\n'))) {
    throw new TypeError("security.users must map names (without ':') to passwords (neither with a line break), e.g. {alice: 'secret'}");
  }
  const clientAuth = security.clientAuth ?? 'none';
  checkChoices('clientAuth', [clientAuth], CLIENT_AUTH);
  const tls = listeners.some((protocol) => protocol === 'SSL' || protocol === 'SASL_SSL');
  if (clientAuth !== 'none' && !tls) {
    throw new RangeError(`security.clientAuth '${clientAuth}' needs an SSL or SASL_SSL listener`);
  }
  const acls = listOf(security.acls, []);
  if (!acls.every((acl) => acl !== null && typeof acl === 'object')) {
    throw new TypeError('security.acls must be an array of ACL objects as POST /v1/acls takes them');
  }
  return {
    listeners,
    mechanisms,
    enabledMechanisms: mechanisms ?? MECHANISMS,
    users: { ...users },
    clientAuth,
    clientCn: security.clientCn ?? 'client',
    superUsers: listOf(security.superUsers, []),
    acls,
    allowEveryone: Boolean(security.allowEveryone),
    certs: security.certs ?? null,
    tls,
  };
}

// "alice" as "User:alice"; a principal ("User:alice") as it is.
function principalOf(name) {
  return name.includes(':') ? name : `User:${name}`;
}

/**
 * kgroupsd's flags for a normalized security option, its users file and certificate folder.
 * @returns {string[]}
 */
function securityArgs(security, usersFile, certs) {
  const args = ['--listeners', security.listeners.map((protocol) => `${protocol}://127.0.0.1:0`).join(',')];
  if (certs !== null) {
    args.push('--ssl-keystore-location', path.join(certs, 'broker.pem'));
    if (security.clientAuth !== 'none') {
      args.push('--ssl-truststore-location', path.join(certs, 'ca.pem'), '--ssl-client-auth', security.clientAuth);
    }
  }
  if (security.mechanisms !== null) args.push('--sasl-enabled-mechanisms', security.mechanisms.join(','));
  if (usersFile !== null) args.push('--sasl-users', usersFile);
  if (security.superUsers.length > 0) args.push('--super-users', security.superUsers.map(principalOf).join(';'));
  if (security.allowEveryone) args.push('--allow-everyone-if-no-acl-found');
  return args;
}

function isExecutableFile(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The kgroups CLI that writes the certificates: $KGROUPS_CLI, the one beside the kgroupsd
 * being run (a build tree's tools/cli/kgroups next to tools/kgroupsd/kgroupsd, or the same
 * folder), then PATH. Throws an Error listing where it looked.
 */
function findKgroupsCli(kgroupsd, env = process.env) {
  if (env.KGROUPS_CLI) {
    if (!isExecutableFile(env.KGROUPS_CLI)) {
      throw new Error(`kgroups: $KGROUPS_CLI names ${env.KGROUPS_CLI}, which is not an executable file`);
    }
    return env.KGROUPS_CLI;
  }
  const besides = [path.join(path.dirname(path.dirname(kgroupsd)), 'cli', 'kgroups'),
    path.join(path.dirname(kgroupsd), 'kgroups')];
  const onPath = (env.PATH || '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, 'kgroups'));
  const found = [...besides, ...onPath].find(isExecutableFile);
  if (found) return found;
  throw new Error('kgroups: a TLS listener needs certificates, made by the kgroups CLI (`kgroups certs`), ' +
    `which was not found; looked at $KGROUPS_CLI (not set), ${besides.join(', ')} and PATH. ` +
    'Set KGROUPS_CLI, or pass security.certs with a folder `kgroups certs DIR` wrote.');
}

/**
 * Makes the folder of a secured broker (users file, certificates) and returns {folder, certs,
 * args}; the caller removes `folder` when the broker stops. Throws, leaving nothing behind, if
 * the certificates cannot be made.
 */
function prepareSecurity(security, kgroupsd, env = process.env) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kgroups-security-'));
  try {
    let usersFile = null;
    if (Object.keys(security.users).length > 0) {
      usersFile = path.join(folder, 'users');
      const text = Object.entries(security.users).map(([name, password]) => `${name}:${password}\n`).join('');
      fs.writeFileSync(usersFile, text, { mode: 0o600 });
    }
    let certs = security.certs;
    if (certs === null && security.tls) {
      certs = path.join(folder, 'certs');
      const cli = findKgroupsCli(kgroupsd, env);
      try {
        execFileSync(cli, ['certs', certs, '--client-cn', security.clientCn], { stdio: ['ignore', 'ignore', 'pipe'] });
      } catch (error) {
        throw new Error(`kgroups: ${cli} certs failed: ${String(error.stderr || error.message).trim()}`);
      }
    }
    return { folder, certs, args: securityArgs(security, usersFile, certs) };
  } catch (error) {
    fs.rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

module.exports = { MECHANISMS, PROTOCOLS, findKgroupsCli, normalizeSecurity, prepareSecurity, securityArgs };
