// Secrets never reach a log line, however the parameter that carries them is spelled: the
// server reads `p%61ssword`, `password[]` and `password%5B%5D` as `password`, so the log
// redaction must too.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../helpers/app.js';
import { redactQuery, redactUrl, redactValues } from '../../src/http/logging.js';

const SECRET = 'hunter2-s3cr3t';

describe('log redaction after decoding', () => {
  let t: TestApp;
  let key: string;
  let websiteId: number;
  before(async () => {
    t = await testApp({ LOG_LEVEL: 'trace' });
    ({ key } = await t.account());
    websiteId = (await t.call(key, { method: 'POST', url: '/api/v1/websites', form: { domain: 'redact.example' } })).json().data
      .id;
  });

  const spellings = [
    'password',
    'p%61ssword',
    'password[]',
    'password%5B%5D',
    'password%5b0%5d',
    'PASSWORD',
    'pass%77ord[x]',
    'password_confirmation',
    'current_password',
    'api_token',
    'token',
    'secret',
  ];

  test('query strings: every spelling of a secret name is redacted in the request log', async () => {
    for (const name of spellings) {
      for (const method of ['GET', 'PUT'] as const) {
        await t.call(key, { method, url: `/api/v1/websites/${websiteId}?privacy=2&${name}=${SECRET}` });
      }
      await t.app.inject({ method: 'GET', url: `/reports/99999?${name}=${SECRET}` });
      await t.app.inject({
        method: 'POST',
        url: `/reports/99999?${name}=${SECRET}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `${name}=${SECRET}`,
      });
    }
    const logText = t.logs.join('');
    assert.ok(logText.includes('p%61ssword=[REDACTED]'), 'the name is kept as written, the value redacted');
    assert.ok(!logText.includes(SECRET), 'no log line holds the secret');
  });

  test('form and JSON bodies, including ones that fail (400, 422): nothing logs the secret', async () => {
    const forms = spellings.map((name) => `${name}=${SECRET}&privacy=9`);
    for (const payload of forms) {
      await t.call(key, {
        method: 'PUT',
        url: `/api/v1/websites/${websiteId}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
    }
    for (const body of [
      { password: SECRET, privacy: 9 },
      { 'p%61ssword': SECRET },
      { password: [SECRET] },
      { nested: { password: SECRET } },
    ]) {
      await t.call(key, {
        method: 'PUT',
        url: `/api/v1/websites/${websiteId}`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    }
    await t.call(key, {
      method: 'PUT',
      url: `/api/v1/websites/${websiteId}`,
      headers: { 'content-type': 'application/json' },
      payload: `{"password": "${SECRET}"`,
    });
    assert.ok(!t.logs.join('').includes(SECRET));
  });

  test('the redaction functions: names decoded as the parser decodes them', () => {
    assert.equal(
      redactQuery(`a=1&p%61ssword=${SECRET}&password%5B%5D=${SECRET}&password[]=${SECRET}&b=2`),
      'a=1&p%61ssword=[REDACTED]&password%5B%5D=[REDACTED]&password[]=[REDACTED]&b=2',
    );
    assert.equal(redactQuery(`pass+word=x&pass.word=y&keys=z`), 'pass+word=x&pass.word=y&keys=z', 'other names are left alone');
    assert.equal(redactUrl(`/x?token=${SECRET}#frag`), '/x?token=[REDACTED]#frag');
    assert.equal(redactUrl('/x'), '/x');
    assert.deepEqual(redactValues({ Password: SECRET, list: [{ api_key: SECRET }], n: 1 }), {
      Password: '[REDACTED]',
      list: [{ api_key: '[REDACTED]' }],
      n: 1,
    });
  });
});
