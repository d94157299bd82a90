// Mail through a real SMTP server on 127.0.0.1 (test/helpers/smtp.ts): a queued mail is sent by
// its job with both parts, once; without SMTP_URL it stays in the outbox; a refusing or silent
// server gets retries with backoff (stepped through with the clock, never slept), and a mail
// that never gets through ends `failed` with its job. Every mail ends sent exactly once or failed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MailsRepository, type MailRow } from '../../src/db/mails-repository.js';
import { DELIVERY_POLICY } from '../../src/jobs/queue.js';
import { MAIL_SEND_JOB } from '../../src/mail/mail-service.js';
import { fixedClock } from '../../src/time.js';
import { type TestApp, testApp } from '../helpers/app.js';
import { findPart, parseMime } from '../helpers/mime.js';
import { makeRetriesDue } from '../helpers/retries.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';

const START = Date.parse('2026-05-04T10:00:00Z');
const message = (n: number | string, to = 'owner@example.com') => ({
  to,
  subject: `Mail ${n}`,
  text: `The text of mail ${n}: naïve café, 100 % sure.`,
  html: `<p>The <b>HTML</b> of mail ${n}</p>`,
});

async function rows(t: TestApp): Promise<MailRow[]> {
  return t.db.handle.db.selectFrom('mails').selectAll().orderBy('id').execute();
}

async function mailJobs(t: TestApp) {
  return (await t.services.jobs.list()).filter((job) => job.type === MAIL_SEND_JOB);
}

describe('mail', () => {
  let smtp: TestSmtpServer;
  const apps: TestApp[] = [];
  const clock = fixedClock(START);

  async function app(env: Record<string, string>): Promise<TestApp> {
    clock.set(START);
    const t = await testApp(env, { clock });
    apps.push(t);
    return t;
  }

  /** Makes every waiting retry due (the longest backoff of the next attempt) and runs what is due. */
  async function stepRetries(t: TestApp, attempt: number): Promise<number> {
    await makeRetriesDue(t.db, clock, DELIVERY_POLICY.retryDelaySeconds * 2 ** attempt * 1000 + 1000);
    return t.services.jobs.drain();
  }

  before(async () => {
    smtp = await startSmtpServer();
  });
  after(async () => {
    for (const t of apps) await t.close();
    await smtp.close();
  });

  test('a queued mail is sent once by its job: both parts, from MAIL_FROM, the answer recorded', async () => {
    smtp.mode = 'accept';
    const t = await app({ SMTP_URL: smtp.url, MAIL_FROM: 'Rankscope Digests <digests@rankscope.test>' });
    const before = smtp.received.length;
    await t.services.mail.queue({ ...message('one'), subject: 'Weekly report – ünïcode' });
    const [queued] = await rows(t);
    assert.equal(queued.status, 'queued');
    assert.equal(smtp.received.length, before, 'queueing sends nothing itself');

    assert.equal(await t.services.jobs.drain(), 1);
    assert.equal(smtp.received.length, before + 1);
    const got = smtp.received.at(-1)!;
    assert.deepEqual(got.to, ['owner@example.com']);
    assert.equal(got.from, 'digests@rankscope.test');
    const mime = parseMime(got.raw);
    assert.equal(mime.type, 'multipart/alternative');
    assert.equal(mime.headers.get('subject'), 'Weekly report – ünïcode');
    assert.equal(mime.headers.get('from'), 'Rankscope Digests <digests@rankscope.test>');
    assert.equal(mime.headers.get('auto-submitted'), 'auto-generated');
    assert.equal(findPart(mime, 'text/plain')?.body.trim(), 'The text of mail one: naïve café, 100 % sure.');
    assert.equal(findPart(mime, 'text/html')?.body.trim(), '<p>The <b>HTML</b> of mail one</p>');

    const [sent] = await rows(t);
    assert.equal(sent.status, 'sent');
    assert.equal(sent.attempts, 1);
    assert.match(sent.smtp_response ?? '', /^250 .*queued as TEST\d+/);
    assert.equal(sent.sent_at, '2026-05-04T10:00:00.000000Z');
    assert.equal(sent.job_queued, 1);
    assert.deepEqual(await mailJobs(t), [], 'the job completed');
  });

  test('a job re-run after the mail was sent sends nothing again', async () => {
    smtp.mode = 'accept';
    const t = await app({ SMTP_URL: smtp.url });
    await t.services.mail.queue(message('rerun'));
    await t.services.jobs.drain();
    const count = smtp.received.length;
    const [sent] = await rows(t);
    assert.equal(sent.status, 'sent');

    // The same job run again (a lease that ran out after the send), and another job for the mail.
    const signal = new AbortController().signal;
    await t.services.mail.runJob({ mailId: sent.id }, { id: 'again', attempt: 2, signal });
    await t.services.jobs.send(MAIL_SEND_JOB, { mailId: sent.id });
    assert.equal(await t.services.jobs.drain(), 1);
    assert.equal(smtp.received.length, count, 'nothing sent twice');
    const [after] = await rows(t);
    assert.equal(after.attempts, 1);
    assert.equal(after.sent_at, sent.sent_at);
  });

  test('a key queues a mail once', async () => {
    smtp.mode = 'accept';
    const t = await app({ SMTP_URL: smtp.url });
    await t.services.mail.queue(message('keyed'), { key: 'digest:1:weekly:2026-04-27' });
    await t.services.mail.queue(message('keyed again'), { key: 'digest:1:weekly:2026-04-27' });
    await t.services.mail.queue(message('other key'), { key: 'digest:1:weekly:2026-05-04' });
    const stored = await rows(t);
    assert.deepEqual(
      stored.map((r) => r.subject),
      ['Mail keyed', 'Mail other key'],
    );
    const count = smtp.received.length;
    assert.equal(await t.services.jobs.drain(), 2);
    assert.equal(smtp.received.length, count + 2);
  });

  test('without SMTP_URL the job keeps the mail in the outbox and sends nothing', async () => {
    const t = await app({});
    const count = smtp.received.length;
    await t.services.mail.queue(message('kept'));
    assert.equal(await t.services.jobs.drain(), 1);
    const [kept] = await rows(t);
    assert.equal(kept.status, 'outbox');
    assert.equal(kept.attempts, 0);
    assert.deepEqual(
      (await t.services.mail.outbox()).map((r) => [r.recipient, r.subject]),
      [['owner@example.com', 'Mail kept']],
    );
    // A re-run leaves it there.
    await t.services.mail.runJob({ mailId: kept.id }, { id: 'again', attempt: 2, signal: new AbortController().signal });
    assert.equal((await rows(t))[0].status, 'outbox');
    assert.equal(smtp.received.length, count);
  });

  test('a refusing server (4xx): retried with backoff, the attempts growing, then sent exactly once', async () => {
    const t = await app({ SMTP_URL: smtp.url });
    smtp.mode = 'reject-4xx';
    const count = smtp.received.length;
    await t.services.mail.queue(message('later'));
    assert.equal(await t.services.jobs.drain(), 1);
    let [row] = await rows(t);
    assert.equal(row.status, 'queued');
    assert.equal(row.attempts, 1);
    assert.match(row.last_error ?? '', /451/);
    let [job] = await mailJobs(t);
    assert.equal(job.state, 'retry');
    assert.equal(job.attempts, 1);
    assert.match(job.lastError ?? '', /451/);

    // Not again before its backoff.
    assert.equal(await t.services.jobs.drain(), 0);

    assert.equal(await stepRetries(t, 1), 1);
    [job] = await mailJobs(t);
    assert.equal(job.attempts, 2);
    assert.equal((await rows(t))[0].attempts, 2);

    smtp.mode = 'accept';
    assert.equal(await stepRetries(t, 2), 1);
    [row] = await rows(t);
    assert.equal(row.status, 'sent');
    assert.equal(row.attempts, 3);
    assert.equal(smtp.received.length, count + 1);
    assert.equal(smtp.received.filter((m) => m.raw.includes('Subject: Mail later')).length, 1);
    assert.deepEqual(await mailJobs(t), []);
  });

  test('a server that never takes it (5xx, hang-up): after the last attempt the job and the mail are failed', async () => {
    const t = await app({ SMTP_URL: smtp.url });
    const count = smtp.received.length;
    await t.services.mail.queue(message('never'));
    const attempts = DELIVERY_POLICY.retryLimit + 1;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      smtp.mode = attempt % 2 === 0 ? 'hang-up' : 'reject-5xx';
      const ran = attempt === 1 ? await t.services.jobs.drain() : await stepRetries(t, attempt - 1);
      assert.equal(ran, 1, `attempt ${attempt} ran`);
      const [row] = await rows(t);
      assert.equal(row.attempts, attempt);
      assert.equal(row.status, attempt === attempts ? 'failed' : 'queued', `after attempt ${attempt}`);
    }
    const [row] = await rows(t);
    assert.match(row.last_error ?? '', /554/, 'the last error is the last refusal');
    const [job] = await mailJobs(t);
    assert.equal(job.state, 'failed');
    assert.equal(job.attempts, attempts);
    assert.equal(await stepRetries(t, attempts), 0, 'a failed job does not run again');
    assert.equal(smtp.received.length, count);
    smtp.mode = 'accept';
  });

  test('every queued mail ends sent exactly once or failed, whatever the server does meanwhile', async () => {
    const t = await app({ SMTP_URL: smtp.url });
    // One mail queued at each of the first six steps; the server's answer changes at each step,
    // and from the sixth on it refuses everything, so the last mail uses up its attempts.
    const modes = ['reject-4xx', 'accept', 'hang-up', 'reject-5xx', 'accept'] as const;
    const subjects = Array.from({ length: 6 }, (_, i) => `Batch ${i}`);
    const steps = subjects.length + DELIVERY_POLICY.retryLimit + 1;
    for (let step = 0; step < steps; step++) {
      smtp.mode = step < modes.length ? modes[step] : 'reject-5xx';
      if (step < subjects.length) await t.services.mail.queue({ ...message(step), subject: subjects[step] });
      if (step === 0) await t.services.jobs.drain();
      else await stepRetries(t, Math.min(step, DELIVERY_POLICY.retryLimit));
    }
    const stored = await rows(t);
    assert.equal(stored.length, subjects.length);
    for (const row of stored) {
      assert.ok(row.status === 'sent' || row.status === 'failed', `${row.subject}: ${row.status}`);
      const delivered = smtp.received.filter((m) => parseMime(m.raw).headers.get('subject') === row.subject).length;
      assert.equal(delivered, row.status === 'sent' ? 1 : 0, `${row.subject} delivered ${delivered} times`);
    }
    assert.deepEqual(
      stored.map((r) => r.status),
      ['sent', 'sent', 'sent', 'sent', 'sent', 'failed'],
    );
    assert.deepEqual(
      stored.map((r) => r.attempts),
      [2, 1, 3, 2, 1, DELIVERY_POLICY.retryLimit + 1],
    );
    assert.deepEqual(
      (await mailJobs(t)).map((job) => job.state),
      ['failed'],
      'no job left waiting; the failed mail’s job failed',
    );
    smtp.mode = 'accept';
  });

  test('a mail stored without its job (the process stopped in between) is queued by the sweep', async () => {
    smtp.mode = 'accept';
    const t = await app({ SMTP_URL: smtp.url });
    const { to, ...fields } = message('orphan');
    const orphan = await new MailsRepository(t.db.handle.db, clock).insert({
      ...fields,
      recipient: to,
      key: null,
      user_id: null,
    });
    assert.ok(orphan);
    // (Other scheduled tasks queue jobs of their own, so what counts is the mail and the server.)
    const count = smtp.received.length;
    await t.services.scheduler.tick();
    await t.services.jobs.drain();
    assert.equal((await rows(t))[0].status, 'queued', 'a mail just stored may still get its job from its own process');
    assert.equal(smtp.received.length, count);
    clock.advance(11 * 60_000);
    await t.services.scheduler.tick();
    await t.services.jobs.drain();
    assert.equal(smtp.received.length, count + 1);
    assert.equal((await rows(t))[0].status, 'sent');
    clock.advance(2 * 60_000);
    await t.services.scheduler.tick();
    await t.services.jobs.drain();
    assert.equal(smtp.received.length, count + 1, 'queued once');
  });

  test('the login in SMTP_URL is used, and the password appears in no log line, row or error', async () => {
    const password = 'S3cret pass/word!';
    const authed = await startSmtpServer({ login: { user: 'mailer@rankscope.test', pass: password } });
    try {
      const encoded = encodeURIComponent(password);
      const t = await app({ SMTP_URL: authed.url, LOG_LEVEL: 'debug' });
      await t.services.mail.queue(message('authed'));
      await t.services.jobs.drain();
      assert.equal(authed.received.length, 1);
      assert.equal(authed.received[0].user, 'mailer@rankscope.test');

      const wrong = await app({ SMTP_URL: authed.url.replace(encoded, 'Wr0ng-passw0rd'), LOG_LEVEL: 'debug' });
      await wrong.services.mail.queue(message('refused login'));
      await wrong.services.jobs.drain();
      const [row] = await rows(wrong);
      assert.equal(row.status, 'queued');
      assert.match(row.last_error ?? '', /535|[Ii]nvalid/);
      for (const [name, instance, secret] of [
        ['right', t, password],
        ['right, encoded', t, encoded],
        ['wrong', wrong, 'Wr0ng-passw0rd'],
      ] as const) {
        const everything = `${instance.logs.join('')}${JSON.stringify(await rows(instance))}${JSON.stringify(await instance.services.jobs.list())}`;
        assert.ok(!everything.includes(secret), `${name} password leaked`);
        assert.ok(!everything.includes(Buffer.from(secret).toString('base64')), `${name} password leaked as base64`);
      }
      assert.ok(wrong.logs.join('').includes('job failed; it will be retried'), 'the failure itself is logged');
    } finally {
      await authed.close();
    }
  });

  test('smtps:// speaks TLS from the first byte', async () => {
    const secure = await startSmtpServer({ secure: true });
    try {
      const t = await app({ SMTP_URL: secure.url });
      await t.services.mail.queue(message('tls'));
      await t.services.jobs.drain();
      assert.equal(secure.received.length, 1);
      assert.equal((await rows(t))[0].status, 'sent');
    } finally {
      await secure.close();
    }
  });
});
