// Property: the published OpenAPI document and the server agree. For every operation, requests
// generated from the document's own schemas (valid ones, and ones made invalid in one field)
// are sent; a valid request gets its documented success (or, where a rule the schema cannot
// express applies, the documented 422 naming that rule's field), an invalid one a documented
// 4xx naming the field, and the response hook (helpers/contract.ts) checks every answer's
// status, content type and shape against the document.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { testApp, type TestApp } from '../helpers/app.js';
import { seedReport } from '../helpers/seed.js';
import { goodPage, startSite, type PageSite } from '../helpers/pages.js';
import { ISSUE_TYPES } from '../../src/crawl/issues/catalogue.js';

type Json = Record<string, any>;
type Where = 'query' | 'form' | 'json';

const RUNS = { numRuns: 20 };

/** Valid values for the formats the document names (fast-check knows none of them). */
function formatArbitrary(format: string, site: PageSite): fc.Arbitrary<string> {
  switch (format) {
    case 'http-url':
      return fc.constantFrom('/', '/a', '/b-c', '/page?x=1').map((p) => `${site.origin}${p}`);
    case 'domain':
      return fc
        .tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/), fc.constantFrom('example', 'test', 'co.uk'))
        .map(([a, b]) => `${a}.${b}`);
    case 'ip-list':
      return fc
        .array(
          fc.oneof(
            fc.ipV4(),
            fc.ipV6(),
            fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 })).map(([ip, n]) => `${ip}/${n}`),
          ),
          { maxLength: 4 },
        )
        .map((l) => l.join('\n'));
    case 'param-list':
      return fc.array(fc.stringMatching(/^[a-z_][a-z0-9_]{0,10}$/), { maxLength: 4 }).map((l) => l.join('\n'));
    case 'webhook-url':
      return fc.constantFrom('/', '/hook', '/hook?x=1').map((p) => `${site.origin}${p}`);
    case 'issue-types':
      return fc.uniqueArray(fc.constantFrom(...ISSUE_TYPES), { minLength: 1, maxLength: 4 }).map((l) => l.join(','));
    case 'date':
      return fc.integer({ min: 0, max: 60 }).map((n) => new Date(Date.UTC(2026, 10, 1 + n)).toISOString().slice(0, 10));
    default:
      throw new Error(`no arbitrary for format ${format}`);
  }
}

/** Invalid values for a field's value schema (the first form the document gives for it). */
function invalidValues(schema: Json): unknown[] {
  if (schema.type === 'integer') {
    const out: unknown[] = ['abc', '1.5', '-3', 'true'];
    if (schema.enum) out.push(String(Math.max(...schema.enum) + 7));
    if (schema.maximum !== undefined) out.push(String(schema.maximum + 1));
    return out;
  }
  if (schema.type === 'boolean') return ['yes', '2', 'maybe'];
  if (schema.type === 'string') {
    const out: unknown[] = [];
    if (schema.enum) out.push('zzz-not-listed');
    if (schema.maxLength !== undefined) out.push('x'.repeat(schema.maxLength + 1));
    if (schema.format === 'http-url') out.push('not a url', 'ftp://example.com/', 'http://user:pw@127.0.0.1/');
    if (schema.format === 'webhook-url') out.push('not a url', 'example.com', 'ftp://example.com/', 'http://user:pw@127.0.0.1/');
    if (schema.format === 'domain') out.push('not a domain', '-bad.example', 'exa_mple.com');
    if (schema.format === 'ip-list') out.push('1.2.3.4\n999.1.1.1', '10.0.0.0/99');
    if (schema.format === 'param-list') out.push('a b', 'x=y');
    if (schema.format === 'issue-types') out.push('no_such_type', 'broken_link,Broken_Link');
    if (schema.format === 'date') out.push('2026-02-30', '2026-1-05', '05/01/2026', 'today');
    return out;
  }
  return [];
}

/** The value form of a documented field: the first non-blank alternative. */
function valueSchema(field: Json): Json {
  return field.anyOf ? field.anyOf[0] : field;
}

function valueArbitrary(schema: Json, where: Where, site: PageSite): fc.Arbitrary<unknown> {
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s: Json) => valueArbitrary(s, where, site)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case undefined:
      return fc.oneof(fc.string(), fc.integer().map(String));
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'number':
      return fc.integer({ min: -1000, max: 1000 });
    case 'array':
      // A form or query string carries it comma-separated (encode() joins it), JSON as an array.
      return fc.array(valueArbitrary(schema.items, where, site), { minLength: schema.minItems ?? 0, maxLength: 4 });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? 0, max: schema.maximum ?? 10_000 });
    case 'string': {
      if (schema.format) return formatArbitrary(schema.format, site);
      const max = schema.maxLength ?? 40;
      if (schema.pattern) {
        const pattern = schema.pattern === '\\S' ? '^\\s?\\S[^\\u0000]{0,20}$' : schema.pattern;
        return fc.stringMatching(new RegExp(pattern)).filter((s) => [...s].length <= max);
      }
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(max, 40) }).filter((s) => !s.includes('\u0000'));
    }
    default:
      throw new Error(`no arbitrary for ${JSON.stringify(schema)}`);
  }
}

/** Values as the wire carries them: strings in a query or form, JSON types in JSON. */
function encode(value: unknown, where: Where): unknown {
  if (where === 'json') return value;
  if (value === null) return '';
  return typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
}

interface Input {
  query: Record<string, unknown>;
  body: Record<string, unknown> | null;
  json: boolean;
  /** The field made invalid, if any. */
  broken: string | null;
}

function inputArbitrary(op: Json, site: PageSite, invalid: boolean): fc.Arbitrary<Input> {
  const params = ((op.parameters ?? []) as Json[]).filter((p) => p.in === 'query');
  const content = op.requestBody?.content as Json | undefined;
  return fc.boolean().chain((json) => {
    const where: Where = json && content ? 'json' : 'form';
    const bodySchema = content
      ? (json ? content['application/json'] : content['application/x-www-form-urlencoded']).schema
      : null;
    const bodyFields = bodySchema ? (Object.entries(bodySchema.properties) as [string, Json][]) : [];
    const required = new Set<string>(bodySchema?.required ?? []);
    // Query parameters that duplicate body fields (updates) are left to the body here.
    const queryFields = params.filter((p) => !bodyFields.some(([n]) => n === p.name));
    const record = (fields: [string, Json, boolean][], w: Where) =>
      fc.record(
        Object.fromEntries(fields.map(([name, schema]) => [name, valueArbitrary(schema, w, site).map((v) => encode(v, w))])),
        { requiredKeys: fields.filter(([, , req]) => req).map(([n]) => n) },
      );
    const base = fc.record({
      query: record(
        queryFields.map((p) => [p.name, p.schema, p.required === true]),
        'query',
      ),
      body: bodySchema
        ? record(
            bodyFields.map(([n, s]) => [n, s, required.has(n)]),
            where,
          )
        : fc.constant(null),
    });
    if (!invalid) return base.map((b) => ({ ...b, json: where === 'json', broken: null }));
    const breakable = [
      ...queryFields
        .filter((p) => invalidValues(valueSchema(p.schema)).length > 0)
        .map((p) => ({ name: p.name, schema: valueSchema(p.schema), in: 'query' as const })),
      ...bodyFields
        .filter(([, s]) => invalidValues(valueSchema(s)).length > 0)
        .map(([name, s]) => ({ name, schema: valueSchema(s), in: 'body' as const })),
    ];
    if (breakable.length === 0) return fc.constant(null as unknown as Input).filter(() => false);
    return fc.tuple(base, fc.constantFrom(...breakable)).chain(([b, field]) =>
      fc.constantFrom(...invalidValues(field.schema)).map((bad) => {
        const copy = { query: { ...b.query }, body: b.body ? { ...b.body } : null };
        if (field.in === 'query') copy.query[field.name] = bad;
        else copy.body![field.name] = bad;
        return { ...copy, json: where === 'json', broken: field.name };
      }),
    );
  });
}

function queryString(query: Record<string, unknown>): string {
  const pairs = Object.entries(query).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return pairs.length ? `?${pairs.join('&')}` : '';
}

/**
 * Operations whose body no document schema describes: POST /api/event reads Plausible's JSON
 * (described in its prose) with its own parser and answers 400, not 422; test/tracking/collect.test.ts
 * sends it real events, and the response hook still checks those answers against the document.
 */
const OWN_BODY_PARSER = new Set(['post /api/event']);

/**
 * 422 rules the schemas cannot express: the field each may name for a valid-looking request (`to`: before `from`;
 * `report_id`: not one of the account's reports).
 */
const CROSS_FIELD_RULES = new Set(['password', 'domain', 'to', 'report_id', 'prop']);

/** The dashboard's routes: /login, /logout, /app… (test/dashboard/ walks them with a session). */
const isDashboard = (path: string) => path === '/login' || path === '/logout' || path === '/app' || path.startsWith('/app/');

describe('the OpenAPI document and the server agree, for every operation', () => {
  let t: TestApp;
  let site: PageSite;
  let key: string;
  let userId: number;
  let doc: Json;
  before(async () => {
    site = await startSite({ '/': goodPage(), '/a': goodPage(), '/b-c': goodPage(), '/page': goodPage() });
    // Each case makes a monitor of its own for one account: more than MAX_MONITORS's default.
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', MAX_MONITORS: '100000' });
    ({ key, id: userId } = await t.account());
    doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  /** A path with its parameters filled: an existing resource of the account, or an unknown one. */
  async function concretePath(path: string, existing: boolean): Promise<string> {
    if (!path.includes('{')) return path;
    if (!existing) return path.replace(/\{[^}]+\}/, path.includes('{project}') ? 'no-such-project.example' : '987654');
    if (path.startsWith('/api/v1/reports/') || path.startsWith('/reports/')) {
      const report = await seedReport(t.db.handle, userId, {
        url: `${site.origin}/a`,
        privacy: path.startsWith('/reports/') ? 2 : 1,
        password: 'pw',
      });
      return path.replace('{id}', String(report.id));
    }
    if (path.startsWith('/api/v1/websites/') || path.startsWith('/websites/') || path.startsWith('/api/v1/stats/')) {
      const domain = `site-${Math.random().toString(36).slice(2)}.example`;
      const created = await t.call(key, {
        method: 'POST',
        url: '/api/v1/websites',
        form: { domain, privacy: '2', password: 'pw' },
      });
      return path.replace('{id}', String(created.json().data.id));
    }
    if (path.startsWith('/api/v1/monitors/')) {
      const report = await seedReport(t.db.handle, userId, { url: `${site.origin}/a` });
      const created = await t.call(key, {
        method: 'POST',
        url: '/api/v1/monitors',
        form: { report_id: String(report.id), frequency: 'weekly' },
      });
      return path.replace('{id}', String(created.json().data.id));
    }
    if (path.startsWith('/api/v1/crawls/')) {
      const created = await t.call(key, {
        method: 'POST',
        url: '/api/v1/crawls',
        form: { url: `${site.origin}/`, max_pages: '5' },
      });
      return path.replace('{id}', String(created.json().data.id));
    }
    if (path.startsWith('/api/v1/projects/')) {
      await seedReport(t.db.handle, userId, { url: 'https://project.example/x' });
      return path.replace('{project}', 'project.example');
    }
    if (path.startsWith('/api/v1/webhooks/')) {
      const created = await t.call(key, {
        method: 'POST',
        url: '/api/v1/webhooks',
        form: { url: `${site.origin}/hook`, events: 'report.created' },
      });
      return path.replace('{id}', String(created.json().data.id));
    }
    throw new Error(`no resource for ${path}`);
  }

  async function send(method: string, path: string, input: Input): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = path.startsWith('/api/')
      ? { authorization: `Bearer ${key}`, accept: 'application/json' }
      : {};
    let payload: string | undefined;
    if (input.body) {
      headers['content-type'] = input.json ? 'application/json' : 'application/x-www-form-urlencoded';
      payload = input.json
        ? JSON.stringify(input.body)
        : Object.entries(input.body)
            .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
            .join('&');
    }
    return t.app.inject({ method: method.toUpperCase() as 'GET', url: path + queryString(input.query), headers, payload });
  }

  // Event collection is not Laravel input (no 422s, no key): test/tracking/collect.test.ts covers its answers.
  // Dashboard pages of one resource (/app/…/{id}) need a session first (without one they answer
  // 303): test/dashboard/ covers them, and the response contract holds those answers to the document.
  const operations = (): [string, string, Json][] =>
    Object.entries(doc.paths as Record<string, Json>)
      .filter(([path]) => path !== '/api/event' && !(path.startsWith('/app/') && path.includes('{')))
      .flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => [path, method, op as Json] as [string, string, Json]),
      );

  test('valid requests, from the document: a documented success, or a documented 422 from a rule the schema cannot say', async () => {
    for (const [path, method, op] of operations()) {
      if (OWN_BODY_PARSER.has(`${method} ${path}`)) continue;
      const successes = Object.keys(op.responses)
        .filter((s) => /^[23]/.test(s))
        .map(Number);
      await fc.assert(
        fc.asyncProperty(inputArbitrary(op, site, false), async (input) => {
          const res = await send(method, await concretePath(path, true), input);
          const where = `${method.toUpperCase()} ${path} ${JSON.stringify(input)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
          if (res.statusCode === 422 && path.startsWith('/api/')) {
            assert.ok(
              Object.keys(res.json().errors).every((f) => CROSS_FIELD_RULES.has(f)),
              where,
            );
          } else if (path.startsWith('/reports/') || path.startsWith('/websites/')) {
            assert.ok([200, 303, 401].includes(res.statusCode), where);
          } else if (isDashboard(path)) {
            // Without a session (or with a made-up sign-in) the dashboard answers a documented
            // redirect, refusal or page: any documented answer, never an undocumented one.
            assert.ok(Object.keys(op.responses).map(Number).includes(res.statusCode), where);
          } else {
            assert.ok(successes.includes(res.statusCode), where);
          }
        }),
        RUNS,
      );
    }
  });

  test('requests with one field made invalid: a documented 4xx naming that field, and nothing changes', async () => {
    for (const [path, method, op] of operations()) {
      const hasInput = (op.parameters ?? []).some((p: Json) => p.in === 'query') || op.requestBody;
      if (!hasInput || !path.startsWith('/api/')) continue;
      await fc.assert(
        fc.asyncProperty(inputArbitrary(op, site, true), async (input) => {
          const target = await concretePath(path, true);
          // what the request could change: the resource itself, or the collection it adds to
          const watched = method === 'post' ? `${target}?per_page=10` : target;
          const before =
            method === 'get' ? null : await send('get', watched, { query: {}, body: null, json: false, broken: null });
          const res = await send(method, target, input);
          const where = `${method.toUpperCase()} ${path} ${JSON.stringify(input).slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
          assert.equal(res.statusCode, 422, where);
          assert.ok(Object.hasOwn(res.json().errors, input.broken!), where);
          if (before) {
            const afterwards = await send('get', watched, { query: {}, body: null, json: false, broken: null });
            assert.equal(afterwards.body, before.body, `${where}: nothing changed`);
          }
        }),
        RUNS,
      );
    }
  });

  test('unknown ids answer the documented 404, whatever the input', async () => {
    for (const [path, method, op] of operations()) {
      if (!path.includes('{')) continue;
      const res = await send(method, await concretePath(path, false), {
        query: {},
        body: op.requestBody ? {} : null,
        json: false,
        broken: null,
      });
      assert.equal(res.statusCode, 404, `${method} ${path}`);
      assert.ok(op.responses['404'], `${method} ${path} documents its 404`);
    }
  });
});
