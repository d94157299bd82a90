// The periods a digest covers and when each is due (digests/periods.ts), and the digest's own
// arithmetic and escaping (digests/digest-mail.ts): pure functions, checked by hand-worked cases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { changePercent, changeText, periodLabel, renderDigest, type DigestFigures } from '../../src/digests/digest-mail.js';
import {
  duePeriod,
  lastCompletePeriod,
  periodContaining,
  periodStartingOn,
  periodStartTimestamp,
  previousPeriod,
} from '../../src/digests/periods.js';
import { Privacy } from '../../src/model/privacy.js';

const at = (iso: string) => Date.parse(iso);
const span = (p: { start: string; last: string; end: string }) => [p.start, p.last, p.end];

describe('digest periods', () => {
  test('a week is the ISO week: Monday 00:00 UTC to the next Monday', () => {
    // 2026-05-06 is a Wednesday; 2026-05-04 a Monday; 2026-05-10 a Sunday.
    assert.deepEqual(span(periodContaining('weekly', at('2026-05-06T12:00:00Z'))), ['2026-05-04', '2026-05-10', '2026-05-11']);
    assert.deepEqual(span(periodContaining('weekly', at('2026-05-04T00:00:00Z'))), ['2026-05-04', '2026-05-10', '2026-05-11']);
    assert.deepEqual(span(periodContaining('weekly', at('2026-05-10T23:59:59.999Z'))), [
      '2026-05-04',
      '2026-05-10',
      '2026-05-11',
    ]);
    assert.deepEqual(span(periodContaining('weekly', at('2026-05-03T23:59:59.999Z'))), [
      '2026-04-27',
      '2026-05-03',
      '2026-05-04',
    ]);
    // Across a year: ISO week 1 of 2026 starts on Monday 29 December 2025.
    assert.deepEqual(span(periodContaining('weekly', at('2026-01-01T08:00:00Z'))), ['2025-12-29', '2026-01-04', '2026-01-05']);
  });

  test('a month is the calendar month, whatever its length; a day is the UTC day', () => {
    assert.deepEqual(span(periodContaining('monthly', at('2024-02-29T23:00:00Z'))), ['2024-02-01', '2024-02-29', '2024-03-01']);
    assert.deepEqual(span(periodContaining('monthly', at('2026-12-31T23:59:59Z'))), ['2026-12-01', '2026-12-31', '2027-01-01']);
    assert.deepEqual(span(periodContaining('daily', at('2026-05-06T23:59:59.999Z'))), ['2026-05-06', '2026-05-06', '2026-05-07']);
    assert.deepEqual(span(previousPeriod(periodContaining('monthly', at('2026-03-15T00:00:00Z')))), [
      '2026-02-01',
      '2026-02-28',
      '2026-03-01',
    ]);
    assert.deepEqual(span(previousPeriod(periodContaining('daily', at('2026-03-01T05:00:00Z')))), [
      '2026-02-28',
      '2026-02-28',
      '2026-03-01',
    ]);
  });

  test('the last complete period is the one that ended most recently', () => {
    assert.equal(lastCompletePeriod('weekly', at('2026-05-04T00:00:00Z')).start, '2026-04-27');
    assert.equal(lastCompletePeriod('weekly', at('2026-05-03T23:59:59Z')).start, '2026-04-20');
    assert.equal(lastCompletePeriod('monthly', at('2026-05-01T00:00:00Z')).start, '2026-04-01');
    assert.equal(lastCompletePeriod('daily', at('2026-05-06T00:30:00Z')).start, '2026-05-05');
  });

  test('a digest is due from 06:00 UTC on the first day after its period', () => {
    // Weekly: Monday 06:00 for the week before; until then, still the week before that.
    assert.equal(duePeriod('weekly', at('2026-05-04T05:59:59.999Z')).start, '2026-04-20');
    assert.equal(duePeriod('weekly', at('2026-05-04T06:00:00Z')).start, '2026-04-27');
    assert.equal(duePeriod('weekly', at('2026-05-10T23:00:00Z')).start, '2026-04-27');
    // Monthly: the 1st at 06:00.
    assert.equal(duePeriod('monthly', at('2026-05-01T05:59:00Z')).start, '2026-03-01');
    assert.equal(duePeriod('monthly', at('2026-05-01T06:00:00Z')).start, '2026-04-01');
    // Daily: 06:00 the next day.
    assert.equal(duePeriod('daily', at('2026-05-06T05:59:00Z')).start, '2026-05-04');
    assert.equal(duePeriod('daily', at('2026-05-06T06:00:00Z')).start, '2026-05-05');
  });

  test('a job payload names a period only by a day that starts one', () => {
    assert.deepEqual(span(periodStartingOn('weekly', '2026-04-27')!), ['2026-04-27', '2026-05-03', '2026-05-04']);
    assert.equal(periodStartingOn('weekly', '2026-04-28'), null, 'a Tuesday starts no ISO week');
    assert.equal(periodStartingOn('monthly', '2026-04-02'), null);
    assert.equal(periodStartingOn('monthly', '2026-02-30'), null);
    assert.equal(periodStartingOn('daily', 'yesterday'), null);
    assert.equal(periodStartTimestamp(periodStartingOn('daily', '2026-05-05')!), '2026-05-05T00:00:00.000000Z');
  });

  test('labels', () => {
    assert.equal(periodLabel(periodContaining('weekly', at('2026-04-29T00:00:00Z'))), '27 Apr 2026 to 3 May 2026');
    assert.equal(periodLabel(periodContaining('monthly', at('2026-04-29T00:00:00Z'))), 'April 2026');
    assert.equal(periodLabel(periodContaining('daily', at('2026-04-29T00:00:00Z'))), '29 Apr 2026');
  });
});

describe('digest arithmetic', () => {
  test('the change on the period before, with nothing before handled', () => {
    assert.equal(changePercent(120, 100), 20);
    assert.equal(changePercent(50, 100), -50);
    assert.equal(changePercent(0, 100), -100);
    assert.equal(changePercent(0, 0), 0);
    assert.equal(changePercent(7, 0), null, 'growth from nothing has no percentage');
    assert.equal(changePercent(2, 3), -33);
    assert.equal(changeText(1234, 1000, 'weekly'), '+23% on the week before (1,000)');
    assert.equal(changeText(5, 10, 'monthly'), '−50% on the month before (10)');
    assert.equal(changeText(0, 0, 'daily'), 'the same as the day before');
    assert.equal(changeText(4, 4, 'weekly'), 'the same as the week before');
    assert.equal(changeText(3, 0, 'weekly'), 'up from none the week before');
  });
});

describe('the digest mail', () => {
  const hostile = '<img src="https://evil.test/x.png" onerror="alert(1)">';
  const figures: DigestFigures = {
    visitors: 3,
    pageviews: 1234567,
    previous: { visitors: 0, pageviews: 1000 },
    pages: { total: 7, rows: [{ value: `/a?q=${hostile}`, count: 5 }] },
    referrers: { total: 0, rows: [] },
    countries: {
      total: 2,
      rows: [
        { value: 'DE', count: 2 },
        { value: 'Unknown', count: 1 },
      ],
    },
  };
  const mail = renderDigest({
    websiteId: 12,
    domain: 'example.com',
    privacy: Privacy.Private,
    recipient: 'owner@example.com',
    shareUrl: 'https://rankscope.test/websites/12',
    period: periodContaining('weekly', at('2026-04-29T00:00:00Z')),
    figures,
  });

  test('names the website, the period and the figures in both parts', () => {
    assert.equal(mail.to, 'owner@example.com');
    assert.equal(mail.subject, 'Weekly report for example.com: 27 Apr 2026 to 3 May 2026');
    for (const part of [mail.text, mail.html]) {
      assert.match(part, /example\.com/);
      assert.match(part, /1,234,567/);
      assert.match(part, /up from none the week before/);
      assert.match(part, /Germany \(DE\)/);
      assert.match(part, /and 6 more/, 'seven pages, one shown');
      assert.match(part, /None in this period/, 'no referrers');
      assert.match(part, /https:\/\/rankscope\.test\/websites\/12/);
      assert.match(part, /IP Geolocation by DB-IP/);
      assert.match(part, /private/);
    }
  });

  test('escapes every value in the HTML part, which has no image, script or stylesheet', () => {
    assert.ok(!mail.html.includes(hostile));
    assert.ok(mail.html.includes('&lt;img src=&quot;https://evil.test/x.png&quot; onerror=&quot;alert(1)&quot;&gt;'));
    assert.doesNotMatch(mail.html, /<img|<script|<link|<style|url\(/i);
    assert.ok(mail.text.includes(hostile), 'the text part shows the value as it is (it is text)');
  });

  test('keeps control characters out of the text part', () => {
    const text = renderDigest({
      websiteId: 1,
      domain: 'example.com',
      privacy: Privacy.Public,
      recipient: 'a@example.com',
      shareUrl: 'https://rankscope.test/websites/1',
      period: periodContaining('daily', at('2026-04-29T00:00:00Z')),
      figures: { ...figures, pages: { total: 1, rows: [{ value: '/x\r\nBcc: victim@example.com\u202e', count: 1 }] } },
    }).text;
    assert.ok(!text.includes('\r'));
    assert.ok(!text.includes('\nBcc:'));
    assert.ok(!text.includes('\u202e'));
  });
});
