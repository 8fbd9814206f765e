// SPDX-License-Identifier: Apache-2.0
//
// ControlClient: JSON requests to kgroupsd's HTTP API (docs/HTTP-API.md) over Node's own
// http module, one connection per request (nothing is left open to keep a test process
// alive). Every request is bounded by a timeout. An error answer rejects with a BrokerError
// carrying the server's message and status; a broken connection rejects with an Error.
'use strict';

const http = require('node:http');
const { BrokerError } = require('./broker_error.js');

class ControlClient {
  /**
   * @param {string} host
   * @param {number} port
   * @param {number} timeoutMs how long one request may take
   */
  constructor(host, port, timeoutMs) {
    this.host = host;
    this.port = port;
    this.timeoutMs = timeoutMs;
  }

  /**
   * Sends the request and resolves to the parsed JSON answer (or the text, for a body that
   * is not JSON; undefined for an empty one).
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body] sent as JSON
   */
  request(method, path, body) {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers = { accept: 'application/json' };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    return new Promise((resolve, reject) => {
      const request = http.request(
        { host: this.host, port: this.port, method, path, headers, agent: false, timeout: this.timeoutMs },
        (response) => {
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const json = (response.headers['content-type'] || '').includes('json');
            let parsed = text === '' ? undefined : text;
            if (json && text !== '') {
              try {
                parsed = JSON.parse(text);
              } catch (error) {
                reject(new Error(`${method} ${path}: kgroupsd answered JSON that does not parse (${error.message}): ${text.slice(0, 200)}`));
                return;
              }
            }
            const status = response.statusCode ?? 0;
            if (status >= 200 && status < 300) {
              resolve(parsed);
              return;
            }
            const message = parsed?.error?.message ?? (typeof parsed === 'string' ? parsed : response.statusMessage);
            reject(new BrokerError(String(message), status, method, path));
          });
        },
      );
      request.on('timeout', () => {
        request.destroy(new Error(`${method} ${path}: kgroupsd did not answer in ${this.timeoutMs} ms`));
      });
      request.on('error', (error) => {
        reject(error.message.startsWith(method) ? error : new Error(`${method} ${path}: ${error.message}`, { cause: error }));
      });
      request.end(payload);
    });
  }
}

module.exports = { ControlClient };
