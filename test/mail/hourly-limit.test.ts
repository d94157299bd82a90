// MAIL_PER_HOUR (default 30): at most that many mails to one account in any hour, sent or kept in
// the outbox; past it the account's mails wait in the queue for a later hour (none dropped), and
// other accounts' mails go out meanwhile. On the engine under test; the later hour is stepped
// through on SQLite (pg-boss decides what is due by PostgreSQL's clock, so there the app runs on
// the real one and the test checks the wait).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAIL_SEND_JOB } from '../../src/mail/mail-service.js';
import { fixedClock } from '../../src/time.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { usingPostgres } from '../helpers/database.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';

const HOUR = 3_600_000;
const message = (n: number, to: string) => ({ to, subject: `Alert ${n}`, text: `Mail ${n}.`, html: `<p>Mail ${n}.</p>` });

describe('MAIL_PER_HOUR', () => {
  const clock = fixedClock(Date.now());
  const apps: TestApp[] = [];
  let smtp: TestSmtpServer;
  before(async () => {
    smtp = await startSmtpServer();
  });
  after(async () => {
    for (const t of apps) await t.close();
    await smtp.close();
  });
  async function app(env: Record<string, string>): Promise<TestApp> {
    const t = await testApp(env, usingPostgres ? {} : { clock });
    apps.push(t);
    return t;
  }
  const byStatus = async (t: TestApp, to: string) =>
    (await t.db.handle.db.selectFrom('mails').select('status').where('recipient', '=', to).execute()).map((m) => m.status);
  const count = (statuses: string[], status: string) => statuses.filter((s) => s === status).length;

  test('35 mails to one account: 30 this hour, 5 wait for the next; another account’s mails go out meanwhile', async () => {
    const t = await app({});
    const busy = await t.account();
    const other = await t.account();
    const first = usingPostgres ? Date.now() : clock.now();
    for (let n = 1; n <= 35; n++) await t.services.mail.queue(message(n, busy.email), { account: busy.id });
    for (let n = 1; n <= 2; n++) await t.services.mail.queue(message(n, other.email), { account: other.id });
    await t.services.jobs.drain();

    const busyNow = await byStatus(t, busy.email);
    assert.equal(count(busyNow, 'outbox'), 30);
    assert.equal(count(busyNow, 'queued'), 5, 'the rest wait, none dropped');
    assert.deepEqual(await byStatus(t, other.email), ['outbox', 'outbox']);
    const waiting = (await t.services.jobs.list()).filter((job) => job.type === MAIL_SEND_JOB);
    assert.equal(waiting.length, 5);
    for (const job of waiting) {
      assert.equal(job.state, 'queued');
      assert.equal(job.attempts, 0, 'waiting is no failed attempt');
      assert.match(job.lastError ?? '', /MAIL_PER_HOUR/);
      assert.ok(job.runAt.getTime() >= first + HOUR - 5_000, `waits for the hour: ${job.runAt.toISOString()}`);
    }
    if (usingPostgres) return;

    clock.advance(HOUR - 60_000);
    await t.services.jobs.drain();
    assert.equal(count(await byStatus(t, busy.email), 'outbox'), 30, 'not within the hour');
    clock.advance(61_000);
    await t.services.jobs.drain();
    assert.equal(count(await byStatus(t, busy.email), 'outbox'), 35, 'the next hour');
    assert.deepEqual(
      (await t.services.jobs.list()).filter((job) => job.type === MAIL_SEND_JOB),
      [],
    );
  });

  test('over SMTP too: with MAIL_PER_HOUR=2, the third mail of the hour stays queued', async () => {
    smtp.mode = 'accept';
    const t = await app({ SMTP_URL: smtp.url, MAIL_PER_HOUR: '2' });
    const busy = await t.account();
    for (let n = 1; n <= 3; n++) await t.services.mail.queue(message(n, busy.email), { account: busy.id });
    await t.services.jobs.drain();
    assert.equal(smtp.received.filter((m) => m.to.includes(busy.email)).length, 2);
    assert.deepEqual((await byStatus(t, busy.email)).sort(), ['queued', 'sent', 'sent']);
  });
});
