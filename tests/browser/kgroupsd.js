// SPDX-License-Identifier: Apache-2.0
//
// kgroupsd for the browser tests: the dev build's binary ($KGROUPSD overrides it) started by
// the client tests' launcher (tests/clients/kgroupsd.js: free ports, bounded wait for the
// ready line, killed when the test process exits), always with --http.
'use strict';

const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
process.env.KGROUPSD ??= path.join(ROOT, 'build/dev/tools/kgroupsd/kgroupsd');
const { startKgroupsd } = require('../clients/kgroupsd.js');

// Resolves to { bootstrap, url: 'http://HOST:PORT', stop(), log() }.
async function startBroker(args = []) {
  const broker = await startKgroupsd(['--http', '127.0.0.1:0', ...args]);
  return { ...broker, url: `http://${broker.http}` };
}

// GET `path` on the broker's HTTP endpoint: { status, body (parsed JSON) }.
async function getJson(broker, path) {
  const response = await fetch(broker.url + path, { signal: AbortSignal.timeout(5000) });
  return { status: response.status, body: await response.json() };
}

module.exports = { ROOT, startBroker, getJson };
