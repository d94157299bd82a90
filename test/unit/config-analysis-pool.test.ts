import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';

test('ANALYSIS_CONCURRENCY_PER_ACCOUNT defaults to ANALYSIS_CONCURRENCY − 2 (at least 1), leaving slots for other accounts', () => {
  assert.equal(loadConfig({}).analysisConcurrencyPerAccount, 6);
  assert.equal(loadConfig({ ANALYSIS_CONCURRENCY: '20' }).analysisConcurrencyPerAccount, 18);
  assert.equal(loadConfig({ ANALYSIS_CONCURRENCY: '2' }).analysisConcurrencyPerAccount, 1);
  assert.equal(loadConfig({ ANALYSIS_CONCURRENCY: '1' }).analysisConcurrencyPerAccount, 1);
  assert.equal(loadConfig({ ANALYSIS_CONCURRENCY: '4', ANALYSIS_CONCURRENCY_PER_ACCOUNT: '4' }).analysisConcurrencyPerAccount, 4);
});

test('ANALYSIS_CONCURRENCY_PER_ACCOUNT outside 1 … ANALYSIS_CONCURRENCY is refused, naming the variable', () => {
  for (const bad of ['0', '5', '-1', 'two']) {
    assert.throws(
      () => loadConfig({ ANALYSIS_CONCURRENCY: '4', ANALYSIS_CONCURRENCY_PER_ACCOUNT: bad }),
      /^Error: ANALYSIS_CONCURRENCY_PER_ACCOUNT must be an integer between 1 and 4/,
      bad,
    );
  }
});
