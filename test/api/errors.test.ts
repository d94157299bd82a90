import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../helpers/app.js';

describe('error responses', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp();
    ({ key } = await t.account());
  });

  test('unknown API routes: 404 Not found., JSON whatever the Accept header', async () => {
    for (const [url, accept] of [
      ['/api/v1/nope', 'application/json'],
      ['/api/v2/websites', 'text/html'],
      ['/api/v1/websites/1/extra', ''],
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept, authorization: `Bearer ${key}` } });
      assert.equal(res.statusCode, 404, url);
      assert.match(res.headers['content-type'] as string, /^application\/json/);
      assert.deepEqual(res.json(), { message: 'Not found.', status: 404 });
    }
    // outside the API a browser gets a page, any other method the JSON error
    const page = await t.app.inject({ method: 'GET', url: '/nope' });
    assert.equal(page.statusCode, 404);
    assert.match(page.headers['content-type'] as string, /^text\/html/);
    const post = await t.app.inject({ method: 'POST', url: '/nope' });
    assert.deepEqual([post.statusCode, post.json()], [404, { message: 'Not found.', status: 404 }]);
  });

  test('a known path with a wrong method: 405 with Allow, before authentication', async () => {
    const cases: [string, string, string][] = [
      ['POST', '/api/v1/websites/1', 'GET, HEAD, PUT, PATCH, DELETE'],
      ['DELETE', '/api/v1/websites', 'GET, HEAD, POST'],
      ['PUT', '/api/v1/websites', 'GET, HEAD, POST'],
    ];
    for (const [method, url, allow] of cases) {
      const res = await t.app.inject({ method: method as 'POST', url });
      assert.equal(res.statusCode, 405, `${method} ${url}`);
      assert.equal(res.headers.allow, allow);
      assert.deepEqual(res.json(), {
        message: `The ${method} method is not supported for route ${url.slice(1)}. Supported methods: ${allow}.`,
        status: 405,
      });
    }
    const options = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/websites' });
    assert.equal(options.statusCode, 200);
    assert.equal(options.headers.allow, 'GET,HEAD,POST');
  });

  test('HEAD answers like GET without a body', async () => {
    const res = await t.call(key, { method: 'HEAD', url: '/api/v1/websites' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, '');
  });

  test('413 for a body over the limit; nothing is created', async () => {
    const res = await t.call(key, {
      method: 'POST',
      url: '/api/v1/websites',
      form: { domain: 'big.example', exclude_params: 'p\n'.repeat(100_000) },
    });
    assert.equal(res.statusCode, 413);
    assert.deepEqual(res.json(), { message: 'The request body is too large.', status: 413 });
    assert.equal((await t.call(key, { method: 'GET', url: '/api/v1/websites?search=big' })).json().meta.total, 0);
  });

  test('415 for an unsupported body type', async () => {
    for (const type of ['text/plain', 'multipart/form-data; boundary=x', 'application/xml']) {
      const res = await t.call(key, {
        method: 'POST',
        url: '/api/v1/websites',
        headers: { 'content-type': type },
        payload: 'domain=a.example',
      });
      assert.equal(res.statusCode, 415, type);
      assert.equal(res.json().status, 415);
      assert.match(res.json().message, /^Unsupported media type/);
    }
  });

  test('400 for malformed JSON; an empty JSON body is an empty input (422)', async () => {
    const bad = await t.call(key, {
      method: 'POST',
      url: '/api/v1/websites',
      headers: { 'content-type': 'application/json' },
      payload: '{"domain":',
    });
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(bad.json(), { message: 'The request body is not valid JSON.', status: 400 });
    const empty = await t.call(key, {
      method: 'POST',
      url: '/api/v1/websites',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    assert.equal(empty.statusCode, 422);
    assert.deepEqual(empty.json().errors, { domain: ['The domain field is required.'] });
    const array = await t.call(key, {
      method: 'POST',
      url: '/api/v1/websites',
      headers: { 'content-type': 'application/json' },
      payload: '[1,2]',
    });
    assert.equal(array.statusCode, 422);
  });

  test('every response carries an X-Request-Id; a sane incoming one is kept', async () => {
    const res = await t.call(key, { method: 'GET', url: '/api/v1/websites', headers: { 'x-request-id': 'trace-123' } });
    assert.equal(res.headers['x-request-id'], 'trace-123');
    const other = await t.call(key, { method: 'GET', url: '/api/v1/websites', headers: { 'x-request-id': 'bad id\u0001' } });
    assert.match(other.headers['x-request-id'] as string, /^[0-9a-f-]{36}$/);
    assert.ok(t.logs.some((l) => l.includes('"requestId":"trace-123"')));
  });
});
