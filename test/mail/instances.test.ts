// Several instances on one database (docs/monitors-and-mail.md: a run is done once even with
// several instances): two complete sets of services, each with its own connections, job workers
// and scheduler, all ticking at the moment digests fall due. Each website's digest reaches the
// SMTP server exactly once. PostgreSQL is where instances share work (pg-boss); the same runs on
// SQLite, whose table queue is also safe for two processes on one file.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../../src/accounts/accounts.js';
import { loadConfig } from '../../src/config.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connection.js';
import { UsersRepository } from '../../src/db/users-repository.js';
import { WebsitesRepository } from '../../src/db/websites-repository.js';
import { silentLog } from '../../src/jobs/log.js';
import { buildServices, type Services } from '../../src/services.js';
import { fixedClock } from '../../src/time.js';
import { type TestDatabase, testDatabase } from '../helpers/database.js';
import { parseMime } from '../helpers/mime.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';
import { until } from '../helpers/wait.js';

const WEBSITES = 8;

describe('digests with two instances on one database', () => {
  const clock = fixedClock(Date.parse('2026-04-15T12:00:00Z'));
  let db: TestDatabase;
  let second: DatabaseHandle;
  let smtp: TestSmtpServer;
  let instances: Services[] = [];

  before(async () => {
    db = await testDatabase();
    second = await openDatabase(db.url, { schema: db.schema, poolSize: 5 });
    smtp = await startSmtpServer();
    // One account's digests, more than the default MAIL_PER_HOUR: the limit is not what this tests.
    const config = loadConfig({ SMTP_URL: smtp.url, JOB_CONCURRENCY: '4', MAIL_PER_HOUR: '1000' });
    instances = [db.handle, second].map((database) =>
      buildServices({ config, database, log: silentLog, clock, engineWorkers: false }),
    );
    const { user } = await createAccount(new UsersRepository(db.handle.db), 'two@example.com');
    const websites = new WebsitesRepository(db.handle.db, clock);
    for (let i = 0; i < WEBSITES; i++) {
      await websites.create({
        user_id: user.id,
        domain: `site${i}.example`,
        privacy: 1,
        password_hash: null,
        email: 1,
        exclude_bots: 1,
        exclude_ips: null,
        exclude_params: null,
      });
    }
  });
  after(async () => {
    for (const services of instances) await services.close();
    await second?.close();
    await db?.cleanup();
    await smtp?.close();
  });

  test('every website’s digest is sent exactly once', async () => {
    clock.set(Date.parse('2026-04-27T06:00:00Z'));
    for (const services of instances) await services.startWorkers();
    // Both schedulers tick on their own timers; these ticks race them and each other.
    await Promise.all(instances.flatMap((services) => [services.scheduler.tick(), services.scheduler.tick()]));
    await until(() => smtp.received.length >= WEBSITES, { what: `${WEBSITES} digests` });
    const mails = () => db.handle.db.selectFrom('mails').select(['status']).execute();
    await until(async () => (await mails()).every((m) => m.status === 'sent'), { what: 'every mail recorded as sent' });

    // More ticks, on both, once everything is done: nothing more is queued.
    await Promise.all(instances.flatMap((services) => [services.scheduler.tick(), services.scheduler.tick()]));
    await until(async () => (await instances[0].jobs.list()).length === 0, { what: 'no job left' });

    const subjects = smtp.received.map((m) => parseMime(m.raw).headers.get('subject'));
    assert.equal(subjects.length, WEBSITES, subjects.join('\n'));
    assert.deepEqual(
      [...subjects].sort(),
      Array.from({ length: WEBSITES }, (_, i) => `Weekly report for site${i}.example: 20 Apr 2026 to 26 Apr 2026`).sort(),
    );
    assert.equal((await mails()).length, WEBSITES);
    const digests = await db.handle.db.selectFrom('digests').selectAll().execute();
    assert.equal(digests.length, WEBSITES);
  });
});
