// The real thing: `rankscope serve` as a process, spoken to over a socket.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { runCli, startServer } from '../helpers/spawn.js';
import { dropSchema } from '../../src/db/connection.js';

/** DATABASE_URL for a fresh database of its own (PostgreSQL: a schema via search_path). */
function freshDatabase(): { env: Record<string, string>; cleanup(): Promise<void> } {
  const pg = process.env.TEST_DATABASE_URL;
  if (pg) {
    const schema = `srv_${process.pid}_${randomBytes(3).toString('hex')}`;
    const url = new URL(pg);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return { env: { DATABASE_URL: url.toString(), TEST_PG_SCHEMA: schema }, cleanup: () => dropSchema(pg, schema) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'rankscope-srv-'));
  return {
    env: { DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}` },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

describe('rankscope serve and the admin CLI', () => {
  const db = freshDatabase();
  before(async () => {
    if (db.env.TEST_PG_SCHEMA) {
      const pg = await import('pg');
      const client = new pg.default.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`create schema ${db.env.TEST_PG_SCHEMA}`);
      await client.end();
    }
  });
  after(() => db.cleanup());

  test('first start creates an account and prints its key once; the API answers over HTTP; SIGTERM stops it', async () => {
    const server = await startServer({ ...db.env, LOG_LEVEL: 'warn' });
    try {
      const key = /API key, shown only this once:\n(rk_\S+)\n/.exec(server.output())?.[1];
      assert.ok(key, `a key is printed:\n${server.output()}`);
      const base = `http://127.0.0.1:${server.port}/api/v1/websites`;
      const auth = { authorization: `Bearer ${key}` };

      const created = await fetch(base, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'domain=listening.example&privacy=0',
      });
      assert.equal(created.status, 201);
      const id = ((await created.json()) as { data: { id: number } }).data.id;

      const list = await fetch(`${base}?per_page=10`, { headers: { ...auth, accept: 'application/json' } });
      assert.equal(list.status, 200);
      const body = (await list.json()) as { meta: { path: string }; links: { first: string }; data: { id: number }[] };
      assert.equal(body.meta.path, base);
      assert.equal(body.links.first, `${base}?search_by=domain&sort_by=id&sort=desc&per_page=10&page=1`);
      assert.equal(body.data[0].id, id);

      const put = await fetch(`${base}/${id}?privacy=1`, { method: 'PUT', headers: auth });
      assert.equal(((await put.json()) as { data: { privacy: number } }).data.privacy, 1);
      assert.equal((await fetch(base)).status, 401);
    } finally {
      assert.equal(await server.stop('SIGTERM'), 0, 'a graceful shutdown exits 0');
    }

    // A second start on the same database creates no account and prints no key.
    const again = await startServer({ ...db.env, LOG_LEVEL: 'warn' });
    try {
      assert.ok(!again.output().includes('rk_'));
    } finally {
      await again.stop();
    }
  });

  test('the first start printed a dashboard password that signs in; `users password` sets one from standard input and ends the sessions', async () => {
    // The first test's server printed it; a fresh database shows the whole path.
    const fresh = freshDatabase();
    try {
      if (fresh.env.TEST_PG_SCHEMA) {
        const pg = await import('pg');
        const client = new pg.default.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await client.connect();
        await client.query(`create schema ${fresh.env.TEST_PG_SCHEMA}`);
        await client.end();
      }
      const env = { ...fresh.env, LOG_LEVEL: 'warn', ADMIN_EMAIL: 'owner@example.com' };
      const server = await startServer(env);
      const base = `http://127.0.0.1:${server.port}`;
      const signIn = (password: string) =>
        fetch(`${base}/login`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ email: 'owner@example.com', password }).toString(),
        });
      let cookie: string;
      try {
        const password = /dashboard password[^\n]*shown only this once:\n(\S+)\n/.exec(server.output())?.[1];
        assert.ok(password, `a password is printed:\n${server.output()}`);
        assert.ok(password.length >= 20);
        const res = await signIn(password);
        assert.equal(res.status, 303);
        cookie = res.headers.get('set-cookie')!.split(';')[0];
        assert.equal((await fetch(`${base}/app/account`, { redirect: 'manual', headers: { cookie } })).status, 200);
      } finally {
        await server.stop();
      }

      const short = await runCli(['users', 'password', 'owner@example.com'], env, { stdin: 'short\n' });
      assert.equal(short.code, 1);
      assert.match(short.stderr, /at least 8 characters/);
      const unknown = await runCli(['users', 'password', 'nobody@example.com'], env, { stdin: 'long enough pw\n' });
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /no account for nobody@example\.com/);
      const set = await runCli(['users', 'password', 'Owner@Example.com'], env, { stdin: 'a new long password\n' });
      assert.equal(set.code, 0, set.stderr);
      assert.ok(!set.stdout.includes('a new long password'), 'the password is never echoed');

      const again = await startServer(env);
      try {
        const url = `http://127.0.0.1:${again.port}`;
        assert.equal(
          (await fetch(`${url}/app/account`, { redirect: 'manual', headers: { cookie } })).status,
          303,
          'the old session ended',
        );
        const res = await fetch(`${url}/login`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ email: 'owner@example.com', password: 'a new long password' }).toString(),
        });
        assert.equal(res.status, 303);
      } finally {
        await again.stop();
      }
    } finally {
      await fresh.cleanup();
    }
  });

  test('users create prints the key alone on the last line; keys rotate replaces it', async () => {
    const created = await runCli(['users', 'create', 'Cli.User@Example.com'], db.env);
    assert.equal(created.code, 0, created.stderr);
    const lines = created.stdout.trimEnd().split('\n');
    const key = lines[lines.length - 1];
    assert.match(key, /^rk_[A-Za-z0-9_-]{43}$/);

    const duplicate = await runCli(['users', 'create', 'cli.user@example.com'], db.env);
    assert.equal(duplicate.code, 1);
    assert.match(duplicate.stderr, /already exists/);

    const rotated = await runCli(['keys', 'rotate', 'cli.user@example.com'], db.env);
    assert.equal(rotated.code, 0, rotated.stderr);
    const newKey = rotated.stdout.trimEnd().split('\n').pop()!;
    assert.match(newKey, /^rk_/);
    assert.notEqual(newKey, key);

    const server = await startServer({ ...db.env, LOG_LEVEL: 'warn' });
    try {
      const url = `http://127.0.0.1:${server.port}/api/v1/websites`;
      assert.equal((await fetch(url, { headers: { authorization: `Bearer ${key}` } })).status, 401);
      assert.equal((await fetch(url, { headers: { authorization: `Bearer ${newKey}` } })).status, 200);
    } finally {
      await server.stop();
    }

    assert.equal((await runCli(['keys', 'rotate', 'ghost@example.com'], db.env)).code, 1);
    assert.equal((await runCli(['users', 'create', 'not-an-email'], db.env)).code, 1);
    const migrate = await runCli(['migrate'], db.env);
    assert.equal(migrate.code, 0);
    assert.match(migrate.stdout, /up to date/);
  });
});
