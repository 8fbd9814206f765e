// SPDX-License-Identifier: Apache-2.0
//
// Debian's Chromium (/usr/bin/chromium, or $CHROMIUM), headless, driven by puppeteer-core
// (which never downloads a browser), for the console tests; screenshots of each step go to
// build/test-artifacts/browser/. A page's console errors and failed requests are collected so
// a test can show them when it fails.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const puppeteer = require('puppeteer-core');
const { ROOT } = require('./kgroupsd.js');

const ARTIFACTS = path.join(ROOT, 'build', 'test-artifacts', 'browser');
const STEP_TIMEOUT_MS = 30000;

async function openConsole(url) {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    // CI runs as root, where Chromium's sandbox cannot start.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--no-proxy-server'],
    timeout: STEP_TIMEOUT_MS,
  });
  const page = await browser.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  await page.setViewport({ width: 1280, height: 900 });
  const problems = [];
  page.on('console', (message) => {
    // A failed request is logged too; the page shows the API's error for those itself.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('body[data-ready="true"]');
  return { browser, page, problems };
}

async function screenshot(page, name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

module.exports = { ARTIFACTS, STEP_TIMEOUT_MS, openConsole, screenshot };
