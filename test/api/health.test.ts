import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp } from '../helpers/app.js';
import { VERSION } from '../../src/config.js';

test('GET /health: no key needed; 200 with the version while the database answers, 503 when it does not', async () => {
  const t = await testApp();
  try {
    const ok = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json(), { status: 'ok', database: 'ok', version: VERSION });
    assert.match(VERSION, /^\d+\.\d+\.\d+/);
    await t.db.handle.close();
    const down = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(down.statusCode, 503);
    assert.deepEqual(down.json(), { status: 'unavailable', database: 'unreachable', version: VERSION });
  } finally {
    await t.close();
  }
});
