// The small pieces under GET /api/v1/stats: names and aliases, the default order, calendar days,
// CSV fields (the route's own tests, test/tracking/stats.test.ts, go through HTTP).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csvField, toCsv } from '../../src/http/csv.js';
import { isCalendarDay } from '../../src/api/formats.js';
import { STAT_NAMES, canonicalStatName, statName, statsOrder } from '../../src/tracking/stats-service.js';

test('statName: every name, the four aliases, and nothing an object inherits', () => {
  for (const name of STAT_NAMES) assert.equal(statName(name), name);
  assert.equal(statName('pageview'), 'pageviews');
  assert.equal(statName('visitor'), 'visitors');
  assert.equal(statName('operating_system'), 'os');
  assert.equal(statName('screen_resolution'), 'resolution');
  assert.equal(canonicalStatName('screen_resolution'), 'resolution');
  assert.equal(canonicalStatName('city'), 'city');
  for (const other of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'Pageviews', '']) {
    assert.equal(statName(other), null, other);
  }
});

test('statsOrder: series in time order, the rest by count, largest first; what is asked wins', () => {
  assert.deepEqual(statsOrder('pageviews'), { sortBy: 'value', sort: 'asc' });
  assert.deepEqual(statsOrder('visitors_hours'), { sortBy: 'value', sort: 'asc' });
  assert.deepEqual(statsOrder('pageviews', 'count'), { sortBy: 'count', sort: 'desc' });
  assert.deepEqual(statsOrder('pageviews', null, 'desc'), { sortBy: 'value', sort: 'desc' });
  assert.deepEqual(statsOrder('page'), { sortBy: 'count', sort: 'desc' });
  assert.deepEqual(statsOrder('page', 'value'), { sortBy: 'value', sort: 'desc' });
  assert.deepEqual(statsOrder('page', 'count', 'asc'), { sortBy: 'count', sort: 'asc' });
});

test('isCalendarDay: YYYY-MM-DD of a day that exists (Gregorian leap years)', () => {
  for (const day of ['2026-11-01', '2028-02-29', '2000-02-29', '0000-01-01', '9999-12-31', '2026-12-31'])
    assert.ok(isCalendarDay(day), day);
  for (const day of [
    '1900-02-29',
    '2026-02-29',
    '2026-04-31',
    '2026-00-10',
    '2026-13-01',
    '2026-01-00',
    '2026-1-01',
    ' 2026-01-01',
    '2026-01-01\n',
    '+02026-01-01',
  ])
    assert.ok(!isCalendarDay(day), JSON.stringify(day));
});

test('CSV: quoted only when needed (RFC 4180), quotes doubled, CRLF after every line', () => {
  assert.equal(csvField('plain'), 'plain');
  assert.equal(csvField(12), '12');
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('two\nlines'), '"two\nlines"');
  assert.equal(csvField('cr\r'), '"cr\r"');
  assert.equal(csvField(-3), '-3', 'a number is written as it is');
  assert.equal(csvField(' spaced '), ' spaced ');
  assert.equal(toCsv(['value', 'count'], []), 'value,count\r\n');
  assert.equal(
    toCsv(
      ['value', 'count'],
      [
        ['/a,b', 2],
        ['x', 1],
      ],
    ),
    'value,count\r\n"/a,b",2\r\nx,1\r\n',
  );
});
