// CORS on /api/v1/* as Laravel's default config/cors.php answers it: any origin may call the API
// with a bearer key; nothing else (share pages, the dashboard, collection's own) changes.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../helpers/app.js';

describe('CORS on the API', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp();
    key = (await t.account()).key;
  });

  test('a preflight is answered 204 before authentication, echoing the method and headers asked for', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/reports/12',
      headers: {
        origin: 'http://127.0.0.2:9000',
        'access-control-request-method': 'put',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers['access-control-allow-methods'], 'PUT');
    assert.equal(res.headers['access-control-allow-headers'], 'authorization,content-type');
    assert.equal(res.headers['access-control-max-age'], '0');
    assert.equal(res.headers['access-control-allow-credentials'], undefined);
  });

  test('answers of every kind carry Access-Control-Allow-Origin: a list, a 401, a 404, a 422', async () => {
    const origin = { origin: 'https://client.example' };
    const list = await t.call(key, { method: 'GET', url: '/api/v1/websites', headers: origin });
    assert.equal(list.statusCode, 200);
    const unauthenticated = await t.app.inject({ method: 'GET', url: '/api/v1/reports', headers: origin });
    assert.equal(unauthenticated.statusCode, 401);
    const missing = await t.call(key, { method: 'GET', url: '/api/v1/nothing-here', headers: origin });
    assert.equal(missing.statusCode, 404);
    const invalid = await t.call(key, { method: 'POST', url: '/api/v1/websites', form: {}, headers: origin });
    assert.equal(invalid.statusCode, 422);
    for (const res of [list, unauthenticated, missing, invalid]) {
      assert.equal(res.headers['access-control-allow-origin'], '*', `${res.statusCode}`);
      assert.equal(res.headers['access-control-allow-credentials'], undefined);
    }
  });

  test('an OPTIONS without a preflight header is still the Allow list (no CORS answer to a plain OPTIONS)', async () => {
    const res = await t.call(key, { method: 'OPTIONS', url: '/api/v1/websites' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers.allow), /GET/);
  });

  test('share pages, the dashboard, the docs and health answer no CORS headers', async () => {
    for (const url of ['/login', '/app', '/reports/1', '/websites/1', '/health', '/docs', '/api/openapi.json']) {
      // (the dashboard's paths send OPTIONS to the sign-in like any request without a session)
      for (const method of url === '/app' ? (['GET'] as const) : (['GET', 'OPTIONS'] as const)) {
        const res = await t.app.inject({
          method,
          url,
          headers: { origin: 'https://other.example', 'access-control-request-method': 'GET' },
        });
        assert.equal(res.headers['access-control-allow-origin'], undefined, `${method} ${url} → ${res.statusCode}`);
        assert.notEqual(res.statusCode, 204, `${method} ${url}`);
      }
    }
  });
});
