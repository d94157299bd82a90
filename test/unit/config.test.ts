// Settings: every variable validated before anything happens, every bad one named at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadAnalysisConfig, loadConfig } from '../../src/config.js';
import { runCli } from '../helpers/spawn.js';
import { openDatabase, migrateToLatest } from '../../src/db/connection.js';

test('defaults: an empty environment is valid', () => {
  const config = loadConfig({});
  assert.equal(config.port, 8080);
  assert.equal(config.trustProxy, 0);
  assert.equal(config.logLevel, 'info');
  assert.equal(config.databaseUrl, 'sqlite:data/rankscope.db');
});

test('TRUST_PROXY is a hop count: true is one proxy, never every hop', () => {
  const hops = (v: string) => loadConfig({ TRUST_PROXY: v }).trustProxy;
  assert.deepEqual(['false', '0', 'off', 'true', 'yes', '1', '2', '10'].map(hops), [0, 0, 0, 1, 1, 1, 2, 10]);
  for (const bad of ['all', '-1', '1.5', '10.0.0.0/8', '100']) assert.throws(() => hops(bad), /TRUST_PROXY/, bad);
});

test('every invalid variable is reported at once, each by name', () => {
  try {
    loadConfig({
      LOG_LEVEL: 'loud',
      PORT: '99999',
      DATABASE_URL: 'mysql://x',
      TRUST_PROXY: 'maybe',
      REPORT_BAND_GOOD: 'lots',
      BODY_LIMIT: '1024',
      REDIS_URL: 'localhost',
    });
    assert.fail('should throw');
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    const names = error.problems.map((p) => p.split(' ')[0]);
    assert.deepEqual(names.sort(), [
      'BODY_LIMIT',
      'DATABASE_URL',
      'LOG_LEVEL',
      'PORT',
      'REDIS_URL',
      'REPORT_BAND_GOOD',
      'TRUST_PROXY',
    ]);
    assert.match(error.message, /LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "loud"/);
  }
  assert.throws(
    () => loadConfig({ REPORT_BAND_DECENT: '95', REPORT_BAND_GOOD: '90' }),
    /REPORT_BAND_DECENT must not exceed REPORT_BAND_GOOD/,
  );
  assert.throws(() => loadAnalysisConfig({ REQUEST_TIMEOUT: '0' }), /REQUEST_TIMEOUT/);
});

test('a database password in DATABASE_URL is never echoed in a message', () => {
  assert.throws(
    () => loadConfig({ DATABASE_URL: 'postgres://u:topsecret@[bad' }),
    (error: Error) => !error.message.includes('topsecret'),
  );
});

test('serve with an invalid setting stops before touching the database: no migration, no first account', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rankscope-config-'));
  try {
    const file = join(dir, 'db.sqlite');
    const run = await runCli(['serve'], {
      DATABASE_URL: `sqlite:${file}`,
      LOG_LEVEL: 'loud',
      PORT: '0',
      RATE_LIMIT_PER_MINUTE: 'many',
    });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /LOG_LEVEL/);
    assert.match(run.stderr, /RATE_LIMIT_PER_MINUTE/);
    assert.ok(!/API key/.test(run.stdout), 'no account was created');
    assert.ok(!existsSync(file), 'the database file was not even created');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a new SQLite database file (and its WAL) is readable by its owner only', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rankscope-mode-'));
  const previous = process.umask(0o022);
  try {
    const file = join(dir, 'nested', 'db.sqlite');
    const handle = await openDatabase(`sqlite:${file}`);
    await migrateToLatest(handle);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(`${file}-wal`).mode & 0o777, 0o600);
    await handle.close();
  } finally {
    process.umask(previous);
    rmSync(dir, { recursive: true, force: true });
  }
});

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
      /ANALYSIS_CONCURRENCY_PER_ACCOUNT must be an integer from 1 to 4/,
      bad,
    );
  }
});
