// Property: no input to any websites route produces a 5xx, and every error is in the API's error shape.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { testApp, type TestApp } from '../helpers/app.js';
import { formEncoded, jsonBody, pathId } from '../helpers/arbitraries.js';
import type { LightMyRequestResponse } from 'fastify';

function assertContractShape(res: LightMyRequestResponse): void {
  assert.ok(res.statusCode < 500, `status ${res.statusCode}: ${res.body.slice(0, 300)}`);
  if (res.statusCode >= 400 && res.body !== '') {
    const body = res.json();
    assert.equal(typeof body.message, 'string');
    assert.equal(body.status, res.statusCode);
    if (res.statusCode === 422) {
      assert.equal(typeof body.errors, 'object');
      for (const messages of Object.values(body.errors)) {
        assert.ok(Array.isArray(messages) && messages.every((m) => typeof m === 'string'));
      }
    } else {
      assert.deepEqual(Object.keys(body).sort(), ['message', 'status']);
    }
  }
}

describe('websites routes under random input', () => {
  let t: TestApp;
  let key: string;
  let ownId: number;
  before(async () => {
    t = await testApp();
    ({ key } = await t.account());
    ownId = (await t.call(key, { method: 'POST', url: '/api/v1/websites', form: { domain: 'mine.example' } })).json().data.id;
  });
  after(() => t.close());

  const runs = { numRuns: 150 };

  test('GET /websites with random query strings', async () => {
    await fc.assert(
      fc.asyncProperty(formEncoded, async (qs) => {
        assertContractShape(await t.call(key, { method: 'GET', url: `/api/v1/websites?${qs}` }));
      }),
      runs,
    );
  });

  test('POST /websites with random form and JSON bodies and query strings', async () => {
    await fc.assert(
      fc.asyncProperty(formEncoded, formEncoded, jsonBody, fc.boolean(), async (qs, form, json, useJson) => {
        const res = await t.call(key, {
          method: 'POST',
          url: `/api/v1/websites?${qs}`,
          headers: { 'content-type': useJson ? 'application/json' : 'application/x-www-form-urlencoded' },
          payload: useJson ? (typeof json === 'string' ? json : JSON.stringify(json)) : form,
        });
        assertContractShape(res);
        if (res.statusCode === 201) {
          // keep the account small and the next runs meaningful
          await t.call(key, { method: 'DELETE', url: `/api/v1/websites/${res.json().data.id}` });
        }
      }),
      runs,
    );
  });

  test('GET, PUT, PATCH, DELETE /websites/{id} with random ids, queries and bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'PUT', 'PATCH', 'DELETE', 'POST', 'OPTIONS', 'HEAD'),
        fc.oneof(pathId, fc.constant('OWN')),
        formEncoded,
        formEncoded,
        async (method, id, qs, form) => {
          const target = id === 'OWN' && method !== 'DELETE' ? String(ownId) : id;
          const res = await t.call(key, {
            method: method as 'GET',
            url: `/api/v1/websites/${target}?${qs}`,
            ...(method === 'GET' || method === 'HEAD' || method === 'OPTIONS'
              ? {}
              : { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form }),
          });
          assertContractShape(res);
        },
      ),
      runs,
    );
  });
});
