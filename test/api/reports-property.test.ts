// Property: no input to the reports, projects or account routes produces a 5xx, and every error
// has the API's error shape. The analyser cannot leave the machine (test/helpers/offline.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { seedReport } from '../helpers/seed.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { formEncoded, jsonBody, pathId } from '../helpers/arbitraries.js';
import { offlineAnalysis } from '../helpers/offline.js';

function assertContractShape(res: LightMyRequestResponse): void {
  assert.ok(res.statusCode < 500, `status ${res.statusCode}: ${res.body.slice(0, 300)}`);
  if (res.statusCode >= 400 && res.body !== '') {
    const body = res.json();
    assert.equal(typeof body.message, 'string');
    assert.equal(body.status, res.statusCode);
    if (res.statusCode === 422) assert.equal(typeof body.errors, 'object');
  }
}

describe('reports, projects and account routes under random input', () => {
  let t: TestApp;
  let key: string;
  let ownId: number;
  before(async () => {
    t = await testApp({ REQUEST_TIMEOUT: '2' }, offlineAnalysis);
    const account = await t.account();
    key = account.key;
    const row = await seedReport(t.db.handle, account.id, {
      url: 'https://own.example/',
      privacy: 1,
      result: 50,
      generated_at: '2024-01-01T00:00:00.000000Z',
    });
    ownId = row.id;
  });
  after(() => t.close());

  const runs = { numRuns: 120 };

  test('GET /reports and /projects with random query strings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/api/v1/reports', '/api/v1/projects', '/api/v1/account'),
        formEncoded,
        async (path, qs) => {
          assertContractShape(await t.call(key, { method: 'GET', url: `${path}?${qs}` }));
        },
      ),
      runs,
    );
  });

  test('POST /reports with random bodies', async () => {
    await fc.assert(
      fc.asyncProperty(formEncoded, jsonBody, fc.boolean(), async (form, json, useJson) => {
        assertContractShape(
          await t.call(key, {
            method: 'POST',
            url: '/api/v1/reports',
            headers: { 'content-type': useJson ? 'application/json' : 'application/x-www-form-urlencoded' },
            payload: useJson ? (typeof json === 'string' ? json : JSON.stringify(json)) : form,
          }),
        );
      }),
      runs,
    );
  });

  test('every method on /reports/{id} and /projects/{project} with random ids and input', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'PUT', 'PATCH', 'DELETE', 'POST', 'HEAD', 'OPTIONS'),
        fc.constantFrom('reports', 'projects'),
        fc.oneof(pathId, fc.constant('OWN')),
        formEncoded,
        async (method, resource, id, qs) => {
          const target = id === 'OWN' ? (resource === 'reports' && method !== 'DELETE' ? String(ownId) : 'unknown.example') : id;
          assertContractShape(await t.call(key, { method: method as 'GET', url: `/api/v1/${resource}/${target}?${qs}` }));
        },
      ),
      runs,
    );
  });
});
