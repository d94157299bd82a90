import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { testApp, type TestApp } from '../helpers/app.js';
import { MIN_BODY_LIMIT } from '../../src/config.js';
import { EVENT_BODY_KEYS } from '../../src/tracking/event-input.js';

describe('OpenAPI document and /docs', () => {
  let t: TestApp;
  let doc: {
    openapi: string;
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    components: { schemas: Record<string, unknown> };
  };
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
    for (const name of ['Error', 'Report', 'Website', 'CheckObject', 'Project', 'Account'])
      assert.ok(doc.components.schemas[name], name);
    const create = doc.paths['/api/v1/reports'].post;
    for (const status of ['201', '401', '422', '429']) assert.ok(create.responses[status], `POST /reports ${status}`);
    const show = doc.paths['/api/v1/websites/{id}'].get;
    assert.ok(show.responses['404']);
  });

  test('/api/event’s body is described as the server parses it: every long and short key, what a value may be', () => {
    const body = (doc.paths['/api/event'].post as unknown as { requestBody: { content: Record<string, { schema: Schema }> } })
      .requestBody;
    type Schema = { properties: Record<string, Record<string, unknown>>; allOf?: unknown[]; description?: string };
    for (const type of ['application/json', 'text/plain']) {
      const schema = body.content[type].schema;
      assert.deepEqual(Object.keys(schema.properties).sort(), [...EVENT_BODY_KEYS].sort(), type);
      // Only name|n and url|u are required, under either key.
      assert.deepEqual(schema.allOf, [
        { anyOf: [{ required: ['name'] }, { required: ['n'] }] },
        { anyOf: [{ required: ['url'] }, { required: ['u'] }] },
      ]);
      const types = (key: string) => JSON.stringify(schema.properties[key]);
      assert.match(types('website'), /"integer".*"string"/, 'an id: a number or a numeric string');
      assert.match(types('i'), /"boolean"/, 'i: also the interactive flag');
      assert.match(types('p'), /"object".*"string"/, 'props: an object or a JSON string');
      assert.match(String(schema.properties.w.description), /window|width/i);
      assert.match(String(schema.description), /Refused with a 400/);
    }
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

describe('the document admits what the server accepts, and no more than it can take', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp();
    ({ key } = await t.account());
  });
  after(() => t.close());

  test('empty values, null and digit strings are documented wherever the server takes them; page takes anything', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const create = doc.paths['/api/v1/websites'].post.requestBody;
    assert.equal(create.required, true, 'domain is required');
    const json = create.content['application/json'].schema.properties;
    const form = create.content['application/x-www-form-urlencoded'].schema.properties;
    const accepts = (schema: { anyOf?: object[] }, alternative: object) =>
      (schema.anyOf ?? [schema]).some((s) => JSON.stringify(s) === JSON.stringify(alternative));
    assert.ok(accepts(json.privacy, { type: 'null' }), 'JSON null');
    assert.ok(accepts(form.privacy, { type: 'string', pattern: '^\\s*$' }), 'an empty value');
    assert.ok(accepts(json.privacy, { type: 'string', pattern: '^\\s*0*(?:0|1|2)\\s*$' }), '"1" as well as 1');
    assert.ok(
      !accepts(form.domain, { type: 'null' }) && !json.domain.anyOf?.some((s: { pattern?: string }) => s.pattern === '^\\s*$'),
      'a required field is not optional',
    );
    const update = doc.paths['/api/v1/reports/{id}'].put;
    assert.equal(update.requestBody.required, false, 'update parameters may come in the query string instead');
    assert.ok(update.parameters.some((p: { in: string; name: string }) => p.in === 'query' && p.name === 'privacy'));
    const page = doc.paths['/api/v1/reports'].get.parameters.find((p: { name: string }) => p.name === 'page');
    assert.equal(page.schema.type, undefined, 'page: any value');
    const unlock = doc.paths['/reports/{id}'].post;
    assert.equal(unlock.requestBody.content['application/json'].schema.required, undefined, 'the unlock password is optional');
    for (const status of ['303', '401', '403', '404', '429', '400', '413', '415'])
      assert.ok(unlock.responses[status], `unlock documents ${status}`);
    for (const status of ['200', '404']) assert.ok(doc.paths['/reports/{id}'].get.responses[status]);
    for (const [path, item] of Object.entries(
      doc.paths as Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>,
    )) {
      for (const [method, op] of Object.entries(item)) {
        if (op.requestBody || method === 'delete')
          for (const status of ['400', '413', '415']) assert.ok(op.responses[status], `${method} ${path} documents ${status}`);
        if (path.startsWith('/api/v1/') && path !== '/api/v1/openapi.json')
          for (const status of ['401', '429']) assert.ok(op.responses[status], `${method} ${path} documents ${status}`);
      }
    }
  });

  test('the largest body the document allows fits in the smallest BODY_LIMIT, however it is encoded', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const fields = doc.paths['/api/v1/websites'].post.requestBody.content['application/x-www-form-urlencoded'].schema.properties;
    const longest: Record<string, string> = {};
    for (const [name, schema] of Object.entries(
      fields as Record<string, { anyOf?: { maxLength?: number }[]; maxLength?: number }>,
    )) {
      const max = Math.max(...(schema.anyOf ?? [schema]).map((s) => s.maxLength ?? 2));
      longest[name] = '😀'.repeat(max); // 4 UTF-8 bytes each: 12 bytes percent-encoded
    }
    const body = new URLSearchParams(longest).toString();
    assert.ok(Buffer.byteLength(body) <= MIN_BODY_LIMIT, `${Buffer.byteLength(body)} bytes`);
    const res = await t.call(key, {
      method: 'POST',
      url: '/api/v1/websites',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: body,
    });
    assert.equal(res.statusCode, 422, 'refused for its content, not its size');
  });

  test('a method the server does not route (QUERY, PROPFIND, TRACE) on a known path: 405 with Allow, never 400', async () => {
    for (const method of ['QUERY', 'PROPFIND', 'TRACE']) {
      const res = await t.app.inject({
        method: method as 'GET',
        url: '/api/v1/websites',
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(res.statusCode, 405, method);
      assert.equal(res.headers.allow, 'GET, HEAD, POST');
      const unknown = await t.app.inject({ method: method as 'GET', url: '/api/v1/nowhere' });
      assert.equal(unknown.statusCode, 404, `${method} on an unknown path`);
    }
  });
});
