// The top lists' arithmetic on literal rows: totals built from day runs and merged with live
// rows give what summing every row and sorting would, in each order, page and search.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  adjusted,
  compareValues,
  MergedTotals,
  TotalsBuilder,
  type TotalsOrder,
  type ValueCount,
  type ValueRow,
  ValueTotals,
} from '../../src/tracking/value-totals.js';

const utf8Order = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** Days of rows, each in value order, as the database hands them over. */
function totalsOf(days: ValueRow[][]): ValueTotals {
  const builder = new TotalsBuilder();
  for (const rows of days) {
    builder.add([...rows].sort((a, b) => utf8Order(a.value, b.value)));
    builder.endRun();
  }
  return builder.finish();
}

/** Every row summed, searched and sorted the plain way. */
function naive(days: ValueRow[][], search: string | null, order: TotalsOrder): ValueCount[] {
  const sums = new Map<string, { count: number; lower: string }>();
  for (const rows of days) {
    for (const r of rows) {
      const found = sums.get(r.value);
      sums.set(r.value, { count: (found?.count ?? 0) + r.count, lower: r.lower ?? r.value });
    }
  }
  const needle = search?.toLowerCase() ?? null;
  const rows = [...sums]
    .filter(([, s]) => needle === null || s.lower.includes(needle))
    .map(([value, s]) => ({ value, count: s.count }));
  return rows.sort((a, b) => {
    const byValue = utf8Order(a.value, b.value);
    if (order.sortBy === 'value') return order.sort === 'asc' ? byValue : -byValue;
    return (order.sort === 'asc' ? a.count - b.count : b.count - a.count) || byValue;
  });
}

const row = (value: string, count: number, lower: string | null = null): ValueRow => ({ value, count, lower });

test('values are in code point order, as SQLite and PostgreSQL ("C") order them, astral characters after U+E000–U+FFFF', () => {
  const values = ['b', 'a', '\u{1F600}', '\uFFFD', '\uE000', 'ab', '', 'é', 'Z', '\u{10000}x'];
  assert.deepEqual([...values].sort(compareValues), [...values].sort(utf8Order));
  // UTF-16 order would put the emoji before U+E000.
  assert.ok(compareValues('\u{1F600}', '\uE000') > 0);
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
      assert.equal(Math.sign(compareValues(a, b)), Math.sign(utf8Order(a, b)));
    }),
  );
});

test('closed and live totals merged: every order, page and search as summing every row would give', () => {
  const value = fc.oneof(
    fc.constantFrom('/', '/a', '/A', '/b', '/É', '/é', '/\u{1F600}', '/\uE000', '/x%', '/x_y'),
    fc.string({ unit: 'binary', maxLength: 4 }),
  );
  const dayRows = fc.uniqueArray(fc.record({ value, count: fc.integer({ min: 1, max: 5 }) }), {
    selector: (r) => r.value,
    maxLength: 12,
  });
  // The database's lower(): here JavaScript's, for the values that have capitals.
  const withLower = (rows: { value: string; count: number }[]) =>
    rows.map((r) => row(r.value, r.count, r.value.toLowerCase() === r.value ? null : r.value.toLowerCase()));
  fc.assert(
    fc.property(
      fc.array(dayRows, { maxLength: 6 }),
      fc.array(dayRows, { maxLength: 2 }),
      fc.option(fc.constantFrom('', 'a', 'é', '/', '%', '_', '\u{1F600}', 'nothing'), { nil: null }),
      fc.constantFrom<TotalsOrder>(
        { sortBy: 'count', sort: 'desc' },
        { sortBy: 'count', sort: 'asc' },
        { sortBy: 'value', sort: 'asc' },
        { sortBy: 'value', sort: 'desc' },
      ),
      fc.integer({ min: 0, max: 30 }),
      fc.integer({ min: 1, max: 12 }),
      (closedDays, liveDays, search, order, offset, limit) => {
        const closed = closedDays.map(withLower);
        const live = liveDays.map(withLower);
        const merged = new MergedTotals(totalsOf(closed), totalsOf(live), search || null);
        const expected = naive([...closed, ...live], search || null, order);
        assert.deepEqual([...merged.rows(order)], expected);
        assert.equal(merged.total(), expected.length);
        assert.deepEqual(merged.page(order, offset, limit), expected.slice(offset, offset + limit));
      },
    ),
    { numRuns: 400 },
  );
});

test('a range from a kept one a few days off: the days it lacks added, the days too many taken away', () => {
  const value = fc.constantFrom('/', '/a', '/A', '/b', '/É', '/\u{1F600}', '/\uE000', '/x');
  const dayRows = fc.uniqueArray(fc.record({ value, count: fc.integer({ min: 1, max: 3 }) }), { selector: (r) => r.value });
  const withLower = (rows: { value: string; count: number }[]) =>
    rows.map((r) => row(r.value, r.count, r.value.toLowerCase() === r.value ? null : r.value.toLowerCase()));
  fc.assert(
    fc.property(fc.array(dayRows, { minLength: 1, maxLength: 8 }), fc.nat(3), fc.nat(3), (rawDays, drop, extra) => {
      const days = rawDays.map(withLower);
      // Kept: every day but the last `extra`. Asked: every day but the first `drop`. So the last
      // `extra` days are added and the first `drop` taken away.
      const keptDays = days.slice(0, Math.max(0, days.length - extra));
      const askedDays = days.slice(Math.min(drop, days.length));
      const builder = new TotalsBuilder();
      for (const rows of days.slice(keptDays.length)) {
        builder.add([...rows].sort((a, b) => utf8Order(a.value, b.value)));
        builder.endRun();
      }
      for (const rows of days.slice(0, Math.min(drop, days.length))) {
        builder.add(
          [...rows].sort((a, b) => utf8Order(a.value, b.value)),
          -1,
        );
        builder.endRun();
      }
      const result = adjusted(totalsOf(keptDays), builder.finish());
      for (const search of [null, 'a', 'é']) {
        const merged = new MergedTotals(result, ValueTotals.empty(), search);
        for (const order of [
          { sortBy: 'count', sort: 'desc' },
          { sortBy: 'value', sort: 'asc' },
        ] as const) {
          assert.deepEqual([...merged.rows(order)], naive(askedDays, search, order));
        }
      }
    }),
    { numRuns: 300 },
  );
});

test('ties: equal counts by value ascending, whichever way the counts go', () => {
  const closed = totalsOf([[row('c', 2), row('a', 2), row('b', 1)], [row('d', 1)]]);
  const live = totalsOf([[row('b', 1), row('e', 2)]]);
  const merged = new MergedTotals(closed, live, null);
  const values = (order: TotalsOrder) => [...merged.rows(order)].map((r) => `${r.value}${r.count}`);
  assert.deepEqual(values({ sortBy: 'count', sort: 'desc' }), ['a2', 'b2', 'c2', 'e2', 'd1']);
  assert.deepEqual(values({ sortBy: 'count', sort: 'asc' }), ['d1', 'a2', 'b2', 'c2', 'e2']);
  assert.deepEqual(merged.page({ sortBy: 'count', sort: 'desc' }, 3, 10), [
    { value: 'e', count: 2 },
    { value: 'd', count: 1 },
  ]);
});

test('rows a database hands over in another collation are put in code point order, a value once', () => {
  const builder = new TotalsBuilder();
  builder.add([row('b', 1), row('B', 2), row('a', 3), row('a', 1)]);
  const totals = builder.finish();
  assert.deepEqual([...totals.values], ['B', 'a', 'b']);
  assert.deepEqual([...totals.counts], [2, 4, 1]);
});

test('the byte estimate grows with the values kept', () => {
  const small = totalsOf([[row('/a', 1)]]);
  const large = totalsOf([Array.from({ length: 1000 }, (_, i) => row(`/page-${i}`, 1))]);
  assert.ok(large.bytes > small.bytes + 1000 * 40, `${large.bytes} vs ${small.bytes}`);
});
