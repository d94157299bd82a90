// Writing a refused batch again by halves (db/batch-isolation.ts): which errors are a refusal of
// the rows (isolated) and which say the database is failing (the batch fails at once), and how
// many transactions isolating costs. The write here is a plain function that refuses some items
// as a database would; the stores' own use is tested on real databases
// (test/tracking/unstorable-events.test.ts, test/db/analytics-write-thread.test.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { refusedByDatabase, writeIsolating, writeIsolatingSync } from '../../src/db/batch-isolation.js';

const refusal = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('refusedByDatabase', () => {
  test('a statement refused for its rows: constraints, values, triggers, deadlocks', () => {
    for (const code of ['22021', '22001', '23503', '23502', 'P0001', '40P01', '54000']) {
      assert.equal(refusedByDatabase(refusal('x', code)), true, code);
    }
    for (const code of ['SQLITE_CONSTRAINT_NOTNULL', 'SQLITE_CONSTRAINT_TRIGGER', 'SQLITE_TOOBIG', 'SQLITE_MISMATCH']) {
      assert.equal(refusedByDatabase(refusal('x', code)), true, code);
    }
  });

  test('a failing database: connection, resources, shutdown, disk, lock, and errors with no database code', () => {
    for (const code of ['08006', '53100', '57P01', '58030', 'XX000', 'ECONNREFUSED', 'ECONNRESET']) {
      assert.equal(refusedByDatabase(refusal('x', code)), false, code);
    }
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'SQLITE_READONLY']) {
      assert.equal(refusedByDatabase(refusal('x', code)), false, code);
    }
    assert.equal(refusedByDatabase(new Error('Connection terminated unexpectedly')), false);
    assert.equal(refusedByDatabase(null), false);
  });
});

describe('writeIsolating', () => {
  /** A write that refuses, whole, any group holding a refused item; counts its transactions. */
  const database = (refused: Set<number>) => {
    const calls: number[][] = [];
    const stored: number[] = [];
    const write = (items: number[]) => {
      calls.push(items);
      if (items.some((i) => refused.has(i))) throw refusal(`refused ${items.filter((i) => refused.has(i))}`, '22021');
      stored.push(...items);
    };
    return { calls, stored, write };
  };
  const items = Array.from({ length: 64 }, (_, i) => i);

  test('a refused item fails alone, with its own error; every other item is stored once, in order', async () => {
    const db = database(new Set([5, 40]));
    const failures = await writeIsolating(items, async (batch) => db.write(batch));
    assert.deepEqual(
      failures.map((f) => [f.index, f.error.message]),
      [
        [5, 'refused 5'],
        [40, 'refused 40'],
      ],
    );
    assert.deepEqual(
      db.stored,
      items.filter((i) => i !== 5 && i !== 40),
    );
    // Two refused items among 64: about 2 · 2 · log2(64) transactions, not 64.
    assert.ok(db.calls.length <= 25, `${db.calls.length} transactions`);
  });

  test('the synchronous form does the same', () => {
    const db = database(new Set([0]));
    const failures = writeIsolatingSync(items, (batch) => db.write(batch));
    assert.deepEqual(
      failures.map((f) => f.index),
      [0],
    );
    assert.equal(db.stored.length, 63);
  });

  test('a failing database fails the whole batch at once, with one transaction', async () => {
    let calls = 0;
    const failures = await writeIsolating(items, async () => {
      calls += 1;
      throw refusal('disk full', 'SQLITE_FULL');
    });
    assert.equal(calls, 1);
    assert.equal(failures.length, 64);
    assert.ok(failures.every((f, i) => f.index === i && f.error.message === 'disk full'));
  });

  test('a batch stored at once costs one transaction and reports nothing', async () => {
    const db = database(new Set());
    assert.deepEqual(await writeIsolating(items, async (batch) => db.write(batch)), []);
    assert.equal(db.calls.length, 1);
    assert.deepEqual(await writeIsolating([], async (batch) => db.write(batch)), []);
  });
});
