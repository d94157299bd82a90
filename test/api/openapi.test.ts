import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { testApp, type TestApp } from '../helpers/app.js';

describe('OpenAPI document and /docs', () => {
  let t: TestApp;
  let doc: { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>>; components: { schemas: Record<string, unknown> } };
  before(async () => {
    t = await testApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    assert.equal(res.statusCode, 200);
    doc = res.json();
  });
  after(() => t.close());

  test('is a valid OpenAPI 3.1 document', async () => {
    assert.match(doc.openapi, /^3\.1\./);
    const result = await new Validator().validate(doc as never);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
  });

  test('every registered route appears in it, with its method', () => {
    const routes = t.app.registeredRoutes.filter((r) => r.documented && r.method !== 'HEAD');
    assert.ok(routes.length >= 14, `${routes.length} routes`);
    for (const route of routes) {
      const path = route.url.replace(/:([A-Za-z_]+)/g, '{$1}');
      assert.ok(doc.paths[path], `${path} is documented`);
      assert.ok(doc.paths[path][route.method.toLowerCase()], `${route.method} ${path} is documented`);
    }
    // and the hidden ones are only the docs UI's own assets
    for (const hidden of t.app.registeredRoutes.filter((r) => !r.documented)) assert.match(hidden.url, /^\/docs/);
  });

  test('names the shared shapes and documents the error responses', () => {
    for (const name of ['Error', 'Report', 'Website', 'CheckObject', 'Project', 'Account']) assert.ok(doc.components.schemas[name], name);
    const create = doc.paths['/api/v1/reports'].post;
    for (const status of ['201', '401', '422', '429']) assert.ok(create.responses[status], `POST /reports ${status}`);
    const show = doc.paths['/api/v1/websites/{id}'].get;
    assert.ok(show.responses['404']);
  });

  test('/docs serves the interactive documentation from this origin', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /swagger-ui-bundle\.js/);
    assert.ok(!/https?:\/\//.test(res.body.replace(/<!--[\s\S]*?-->/g, '')), 'no absolute URL to another origin');
    const init = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    assert.equal(init.statusCode, 200);
    assert.match(init.body, /\/api\/v1\/openapi\.json/);
    assert.match(res.headers['content-security-policy'] as string, /default-src 'none'; script-src 'self'/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });
});
