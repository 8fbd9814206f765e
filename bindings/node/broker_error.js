// SPDX-License-Identifier: Apache-2.0
//
// BrokerError: what kgroupsd's HTTP API answered when it refused a request (HTTP-API.md,
// "errors"): the server's message, the HTTP status, and the request that got it.
'use strict';

class BrokerError extends Error {
  /**
   * @param {string} message the server's error message
   * @param {number} status the HTTP status (400 bad input, 404 unknown, 409 conflict, ...)
   * @param {string} method the request's method
   * @param {string} path the request's path, with its query
   */
  constructor(message, status, method, path) {
    super(`${method} ${path}: ${status} ${message}`);
    this.name = 'BrokerError';
    this.status = status;
    this.serverMessage = message;
    this.method = method;
    this.path = path;
  }
}

module.exports = { BrokerError };
