// Periodic digests end to end (docs/monitors-and-mail.md): traffic sent through POST
// /api/event with the clock moved between events, the scheduler ticked at chosen moments, the
// jobs drained, and the mails read as a real SMTP server received them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIGEST_SEND_JOB } from '../../src/digests/digest-service.js';
import { fixedClock } from '../../src/time.js';
import { type TestApp, testApp } from '../helpers/app.js';
import { findPart, parseMime } from '../helpers/mime.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';
import { until } from '../helpers/wait.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0';
// Countries from the bundled DB-IP country database (as test/tracking/stats.test.ts uses them).
const US = { ip: '8.8.8.8', ua: CHROME };
const GB = { ip: '81.2.69.142', ua: FIREFOX };
const DE = { ip: '85.214.132.117', ua: CHROME };

type Visitor = typeof US;
type Event = [at: string, who: Visitor, path: string, referrer?: string];

/**
 * Email turned on Wednesday 15 April 2026. The week of 13 April (before it) has 2 pageviews of
 * one visitor; the week of 20 April, the first whole week after it, has 5 pageviews of 3
 * visitors; the events around it fall outside.
 */
const EVENTS: Event[] = [
  ['2026-04-16T10:00:00Z', US, '/'],
  ['2026-04-16T10:05:00Z', US, '/pricing'],
  ['2026-04-19T23:59:59Z', DE, '/old'], // the week before (3 pageviews, 2 visitors on two days)
  ['2026-04-20T00:00:00Z', US, '/', 'https://news.ycombinator.com/item?id=1'],
  ['2026-04-20T00:10:00Z', US, '/pricing'],
  ['2026-04-20T00:20:00Z', US, '/'],
  ['2026-04-21T09:00:00Z', GB, '/docs', 'https://www.google.com/'],
  ['2026-04-26T23:59:59Z', DE, '/'],
  ['2026-04-27T00:00:00Z', GB, '/next-week'],
];

interface Received {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

describe('digests', () => {
  const clock = fixedClock(Date.parse('2026-04-15T12:00:00Z'));
  let smtp: TestSmtpServer;
  let t: TestApp;
  let owner: { id: number; email: string; key: string };
  let site: number;
  let quiet: number;
  let off: number;

  const received = (): Received[] =>
    smtp.received.map((m) => {
      const mime = parseMime(m.raw);
      assert.equal(mime.type, 'multipart/alternative');
      return {
        to: m.to,
        subject: mime.headers.get('subject') ?? '',
        text: findPart(mime, 'text/plain')?.body ?? '',
        html: findPart(mime, 'text/html')?.body ?? '',
      };
    });

  const createWebsite = async (domain: string, form: Record<string, string> = {}) => {
    const res = await t.call(owner.key, { method: 'POST', url: '/api/v1/websites', form: { domain, ...form } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.id as number;
  };
  const update = async (id: number, form: Record<string, string>) => {
    const res = await t.call(owner.key, { method: 'PATCH', url: `/api/v1/websites/${id}`, form });
    assert.equal(res.statusCode, 200, res.body);
  };
  const emailSince = async (id: number) =>
    (await t.db.handle.db.selectFrom('websites').select('email_since').where('id', '=', id).executeTakeFirstOrThrow())
      .email_since;

  /** Moves the clock, runs the schedules, then every due job (digest jobs queue mail jobs). */
  const at = async (iso: string) => {
    clock.set(Date.parse(iso));
    await t.services.scheduler.tick();
    await t.services.jobs.drain();
  };

  before(async () => {
    smtp = await startSmtpServer();
    t = await testApp({ SMTP_URL: smtp.url, TRUST_PROXY: '1', APP_URL: 'https://rankscope.test/' }, { clock });
    owner = await t.account('owner@example.com');
    site = await createWebsite('example.com', { email: '1', privacy: '0' });
    quiet = await createWebsite('quiet.example', { email: '1' });
    off = await createWebsite('off.example', { email: '0', privacy: '0' });
    for (const [when, who, path, referrer] of EVENTS) {
      for (const websiteId of [site, off]) {
        clock.set(Date.parse(when));
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/event',
          headers: { 'content-type': 'application/json', 'user-agent': who.ua, 'x-forwarded-for': who.ip },
          payload: JSON.stringify({
            n: 'pageview',
            u: `https://${websiteId === site ? 'example.com' : 'off.example'}${path}`,
            r: referrer,
            i: websiteId,
          }),
        });
        assert.equal(res.statusCode, 202, res.body);
        assert.equal(res.headers['x-event-dropped'], undefined);
      }
    }
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  test('email_since follows email: set when it becomes 1, kept while it stays 1, cleared when it becomes 0', async () => {
    clock.set(Date.parse('2026-04-15T12:30:00Z'));
    const probe = await createWebsite('probe.example');
    assert.equal(await emailSince(probe), null, 'email not set');
    await update(probe, { email: '1' });
    assert.equal(await emailSince(probe), '2026-04-15T12:30:00.000000Z');
    clock.advance(60_000);
    await update(probe, { email: '1', exclude_bots: '0' });
    assert.equal(await emailSince(probe), '2026-04-15T12:30:00.000000Z', 'still on since then');
    await update(probe, { exclude_bots: '1' });
    assert.equal(await emailSince(probe), '2026-04-15T12:30:00.000000Z');
    await update(probe, { email: '0' });
    assert.equal(await emailSince(probe), null);
    const res = await t.call(owner.key, { method: 'DELETE', url: `/api/v1/websites/${probe}` });
    assert.equal(res.statusCode, 200);
    assert.equal(await emailSince(site), '2026-04-15T12:00:00.000000Z');
    assert.equal(await emailSince(off), null);
  });

  test('no digest for a period that began before email was turned on', async () => {
    // Monday 20 April: the week of 13 April is due, but email came on during it.
    await at('2026-04-20T06:00:00Z');
    await at('2026-04-21T06:00:00Z');
    assert.deepEqual(received(), []);
    // Monday 27 April before 06:00: the week of 20 April is not due yet.
    await at('2026-04-27T05:59:59Z');
    assert.deepEqual(received(), []);
  });

  test('Monday after 06:00: the week before arrives, both parts, with its figures', async () => {
    await at('2026-04-27T06:00:00Z');
    await until(() => smtp.received.length === 2, { what: 'two digests' });
    const mails = received();
    const mail = mails.find((m) => m.subject.includes('example.com') && !m.subject.includes('quiet'))!;
    assert.ok(mail, 'a digest of example.com');
    assert.deepEqual(mail.to, ['owner@example.com']);
    assert.equal(mail.subject, 'Weekly report for example.com: 20 Apr 2026 to 26 Apr 2026');
    const { text, html } = mail;

    // Visitors: 20th US, 21st GB, 26th DE = 3 (a visitor counts once a day, as the stats API
    // sums days); the week before: US on the 16th, DE on the 19th = 2. Pageviews 5 and 3.
    assert.match(text, /^Visitors {3}3 {3}\+50% on the week before \(2\)$/m);
    assert.match(text, /^Pageviews {2}5 {3}\+67% on the week before \(3\)$/m);
    assert.ok(text.includes('Top pages (pageviews)\n  3  /\n  1  /docs\n  1  /pricing\n'), text);
    assert.ok(text.includes('Top referrers (visitors)\n  1  news.ycombinator.com\n  1  www.google.com\n'), text);
    assert.ok(
      text.includes(
        'Countries (visitors)\n  1  Germany (DE)\n  1  United Kingdom (GB)\n  1  United States (US)\n  IP Geolocation by DB-IP',
      ),
      text,
    );
    assert.ok(!text.includes('/next-week') && !text.includes('/old'), 'only the week’s own events');
    assert.match(text, /Every figure, day by day: https:\/\/rankscope\.test\/websites\/\d+\n/);
    assert.ok(text.includes(`https://rankscope.test/websites/${site}`));
    assert.match(text, /The share page is public\./);

    assert.match(html, /^<!DOCTYPE html>/);
    assert.ok(html.includes('Weekly report for example.com</h1>'));
    assert.ok(html.includes('20 Apr 2026 to 26 Apr 2026 (UTC)'));
    assert.ok(html.includes('>3</p>') && html.includes('>5</p>'), 'the totals');
    assert.ok(html.includes('+50% on the week before (2)') && html.includes('+67% on the week before (3)'));
    for (const value of ['/docs', '/pricing', 'news.ycombinator.com', 'www.google.com', 'Germany (DE)', 'United States (US)']) {
      assert.ok(html.includes(`>${value}</td>`), value);
    }
    assert.ok(html.includes(`href="https://rankscope.test/websites/${site}"`));
    assert.ok(html.includes('<a href="https://db-ip.com"'), 'the DB-IP credit with the countries');
    assert.doesNotMatch(html, /<img|<script|<link|<style/i);
  });

  test('a website without traffic gets its digest too; one with email 0 gets none', async () => {
    const mails = received();
    const quietMail = mails.find((m) => m.subject.includes('quiet.example'));
    assert.ok(quietMail, 'the quiet website’s digest');
    assert.match(quietMail.text, /^Visitors {3}0 {3}the same as the week before$/m);
    assert.match(quietMail.text, /Top pages \(pageviews\)\n {2}None in this period\./);
    assert.ok(!quietMail.text.includes('IP Geolocation'), 'no countries shown, no credit');
    assert.match(quietMail.text, /private/);
    assert.ok(!mails.some((m) => m.subject.includes('off.example')), 'email 0: nothing');
  });

  test('one digest per website and period, however often the schedule runs or the job re-runs', async () => {
    const count = smtp.received.length;
    await at('2026-04-27T06:00:02Z');
    await at('2026-04-28T12:00:00Z');
    await at('2026-05-03T23:59:59Z');
    // The job itself run again (a second instance's, or a retry after its lease ran out).
    await t.services.digests.runJob({ websiteId: site, period: 'weekly', start: '2026-04-20' });
    await t.services.jobs.send(DIGEST_SEND_JOB, { websiteId: site, period: 'weekly', start: '2026-04-20' });
    await t.services.jobs.drain();
    assert.equal(smtp.received.length, count);
    const digests = await t.db.handle.db.selectFrom('digests').selectAll().orderBy('website_id').execute();
    assert.deepEqual(
      digests.map((d) => [d.website_id, d.period, d.period_start]),
      [
        [site, 'weekly', '2026-04-20'],
        [quiet, 'weekly', '2026-04-20'],
      ],
    );
    const mails = await t.db.handle.db.selectFrom('mails').selectAll().execute();
    assert.equal(mails.length, 2);
    assert.ok(mails.every((m) => m.status === 'sent'));
  });

  test('the next Monday brings the next week, compared with the one before', async () => {
    const count = smtp.received.length;
    await at('2026-05-04T06:30:00Z');
    assert.equal(smtp.received.length, count + 2);
    const mail = received().find((m) => m.subject === 'Weekly report for example.com: 27 Apr 2026 to 3 May 2026');
    assert.ok(mail);
    // GB on the 27th at midnight: 1 visitor, 1 pageview.
    assert.match(mail.text, /^Visitors {3}1 {3}−67% on the week before \(3\)$/m);
    assert.match(mail.text, /^Pageviews {2}1 {3}−80% on the week before \(5\)$/m);
  });

  test('email turned off and on again: the first digest is for the first whole week after', async () => {
    clock.set(Date.parse('2026-05-05T09:00:00Z'));
    await update(quiet, { email: '0' });
    clock.set(Date.parse('2026-05-06T09:00:00Z'));
    await update(quiet, { email: '1' });
    const count = smtp.received.length;
    await at('2026-05-11T06:00:00Z'); // the week of 4 May began before email came back on
    assert.equal(smtp.received.length, count + 1, 'only example.com');
    assert.ok(received().at(-1)!.subject.startsWith('Weekly report for example.com'));
    await at('2026-05-18T06:00:00Z');
    assert.equal(smtp.received.length, count + 3, 'both for the week of 11 May');
    assert.ok(received().some((m) => m.subject === 'Weekly report for quiet.example: 11 May 2026 to 17 May 2026'));
  });

  test('a website deleted after its digest was queued gets nothing', async () => {
    const doomed = await createWebsite('doomed.example', { email: '1' });
    clock.set(Date.parse('2026-05-25T06:00:00Z'));
    await t.services.scheduler.tick();
    assert.equal(await t.call(owner.key, { method: 'DELETE', url: `/api/v1/websites/${doomed}` }).then((r) => r.statusCode), 200);
    const count = smtp.received.length;
    await t.services.jobs.drain();
    assert.equal(smtp.received.length, count + 2, 'example.com and quiet.example only');
    assert.ok(!received().some((m) => m.subject.includes('doomed.example')));
  });
});

describe('digests by month and by day', () => {
  test('EMAIL_DIGEST=monthly: the calendar month, sent on the 1st after 06:00', async () => {
    const clock = fixedClock(Date.parse('2026-02-20T12:00:00Z'));
    const smtp = await startSmtpServer();
    const t = await testApp({ SMTP_URL: smtp.url, EMAIL_DIGEST: 'monthly' }, { clock });
    try {
      const owner = await t.account('monthly@example.com');
      const res = await t.call(owner.key, {
        method: 'POST',
        url: '/api/v1/websites',
        form: { domain: 'month.example', email: '1' },
      });
      assert.equal(res.statusCode, 201);
      for (const when of ['2026-03-01T06:00:00Z', '2026-03-31T23:00:00Z', '2026-04-01T05:59:00Z']) {
        clock.set(Date.parse(when));
        await t.services.scheduler.tick();
        await t.services.jobs.drain();
      }
      assert.equal(smtp.received.length, 0, 'February began before email came on; March is not over until 1 April 06:00');
      clock.set(Date.parse('2026-04-01T06:00:00Z'));
      await t.services.scheduler.tick();
      await t.services.jobs.drain();
      assert.equal(smtp.received.length, 1);
      const mime = parseMime(smtp.received[0].raw);
      assert.equal(mime.headers.get('subject'), 'Monthly report for month.example: March 2026');
      assert.match(findPart(mime, 'text/plain')!.body, /the same as the month before/);
    } finally {
      await t.close();
      await smtp.close();
    }
  });

  test('EMAIL_DIGEST=daily: the UTC day, sent the next day after 06:00', async () => {
    const clock = fixedClock(Date.parse('2026-03-10T23:00:00Z'));
    const t = await testApp({ EMAIL_DIGEST: 'daily' }, { clock });
    try {
      const owner = await t.account('daily@example.com');
      const res = await t.call(owner.key, {
        method: 'POST',
        url: '/api/v1/websites',
        form: { domain: 'day.example', email: '1' },
      });
      assert.equal(res.statusCode, 201);
      clock.set(Date.parse('2026-03-12T05:59:00Z'));
      await t.services.scheduler.tick();
      await t.services.jobs.drain();
      assert.deepEqual(await t.services.mail.outbox(), [], 'the 10th began before; the 11th is due at 06:00 on the 12th');
      clock.set(Date.parse('2026-03-12T06:00:00Z'));
      await t.services.scheduler.tick();
      await t.services.jobs.drain();
      const outbox = await t.services.mail.outbox();
      assert.deepEqual(
        outbox.map((m) => [m.recipient, m.subject]),
        [['daily@example.com', 'Daily report for day.example: 11 Mar 2026']],
        'without SMTP_URL the digest waits in the outbox',
      );
    } finally {
      await t.close();
    }
  });
});
