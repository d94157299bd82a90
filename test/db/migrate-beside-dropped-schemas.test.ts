// Many deployments (and test runs) share one PostgreSQL, each in its own schema. A migration
// must neither see a neighbour's tables nor fail while a neighbour's schema is being dropped
// (Kysely's stock introspector resolved every table of every schema by name, and failed with
// 42P01 when one vanished between its catalogue read and that lookup).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import pg from 'pg';
import { dropSchema, migrateToLatest, openDatabase } from '../../src/db/connection.js';

const pgUrl = process.env.TEST_DATABASE_URL;
const skip = pgUrl ? false : 'PostgreSQL only: SQLite has no schemas (set TEST_DATABASE_URL)';
const name = (prefix: string) => `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;

test('introspection lists the current schema only', { skip }, async () => {
  const mine = name('mi');
  const neighbour = name('nb');
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  const handle = await openDatabase(pgUrl!, { schema: mine, poolSize: 2 });
  try {
    await admin.query(
      `create schema ${neighbour}; create table ${neighbour}.kysely_migration (name text); create table ${neighbour}.other (id int)`,
    );
    await admin.query(`create table ${mine}.own (id serial primary key, label text not null)`);
    const tables = await handle.db.introspection.getTables();
    assert.deepEqual(
      tables.map((t) => [t.schema, t.name]),
      [[mine, 'own']],
    );
    const [id, label] = tables[0].columns;
    assert.equal(id.isAutoIncrementing, true);
    assert.equal(label.isNullable, false);
    // The neighbour's bookkeeping table is not mistaken for ours: every migration runs here.
    assert.ok((await migrateToLatest(handle)).length > 5);
  } finally {
    await handle.close();
    await dropSchema(pgUrl!, mine);
    await dropSchema(pgUrl!, neighbour);
    await admin.end();
  }
});

test('migrations succeed while neighbouring schemas are created and dropped', { skip }, async () => {
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  let churning = true;
  const churn = (async () => {
    while (churning) {
      const s = name('churn');
      await admin.query(
        `create schema ${s}; create table ${s}.a (id serial primary key); create table ${s}.b (id serial primary key)`,
      );
      await admin.query(`drop schema ${s} cascade`);
    }
  })();
  try {
    for (let i = 0; i < 6; i++) {
      const schema = name('mg');
      const handle = await openDatabase(pgUrl!, { schema, poolSize: 2 });
      try {
        await migrateToLatest(handle);
      } finally {
        await handle.close();
        await dropSchema(pgUrl!, schema);
      }
    }
  } finally {
    churning = false;
    await churn;
    await admin.end();
  }
});
