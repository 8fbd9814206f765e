// SPDX-License-Identifier: Apache-2.0
//
// Kills the kgroupsd processes a test process started when that process ends: on 'exit'
// (a normal end, process.exit, an uncaught error) and on SIGINT, SIGTERM and SIGHUP (a test
// runner stopping a file that timed out). The signal listeners are installed only while a
// child is alive; when one is the only listener left, it kills the children, removes itself
// and sends the signal again, so the process still ends the way it would have without it.
'use strict';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const children = new Set();

function killAll() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
}

function onSignal(signal) {
  killAll();
  uninstall();
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function install() {
  process.on('exit', killAll);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function uninstall() {
  process.off('exit', killAll);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

/**
 * Kills this child (SIGKILL) if the process ends while it is still running.
 * @param {import('node:child_process').ChildProcess} child
 */
function killOnExit(child) {
  if (children.size === 0) install();
  children.add(child);
  child.once('exit', () => {
    children.delete(child);
    if (children.size === 0) uninstall();
  });
}

module.exports = { killOnExit };
