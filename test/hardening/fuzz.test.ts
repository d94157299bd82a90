// Fuzzing every route with malformed methods, headers, bodies, ids and query strings: never a
// 5xx, and every error body in the API's error shape. Then raw bytes at a listening socket.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { testApp, type TestApp } from '../helpers/app.js';
import { formEncoded, jsonBody, pathId, paramValue } from '../helpers/arbitraries.js';
import { offlineAnalysis } from '../helpers/offline.js';
import { seedReport } from '../helpers/seed.js';

function assertErrorShape(status: number, contentType: string | undefined, body: string): void {
  assert.ok(status < 500, `status ${status}: ${body.slice(0, 300)}`);
  if (status < 400 || body === '' || !/json/.test(contentType ?? '')) return;
  const parsed = JSON.parse(body) as { message: unknown; status: unknown; errors?: Record<string, unknown> };
  assert.equal(typeof parsed.message, 'string', body.slice(0, 200));
  assert.equal(parsed.status, status, body.slice(0, 200));
  const keys = Object.keys(parsed).sort().join(',');
  assert.ok(keys === 'message,status' || (status === 422 && keys === 'errors,message,status'), `keys ${keys}`);
}

const ROUTES = [
  '/api/v1/websites',
  '/api/v1/websites/{id}',
  '/api/v1/reports',
  '/api/v1/reports/{id}',
  '/api/v1/projects',
  '/api/v1/projects/{id}',
  '/api/v1/account',
  '/api/v1/openapi.json',
  '/health',
  '/reports/{id}',
  '/websites/{id}',
  '/api/v1/{id}',
  '/{id}',
];

describe('fuzzing every route', () => {
  let t: TestApp;
  let key: string;
  let reportId: number;
  before(async () => {
    t = await testApp({ REQUEST_TIMEOUT: '2', RATE_LIMIT_PER_MINUTE: '100000' }, offlineAnalysis);
    const account = await t.account();
    key = account.key;
    reportId = (await seedReport(t.db.handle, account.id, { privacy: 2, password: 'pw' })).id;
  });
  after(() => t.close());

  const headerValue = fc.oneof(
    paramValue,
    fc.constantFrom('', ' ', '\t', 'application/json', 'text/plain', '*/*', 'gzip', '0', '-1', '99999999999'),
  );
  const headers = fc.record(
    {
      authorization: fc.oneof(
        { weight: 4, arbitrary: fc.constant('Bearer KEY') },
        { weight: 1, arbitrary: fc.constant('KEY') },
        { weight: 1, arbitrary: paramValue.map((v) => `Bearer ${v}`) },
        { weight: 1, arbitrary: paramValue },
      ),
      'content-type': fc.oneof(
        fc.constantFrom(
          'application/x-www-form-urlencoded',
          'application/json',
          'application/vnd.api+json',
          'multipart/form-data',
          'text/plain',
          'application/xml',
          'application/x-www-form-urlencoded; charset=latin1',
        ),
        headerValue,
      ),
      accept: headerValue,
      cookie: fc.oneof(headerValue, fc.constant('rankscope_report_1=s%3Aabc.def')),
      'x-forwarded-for': headerValue,
      'x-forwarded-host': headerValue,
      'x-forwarded-proto': headerValue,
      'x-request-id': headerValue,
      'x-http-method-override': fc.constantFrom('PUT', 'DELETE', 'GET'),
      'if-none-match': headerValue,
    },
    { requiredKeys: [] },
  );
  const header = (v: string) => v.replace(/[^\t\x20-\x7e]/g, '');

  test('inject: random method, route, id, query, headers and body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') },
          { weight: 1, arbitrary: fc.constantFrom('HEAD', 'OPTIONS', 'PROPFIND', 'TRACE', 'SEARCH') },
        ),
        fc.constantFrom(...ROUTES),
        fc.oneof(pathId, fc.constant(String(1)), fc.constant('OWN')),
        formEncoded,
        headers,
        fc.oneof(
          formEncoded,
          jsonBody.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
          fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b).toString('latin1')),
        ),
        async (method, route, id, query, hdrs, body) => {
          const url = route.replace('{id}', id === 'OWN' ? String(reportId) : id) + (query ? `?${query}` : '');
          const sent = Object.fromEntries(Object.entries(hdrs).map(([k, v]) => [k, header(String(v).replace('KEY', key))]));
          let res: LightMyRequestResponse;
          try {
            res = await t.app.inject({
              method: method as 'GET',
              url,
              headers: sent,
              ...(method === 'GET' || method === 'HEAD' ? {} : { payload: body }),
            });
          } catch (error) {
            // light-my-request refuses some inputs itself (e.g. an invalid URL); that is not our server
            if (/Invalid|URL|header/i.test(String(error))) return;
            throw error;
          }
          assertErrorShape(res.statusCode, res.headers['content-type'] as string | undefined, res.body);
        },
      ),
      { numRuns: 400 },
    );
  });

  test('raw sockets: malformed request lines, headers and framing', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as { port: number };
    const line = fc.oneof(
      fc.constantFrom(
        'GET / HTTP/1.1',
        'GET /api/v1/websites HTTP/1.1',
        'POST /api/v1/reports HTTP/1.1',
        'GET /api/v1/websites HTTP/9.9',
        'GET  /api/v1/websites HTTP/1.1',
        'G\u00e9T / HTTP/1.1',
        'GET /api/v1/websites/%zz HTTP/1.1',
        'GET /\u0000 HTTP/1.1',
        'get /health HTTP/1.1',
        'GET http://evil.example/health HTTP/1.1',
        'GET * HTTP/1.1',
        '',
        'HTTP/1.1 200 OK',
      ),
      fc.string({ maxLength: 80 }),
    );
    const extra = fc.array(
      fc.oneof(
        fc.constantFrom(
          'Host: a',
          'Host: a\r\nHost: b',
          'Content-Length: 5',
          'Content-Length: -1',
          'Content-Length: abc',
          'Content-Length: 99999999999',
          'Transfer-Encoding: chunked',
          'Transfer-Encoding: gzip, chunked',
          'Content-Length: 3\r\nTransfer-Encoding: chunked',
          `Authorization: Bearer ${'x'.repeat(100)}`,
          'Content-Type: application/json',
          'Expect: 100-continue',
          'Connection: upgrade\r\nUpgrade: websocket',
          ': no-name',
          'NoColon',
          'X-A:\u0000',
          `X-Long: ${'a'.repeat(20_000)}`,
        ),
        fc.string({ maxLength: 40 }),
      ),
      { maxLength: 5 },
    );
    const body = fc.oneof(
      fc.constant(''),
      fc.constantFrom('0\r\n\r\n', 'zz\r\nxx\r\n', '{"a":', 'url=http%3A%2F%2F127.0.0.1%2F'),
      fc.string({ maxLength: 100 }),
    );

    await fc.assert(
      fc.asyncProperty(line, extra, body, async (requestLine, headerLines, payload) => {
        const raw = [requestLine, ...headerLines, 'Connection: close', '', payload].join('\r\n');
        const answer = await new Promise<string>((resolve) => {
          const socket = connect(port, '127.0.0.1');
          let data = '';
          socket.setTimeout(3000, () => socket.destroy());
          socket.on('data', (chunk) => (data += chunk.toString('latin1')));
          socket.on('error', () => {});
          socket.on('close', () => resolve(data));
          socket.end(Buffer.from(raw, 'latin1'));
        });
        if (answer === '') return; // the server may simply close a connection it cannot parse
        for (const response of answer.split(/(?=HTTP\/1\.[01] \d{3} )/).filter((r) => r.startsWith('HTTP/'))) {
          const status = Number(response.slice(9, 12));
          const [head, ...rest] = response.split('\r\n\r\n');
          const contentType = /content-type: ([^\r\n]+)/i.exec(head)?.[1];
          const length = /content-length: (\d+)/i.exec(head);
          const bodyText = length ? rest.join('\r\n\r\n').slice(0, Number(length[1])) : '';
          assertErrorShape(status, contentType, Buffer.from(bodyText, 'latin1').toString('utf8'));
        }
      }),
      { numRuns: 200 },
    );
  });
});
