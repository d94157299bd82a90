import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp } from '../helpers/app.js';
import { CHROMIUM, noBrowser } from '../helpers/browser.js';
import { VERSION } from '../../src/config.js';

test('GET /health: no key needed; 200 with the version while the database answers, 503 when it does not', async () => {
  const t = await testApp({ CHROMIUM_PATH: '/nonexistent/chromium' });
  try {
    const ok = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json(), { status: 'ok', database: 'ok', version: VERSION, render: false });
    assert.match(VERSION, /^\d+\.\d+\.\d+/);
    await t.db.handle.close();
    const down = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(down.statusCode, 503);
    assert.deepEqual(down.json(), { status: 'unavailable', database: 'unreachable', version: VERSION, render: false });
  } finally {
    await t.close();
  }
});

test('GET /health: render is true where Chromium is at CHROMIUM_PATH', { skip: noBrowser }, async () => {
  const t = await testApp({ CHROMIUM_PATH: CHROMIUM });
  try {
    const ok = await t.app.inject({ method: 'GET', url: '/health' });
    assert.deepEqual(ok.json(), { status: 'ok', database: 'ok', version: VERSION, render: true });
  } finally {
    await t.close();
  }
});
