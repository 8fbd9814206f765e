// SPDX-License-Identifier: Apache-2.0
//
// The command line Broker.start runs: which kgroupsd binary (the `kgroupsd` option, then
// $KGROUPSD, then the one package.json's install script built, then the kgroupsd build dirs
// of the checkout this package is a folder of, then PATH) and the flags the options map to.
// Both loopback listeners take port 0 (a free port; with brokers: N, each broker a free port);
// with the security option the Kafka listeners come from --listeners (broker_security.js).
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const packageDir = path.resolve(__dirname);
const checkout = path.resolve(packageDir, '..', '..');

// Where else a checkout builds kgroupsd: scripts/test-clients (build/broker), then the presets.
const CHECKOUT_BUILDS = ['broker', 'install', 'release', 'dev'].map((dir) =>
  path.join(checkout, 'build', dir, 'tools', 'kgroupsd', 'kgroupsd'));

function isExecutableFile(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

// Whether this package is the bindings/node folder of a kgroups checkout (installed as a
// link to it), rather than a copy in some node_modules.
function isCheckout() {
  const node = path.join(checkout, 'bindings', 'node');
  try {
    return fs.existsSync(path.join(checkout, 'tools', 'kgroupsd')) &&
      fs.realpathSync(node) === fs.realpathSync(packageDir);
  } catch {
    return false;
  }
}

/**
 * Where package.json's install script (scripts/build-addon.js) builds kgroupsd: the engine's
 * source tree (the checkout when this package is a checkout's folder, as CMakeLists.txt
 * decides for the addon; otherwise engine/, the copy of the sources a packed package holds)
 * configured on its own in build/npm-kgroupsd under it. Two folders down, like the presets'
 * build/install: the compiler cache (cmake/kgroups_compiler_cache.cmake) then shares the
 * objects of this build with `cmake --preset install` and with other installs.
 * @returns {{sourceDir: string, buildDir: string, binary: string}}
 */
function npmKgroupsdBuild() {
  const sourceDir = isCheckout() ? checkout : path.join(packageDir, 'engine');
  const buildDir = path.join(sourceDir, 'build', 'npm-kgroupsd');
  return { sourceDir, buildDir, binary: path.join(buildDir, 'tools', 'kgroupsd', 'kgroupsd') };
}

/**
 * The kgroupsd binary to run. An explicit choice (the option, $KGROUPSD) that is not an
 * executable file is an error of its own; otherwise the first executable found wins, and an
 * Error lists every place looked at.
 * @param {{kgroupsd?: string}} options
 * @param {Record<string, string | undefined>} env
 */
function findKgroupsd(options = {}, env = process.env) {
  if (options.kgroupsd !== undefined) {
    if (!isExecutableFile(options.kgroupsd)) {
      throw new Error(`kgroupsd: the kgroupsd option names ${options.kgroupsd}, which is not an executable file`);
    }
    return options.kgroupsd;
  }
  if (env.KGROUPSD) {
    if (!isExecutableFile(env.KGROUPSD)) {
      throw new Error(`kgroupsd: $KGROUPSD names ${env.KGROUPSD}, which is not an executable file`);
    }
    return env.KGROUPSD;
  }
  const looked = ['the kgroupsd option (not given)', '$KGROUPSD (not set)'];
  const installed = npmKgroupsdBuild().binary;
  if (isExecutableFile(installed)) return installed;
  looked.push(`${installed} (built by npm install)`);
  if (isCheckout()) {
    for (const file of CHECKOUT_BUILDS) {
      if (isExecutableFile(file)) return file;
      looked.push(file);
    }
  } else {
    looked.push(`a kgroups checkout's build dirs (${packageDir} is not a checkout's bindings/node)`);
  }
  const dirs = (env.PATH || '').split(path.delimiter).filter(Boolean);
  for (const dir of dirs) {
    const file = path.join(dir, 'kgroupsd');
    if (isExecutableFile(file)) return file;
  }
  looked.push(`PATH (${dirs.join(path.delimiter) || 'empty'})`);
  throw new Error(
    'kgroupsd: cannot find the kgroupsd binary. Looked at:\n' +
      looked.map((place) => `  - ${place}`).join('\n') +
      '\nnpm install builds it; if that build is gone, `npm rebuild kgroups` in your project ' +
      'builds it again. Or set KGROUPSD=<path> or pass { kgroupsd: <path> } to Broker.start.',
  );
}

function checkCount(name, value, min) {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`kgroupsd: ${name} must be an integer >= ${min}, got ${String(value)}`);
  }
}

/**
 * The flags Broker.start passes to kgroupsd for these options.
 * @param {import('./broker').BrokerOptions} options
 * @returns {string[]}
 */
function kgroupsdArgs(options = {}) {
  // restart() passes the ports the first start got (_listen, _http).
  const listen = options.security === undefined ? ['--listen', options._listen ?? '127.0.0.1:0'] : [];
  const args = [...listen, '--http', options._http ?? '127.0.0.1:0'];
  const topics = options.topics ?? {};
  if (typeof topics !== 'object' || Array.isArray(topics)) {
    throw new TypeError('kgroupsd: topics must be an object of {name: partitions}, e.g. {orders: 3}');
  }
  for (const [name, partitions] of Object.entries(topics)) {
    if (name === '' || name.includes(':')) {
      throw new RangeError(`kgroupsd: topic name ${JSON.stringify(name)} must be non-empty without ':'`);
    }
    checkCount(`topics.${name}`, partitions, 1);
    args.push('--topic', `${name}:${partitions}`);
  }
  if (options.manualClock) args.push('--manual-clock');
  if (options.initialRebalanceDelayMs !== undefined) {
    checkCount('initialRebalanceDelayMs', options.initialRebalanceDelayMs, 0);
    args.push('--initial-rebalance-delay-ms', String(options.initialRebalanceDelayMs));
  }
  if (options.autoCreateTopics === false) args.push('--no-auto-create');
  if (options.brokers !== undefined) {
    checkCount('brokers', options.brokers, 1);
    args.push('--brokers', String(options.brokers));
  }
  if (options.defaultReplicationFactor !== undefined) {
    checkCount('defaultReplicationFactor', options.defaultReplicationFactor, 1);
    args.push('--default-replication-factor', String(options.defaultReplicationFactor));
  }
  if (options.logDirs !== undefined) {
    if (typeof options.logDirs !== 'string' || options.logDirs === '') {
      throw new TypeError('kgroupsd: logDirs must be the path of a folder (a non-empty string)');
    }
    args.push('--log-dirs', options.logDirs);
  }
  if (options.logFlushIntervalMessages !== undefined) {
    checkCount('logFlushIntervalMessages', options.logFlushIntervalMessages, 1);
    args.push('--log-flush-interval-messages', String(options.logFlushIntervalMessages));
  }
  if (options.logFlushIntervalMs !== undefined) {
    checkCount('logFlushIntervalMs', options.logFlushIntervalMs, 0);
    args.push('--log-flush-interval-ms', String(options.logFlushIntervalMs));
  }
  const extra = options.extraArgs ?? [];
  if (!Array.isArray(extra) || !extra.every((arg) => typeof arg === 'string')) {
    throw new TypeError('kgroupsd: extraArgs must be an array of strings');
  }
  args.push(...extra);
  return args;
}

module.exports = { findKgroupsd, kgroupsdArgs, npmKgroupsdBuild };
