// `rankscope mail outbox | test | digest` (docs/monitors-and-mail.md), run in this process
// with the test's settings and clock (as `main` runs them with the process's), against the test
// database and a real SMTP server; and once as a child process, as a user runs it.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { runMail } from '../../src/cli/mail.js';
import { loadConfig } from '../../src/config.js';
import { silentLog } from '../../src/jobs/log.js';
import { buildServices } from '../../src/services.js';
import { fixedClock } from '../../src/time.js';
import { type TestApp, testApp } from '../helpers/app.js';
import { processDatabase, usingPostgres } from '../helpers/database.js';
import { findPart, parseMime } from '../helpers/mime.js';
import { databaseUrlOf, makeRetriesDue } from '../helpers/retries.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';
import { runCli } from '../helpers/spawn.js';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function sink(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

describe('rankscope mail', () => {
  const clock = fixedClock(Date.parse('2026-04-01T12:00:00Z'));
  let smtp: TestSmtpServer;
  let t: TestApp;
  let owner: { id: number; email: string; key: string };
  let on: number;
  let off: number;

  /** Runs `rankscope mail …` in this process on the test database. */
  async function mail(args: string[], env: Record<string, string> = {}): Promise<Ran> {
    const out = sink();
    const err = sink();
    const code = await runMail(
      args,
      { stdout: out.stream, stderr: err.stream },
      {
        env: { DATABASE_URL: databaseUrlOf(t.db), APP_URL: 'https://rankscope.test', ...env },
        clock,
      },
    );
    return { code, stdout: out.text(), stderr: err.text() };
  }

  const website = async (domain: string, email: string) => {
    const res = await t.call(owner.key, { method: 'POST', url: '/api/v1/websites', form: { domain, email } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.id as number;
  };

  before(async () => {
    smtp = await startSmtpServer();
    t = await testApp({}, { clock });
    owner = await t.account('cli-owner@example.com');
    on = await website('on.example', '1');
    off = await website('off.example', '0');
    clock.set(Date.parse('2026-04-15T12:00:00Z')); // a Wednesday: the last complete week began 6 April
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  test('invalid arguments: the usage on stderr, exit 2', async () => {
    for (const args of [
      [],
      ['frobnicate'],
      ['test'],
      ['test', 'not-an-address'],
      ['test', 'a@example.com', 'b@example.com'],
      ['digest', '--website'],
      ['digest', '--website', 'abc'],
      ['digest', '--website', '0'],
      ['digest', 'extra'],
      ['outbox', '--website', '1'],
      ['outbox', '--bogus'],
    ]) {
      const ran = await mail(args);
      assert.equal(ran.code, 2, `${args.join(' ')}: ${ran.stderr}`);
      assert.match(ran.stderr, /^rankscope mail: .+\n\nUsage: rankscope mail <command>/, args.join(' '));
      assert.equal(ran.stdout, '');
    }
    const help = await mail(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /digest \[--website ID\]/);
  });

  test('an invalid setting: named on stderr, exit 2', async () => {
    const ran = await mail(['outbox'], { SMTP_URL: 'http://user:hunter22@mail.example' });
    assert.equal(ran.code, 2);
    assert.match(ran.stderr, /SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    assert.ok(!ran.stderr.includes('hunter22'), 'the password is not echoed');
  });

  test('without SMTP_URL: mails wait in the outbox, which `mail outbox` prints one per line', async () => {
    const empty = await mail(['outbox']);
    assert.equal(empty.code, 0);
    assert.equal(empty.stdout, '');
    assert.match(empty.stderr, /outbox is empty/);

    await t.services.mail.queue({ to: 'first@example.com', subject: 'First\r\nBcc: x@example.com', text: 'a', html: '<p>a</p>' });
    clock.advance(1000);
    await t.services.mail.queue({ to: 'second@example.com', subject: 'Second', text: 'b', html: '<p>b</p>' });
    await t.services.jobs.drain();

    const listed = await mail(['outbox']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(
      listed.stdout,
      '2026-04-15T12:00:00.000000Z  first@example.com  First  Bcc: x@example.com\n' +
        '2026-04-15T12:00:01.000000Z  second@example.com  Second\n',
    );

    // `mail digest` without SMTP_URL keeps the digest there too.
    const digest = await mail(['digest', '--website', String(on)]);
    assert.equal(digest.code, 0, digest.stderr);
    assert.match(digest.stdout, /^on\.example \(website \d+\), weekly digest for 6 Apr 2026 to 12 Apr 2026: kept in the outbox/);
    const again = await mail(['outbox']);
    assert.equal(again.stdout.split('\n').filter(Boolean).length, 3);
    assert.match(again.stdout, /cli-owner@example\.com {2}Weekly report for on\.example: 6 Apr 2026 to 12 Apr 2026\n$/);
  });

  test('`mail test` sends now and prints the server’s answer; without SMTP_URL it says so, exit 1', async () => {
    const count = smtp.received.length;
    const sent = await mail(['test', 'admin@example.com'], { SMTP_URL: smtp.url, MAIL_FROM: 'ops@rankscope.test' });
    assert.equal(sent.code, 0, sent.stderr);
    assert.match(
      sent.stdout,
      /Sent a test mail to admin@example\.com through smtp:\/\/127\.0\.0\.1:\d+\. The server answered:\n250 OK: queued as TEST\d+\n$/,
    );
    assert.equal(smtp.received.length, count + 1);
    const mime = parseMime(smtp.received.at(-1)!.raw);
    assert.equal(mime.headers.get('subject'), 'Rankscope test mail');
    assert.ok(findPart(mime, 'text/plain')?.body.includes('test mail'));
    assert.ok(findPart(mime, 'text/html')?.body.includes('<p>'));
    assert.equal(smtp.received.at(-1)!.from, 'ops@rankscope.test');

    const none = await mail(['test', 'admin@example.com']);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /SMTP_URL is not set/);

    smtp.mode = 'reject-5xx';
    try {
      const refused = await mail(['test', 'admin@example.com'], { SMTP_URL: smtp.url });
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /did not take the mail: .*554/);
    } finally {
      smtp.mode = 'accept';
    }
  });

  test('`mail digest --website` of a website with email 0 sends nothing and says so, exit 0', async () => {
    const count = smtp.received.length;
    const ran = await mail(['digest', '--website', String(off)], { SMTP_URL: smtp.url });
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stdout, `Website ${off} (off.example) has e-mail reports off (email = 0): nothing sent.\n`);
    assert.equal(smtp.received.length, count);

    const unknown = await mail(['digest', '--website', '999999'], { SMTP_URL: smtp.url });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no website 999999/);
  });

  test('`mail digest` sends the last complete period now: of one website, or of every one with email 1', async () => {
    const count = smtp.received.length;
    const one = await mail(['digest', '--website', String(on)], { SMTP_URL: smtp.url });
    assert.equal(one.code, 0, one.stderr);
    assert.match(
      one.stdout,
      /^on\.example \(website \d+\), weekly digest for 6 Apr 2026 to 12 Apr 2026: sent to cli-owner@example\.com; smtp:\/\/127\.0\.0\.1:\d+ answered: 250 OK: queued as TEST\d+\n$/,
    );
    assert.equal(smtp.received.length, count + 1);
    const mime = parseMime(smtp.received.at(-1)!.raw);
    assert.equal(mime.headers.get('subject'), 'Weekly report for on.example: 6 Apr 2026 to 12 Apr 2026');
    assert.ok(findPart(mime, 'text/plain')?.body.includes(`https://rankscope.test/websites/${on}`));
    assert.ok(findPart(mime, 'text/html')?.body.includes(`https://rankscope.test/websites/${on}`));

    const second = await website('second.example', '1');
    const all = await mail(['digest'], { SMTP_URL: smtp.url, EMAIL_DIGEST: 'monthly' });
    assert.equal(all.code, 0, all.stderr);
    const lines = all.stdout.trim().split('\n');
    assert.equal(lines.length, 2);
    assert.match(lines[0], /^on\.example .*monthly digest for March 2026: sent/);
    assert.match(lines[1], new RegExp(`^second\\.example \\(website ${second}\\), monthly digest for March 2026: sent`));
    assert.equal(smtp.received.length, count + 3);
    const sent = await t.db.handle.db.selectFrom('mails').selectAll().where('status', '=', 'sent').execute();
    assert.equal(sent.length, 3, 'each recorded as sent');
    assert.ok(
      sent.every((m) => m.job_queued === 0),
      'sent directly, no job',
    );
  });

  test('`mail digest` against a refusing server: exit 1, and the mail is kept for the job workers to retry', async () => {
    smtp.mode = 'reject-4xx';
    let ran: Ran;
    try {
      ran = await mail(['digest', '--website', String(on)], { SMTP_URL: smtp.url });
    } finally {
      smtp.mode = 'accept';
    }
    assert.equal(ran.code, 1);
    assert.match(ran.stderr, /could not be sent to cli-owner@example\.com: .*451.* \(kept; the job workers/);
    const kept = await t.db.handle.db.selectFrom('mails').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    assert.equal(kept.status, 'queued');
    assert.equal(kept.job_queued, 1);
    assert.equal(kept.attempts, 1);

    // A server's job workers (this test's own services, built with SMTP_URL, on the same
    // database) send it once its backoff has passed, once.
    const worker = buildServices({
      config: loadConfig({ SMTP_URL: smtp.url }),
      database: t.db.handle,
      log: silentLog,
      clock,
      engineWorkers: false,
    });
    try {
      const count = smtp.received.length;
      // (PostgreSQL compares the retry's time with its own clock, not the test's.)
      if (!usingPostgres) assert.equal(await worker.jobs.drain(), 0, 'not before its backoff');
      await makeRetriesDue(t.db, clock, 31_000);
      assert.equal(await worker.jobs.drain(), 1);
      assert.equal(smtp.received.length, count + 1);
      const sent = await t.db.handle.db.selectFrom('mails').selectAll().where('id', '=', kept.id).executeTakeFirstOrThrow();
      assert.equal(sent.status, 'sent');
      assert.equal(sent.attempts, 2);
      await makeRetriesDue(t.db, clock, 3_600_000);
      assert.equal(await worker.jobs.drain(), 0);
      assert.equal(smtp.received.length, count + 1);
    } finally {
      await worker.close();
    }
  });
});

describe('rankscope mail, as a user runs it', () => {
  test('the command is wired into the CLI: usage, and the outbox of a fresh database', async () => {
    const usage = await runCli(['mail', 'nonsense']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /Usage: rankscope mail <command>/);
    const help = await runCli(['help']);
    assert.match(help.stdout, /mail digest \[--website ID\]/);

    const db = await processDatabase();
    try {
      const outbox = await runCli(['mail', 'outbox'], { DATABASE_URL: db.databaseUrl });
      assert.equal(outbox.code, 0, outbox.stderr);
      assert.equal(outbox.stdout, '');
      assert.match(outbox.stderr, /The outbox is empty\./);
    } finally {
      await db.cleanup();
    }
  });
});
