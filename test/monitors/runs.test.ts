// Monitors at work, on the engine under test: the scheduler queues a due run once (ticked twice,
// or by two instances on one database), skips missed periods; a run re-analyses the report,
// records history, and compares with the item before: a score drop of alert_drop or more, or a
// high-importance check going from passed to failed, sends the alert mail (email = 1; one per
// run, however often the run is retried) and publishes monitor.alert. A page that is down
// records nothing and the job retries.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLog } from '../../src/jobs/log.js';
import { MONITOR_NOTIFY, MONITOR_RUN } from '../../src/monitors/monitor-service.js';
import { buildServices } from '../../src/services.js';
import { fixedClock } from '../../src/time.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { usingPostgres } from '../helpers/database.js';
import { goodPage, startSite, type PageHandler, type PageSite } from '../helpers/pages.js';
import { RecordingEvents, RecordingMailer } from '../helpers/recorders.js';

const clock = fixedClock(Date.parse('2026-04-01T06:00:00Z'));

describe('monitor runs', () => {
  let t: TestApp;
  let site: PageSite;
  let key: string;
  let email: string;
  let userId: number;
  const mailer = new RecordingMailer();
  const events = new RecordingEvents();
  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', APP_URL: 'https://rank.example/' }, { clock, mail: mailer, events });
    ({ key, email, id: userId } = await t.account());
    site = await startSite({});
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  let pages = 0;
  /** A report of a page of its own (served from `html`, changed later by the test) and a monitor of it. */
  async function monitored(form: Record<string, string> = {}, html = goodPage()) {
    const path = `/page-${++pages}.html`;
    site.set(path, html);
    const created = await t.call(key, { method: 'POST', url: '/api/v1/reports', form: { url: `${site.origin}${path}` } });
    assert.equal(created.statusCode, 201, created.body);
    const report = created.json().data;
    const res = await t.call(key, {
      method: 'POST',
      url: '/api/v1/monitors',
      form: { report_id: String(report.id), frequency: 'daily', ...form },
    });
    assert.equal(res.statusCode, 201, res.body);
    return { path, report, monitor: res.json().data, change: (next: string | PageHandler) => site.set(path, next) };
  }
  const history = async (reportId: number) =>
    (await t.call(key, { method: 'GET', url: `/api/v1/reports/${reportId}/history` })).json().data as { result: number }[];
  const monitorOf = async (id: number) => (await t.call(key, { method: 'GET', url: `/api/v1/monitors/${id}` })).json().data;
  const runNow = async (id: number) => {
    assert.equal((await t.call(key, { method: 'POST', url: `/api/v1/monitors/${id}/run` })).statusCode, 202);
    await t.services.jobs.drain();
  };
  const mailsAbout = (reportId: number) => mailer.to(email).filter((m) => m.text.includes(`/reports/${reportId}\n`));
  const alertsAbout = (reportId: number) => events.of(userId, 'monitor.alert').filter((d) => d.report.id === reportId);

  const withoutTitle = (html: string) => html.replace(/<title>.*<\/title>/, '');
  /** Scheduler tests count runs: monitors of earlier tests would be due too. */
  const onlyNewMonitors = async () => {
    await t.services.jobs.drain();
    await t.db.handle.db.deleteFrom('monitors').execute();
  };
  /** Two medium-importance checks fail (language, meta_viewport): the score falls, no high check changes. */
  const withoutMediums = (html: string) => html.replace(' lang="en"', '').replace(/<meta name="viewport"[^>]*>/, '');

  test('the scheduler queues a due monitor once, however often it ticks, and moves next_run_at to the next period', async () => {
    await onlyNewMonitors();
    clock.set(Date.parse('2026-04-01T06:00:00Z'));
    const { report, monitor } = await monitored();
    assert.equal(monitor.next_run_at, '2026-04-02T06:00:00.000000Z');

    clock.set(Date.parse('2026-04-02T05:59:59.999Z'));
    await t.services.scheduler.tick();
    assert.equal(await t.services.jobs.drain([MONITOR_RUN]), 0, 'not due yet');

    clock.set(Date.parse('2026-04-02T06:00:00Z'));
    await t.services.scheduler.tick();
    await t.services.scheduler.tick();
    assert.equal(await t.services.jobs.drain([MONITOR_RUN]), 1, 'one run');
    assert.equal((await history(report.id)).length, 2);
    const after = await monitorOf(monitor.id);
    assert.equal(after.next_run_at, '2026-04-03T06:00:00.000000Z');
    assert.equal(after.last_run_at, '2026-04-02T06:00:00.000000Z');
    assert.equal(after.last_result, (await history(report.id))[0].result);

    // An instance that queued the run and died before moving next_run_at: the next tick finds
    // the key taken, queues nothing more, and moves it.
    clock.set(Date.parse('2026-04-03T06:00:01Z'));
    assert.equal(
      await t.services.jobs.send(
        MONITOR_RUN,
        { monitorId: monitor.id, due: after.next_run_at },
        { key: `${monitor.id}@${after.next_run_at}` },
      ),
      true,
    );
    assert.equal(await t.services.monitors.queueDue(clock.now()), 0, 'its key is taken');
    assert.equal((await monitorOf(monitor.id)).next_run_at, '2026-04-04T06:00:00.000000Z');
    assert.equal(await t.services.jobs.drain([MONITOR_RUN]), 1);
    assert.equal((await history(report.id)).length, 3);
  });

  test('two instances on one database, ticking at once, queue a due run once', async () => {
    await onlyNewMonitors();
    clock.set(Date.parse('2026-04-10T06:00:00Z'));
    const { report, monitor } = await monitored();
    const second = buildServices({ config: t.config, database: t.db.handle, log: silentLog, clock, engineWorkers: false });
    try {
      clock.set(Date.parse('2026-04-11T07:30:00Z'));
      const queued = await Promise.all([t.services.monitors.queueDue(clock.now()), second.monitors.queueDue(clock.now())]);
      assert.equal(queued[0] + queued[1], 1, `queued ${queued}`);
      await Promise.all([t.services.scheduler.tick(), second.scheduler.tick()]);
      const ran = (await t.services.jobs.drain([MONITOR_RUN])) + (await second.jobs.drain([MONITOR_RUN]));
      assert.equal(ran, 1);
      assert.equal((await history(report.id)).length, 2);
      assert.equal((await monitorOf(monitor.id)).next_run_at, '2026-04-12T06:00:00.000000Z');
    } finally {
      await second.close();
    }
  });

  test('missed periods are skipped: one run, then the next future period', async () => {
    await onlyNewMonitors();
    clock.set(Date.parse('2026-05-01T06:00:00Z'));
    const { report, monitor } = await monitored({ frequency: 'weekly' });
    assert.equal(monitor.next_run_at, '2026-05-08T06:00:00.000000Z');
    clock.set(Date.parse('2026-07-20T12:00:00Z')); // ten weeks and a bit later
    await t.services.scheduler.tick();
    await t.services.scheduler.tick();
    assert.equal(await t.services.jobs.drain([MONITOR_RUN]), 1);
    assert.equal((await history(report.id)).length, 2);
    // 2026-05-01 is a Friday: the next Friday 06:00 after 20 July is 24 July
    assert.equal((await monitorOf(monitor.id)).next_run_at, '2026-07-24T06:00:00.000000Z');
  });

  test('a high-importance check going from passed to failed: the alert mail and monitor.alert, whatever the score', async () => {
    clock.set(Date.parse('2026-06-01T06:00:00Z'));
    const { report, monitor, change } = await monitored({ alert_drop: '100' });
    change(withoutTitle(goodPage()));
    clock.advance(3_600_000);
    await runNow(monitor.id);

    const items = await history(report.id);
    assert.equal(items.length, 2);
    assert.ok(items[1].result - items[0].result < 100);
    const [mail] = mailsAbout(report.id);
    assert.equal(mailsAbout(report.id).length, 1);
    assert.equal(mail.to, email);
    assert.match(mail.subject, /now fails?$/);
    assert.match(
      mail.text,
      /- title: Title tag \(high importance\)\n {2}Before: passed\. Now: failed\.\n {2}How to fix: Give the page exactly one <title>/,
    );
    assert.ok(mail.text.includes(`Score: ${items[1].result} → ${items[0].result}`));
    assert.ok(mail.text.includes(`https://rank.example/reports/${report.id}`));
    assert.ok(mail.html.includes(`href="https://rank.example/reports/${report.id}"`));
    assert.ok(mail.text.includes(report.url));
    const sent = mailer.sent.find((m) => m.message === mail)!;
    assert.match(sent.key ?? '', /^monitor\.alert:run:\S+$/, 'keyed by the run (one mail however often it is retried)');

    const [alert] = alertsAbout(report.id);
    assert.equal(alertsAbout(report.id).length, 1);
    assert.deepEqual(Object.keys(alert), ['monitor', 'report', 'changes']);
    assert.deepEqual(alert.monitor, await monitorOf(monitor.id));
    assert.deepEqual(alert.report, (await t.call(key, { method: 'GET', url: `/api/v1/reports/${report.id}` })).json().data);
    assert.ok(
      alert.changes.some(
        (c: object) =>
          JSON.stringify(c) === JSON.stringify({ id: 'title', title: 'Title tag', passed_before: true, passed: false }),
      ),
    );
    for (const c of alert.changes) assert.deepEqual(Object.keys(c), ['id', 'title', 'passed_before', 'passed']);

    // The same history item never alerts twice: its notify job is keyed by it.
    const latest = await t.db.handle.db
      .selectFrom('report_history')
      .select('id')
      .where('report_id', '=', report.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    assert.equal(await t.services.jobs.send(MONITOR_NOTIFY, { monitorId: monitor.id }, { key: String(latest.id) }), false);

    // Nothing changed on the next run: no alert.
    clock.advance(3_600_000);
    await runNow(monitor.id);
    assert.equal((await history(report.id)).length, 3);
    assert.equal(mailsAbout(report.id).length, 1);
    assert.equal(alertsAbout(report.id).length, 1);
  });

  test('a score drop of alert_drop or more alerts; a smaller one does not; medium checks alone never do', async () => {
    clock.set(Date.parse('2026-06-10T06:00:00Z'));
    const sensitive = await monitored({ alert_drop: '1' });
    const tolerant = await monitored({ alert_drop: '100' });
    for (const m of [sensitive, tolerant]) {
      m.change(withoutMediums(goodPage()));
      await runNow(m.monitor.id);
    }
    const [after, before] = await history(sensitive.report.id);
    assert.ok(before.result - after.result >= 1, `the score fell (${before.result} → ${after.result})`);
    assert.equal(mailsAbout(sensitive.report.id).length, 1);
    const mail = mailsAbout(sensitive.report.id)[0];
    assert.match(mail.text, /the score fell by \d+ points? \(this monitor alerts at a fall of 1 or more\)\./);
    assert.match(mail.text, /- language: Language \(medium importance\)\n {2}Before: passed\. Now: failed\./);
    assert.equal(alertsAbout(sensitive.report.id).length, 1);

    assert.equal((await history(tolerant.report.id)).length, 2);
    assert.equal(mailsAbout(tolerant.report.id).length, 0);
    assert.equal(alertsAbout(tolerant.report.id).length, 0);

    // alert_drop is the threshold itself: a drop of exactly that much alerts
    const exact = await monitored({ alert_drop: String(before.result - after.result) });
    exact.change(withoutMediums(goodPage()));
    await runNow(exact.monitor.id);
    assert.equal(mailsAbout(exact.report.id).length, 1);
    const oneMore = await monitored({ alert_drop: String(before.result - after.result + 1) });
    oneMore.change(withoutMediums(goodPage()));
    await runNow(oneMore.monitor.id);
    assert.equal(mailsAbout(oneMore.report.id).length, 0);
  });

  test('a run retried after it alerted (another history item, another alert) still sends one alert mail', async () => {
    const { report, monitor, change } = await monitored({ alert_drop: '1' });
    // The run job as the queue runs it, then its retry (same job, next attempt): say its process
    // died after the alert was queued, before the job was marked done.
    const job = { id: `run-of-${monitor.id}`, signal: new AbortController().signal };
    change(withoutTitle(goodPage()));
    await t.services.monitors.run({ monitorId: monitor.id }, { ...job, attempt: 1 });
    change(withoutMediums(withoutTitle(goodPage())));
    await t.services.monitors.run({ monitorId: monitor.id }, { ...job, attempt: 2 });
    await t.services.jobs.drain();
    assert.equal((await history(report.id)).length, 3);
    assert.equal(alertsAbout(report.id).length, 2, 'each history item that alerts is a monitor.alert event');
    assert.equal(mailsAbout(report.id).length, 1, 'one alert mail per monitor per run');
  });

  test('email = 0: no mail, the monitor.alert event still goes out', async () => {
    const { report, monitor, change } = await monitored({ email: '0', alert_drop: '100' });
    change(withoutTitle(goodPage()));
    await runNow(monitor.id);
    assert.equal((await history(report.id)).length, 2);
    assert.equal(mailsAbout(report.id).length, 0);
    assert.equal(alertsAbout(report.id).length, 1);
  });

  test('a run compares with the history item before it, whoever made it (here a re-run through the API)', async () => {
    const { report, monitor, change } = await monitored({ alert_drop: '100' });
    change(withoutTitle(goodPage()));
    assert.equal((await t.call(key, { method: 'PUT', url: `/api/v1/reports/${report.id}?results=1` })).statusCode, 200);
    await runNow(monitor.id);
    assert.equal((await history(report.id)).length, 3);
    assert.equal(mailsAbout(report.id).length, 0, 'the title was already failing in the item before');
  });

  test('a page that is down: no history item, last_run_at set, last_result kept, and the job retries', async () => {
    clock.set(Date.parse('2026-08-01T06:00:00Z'));
    const { report, monitor, change } = await monitored();
    change((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('down');
    });
    clock.advance(60_000);
    await runNow(monitor.id);
    assert.equal((await history(report.id)).length, 1);
    const after = await monitorOf(monitor.id);
    assert.equal(after.last_run_at, '2026-08-01T06:01:00.000000Z');
    assert.equal(after.last_result, null);
    const [job] = (await t.services.jobs.list()).filter((j) => j.type === MONITOR_RUN && j.state !== 'failed');
    assert.equal(job.state, 'retry');
    assert.equal(job.attempts, 1);
    assert.match(job.lastError ?? '', /503/);
    assert.equal(mailsAbout(report.id).length, 0);

    if (!usingPostgres) {
      // pg-boss keeps its retry delays in PostgreSQL's time; the embedded queue uses the clock.
      change(goodPage());
      clock.advance(10 * 60_000);
      assert.equal(await t.services.jobs.drain([MONITOR_RUN]), 1);
      assert.equal((await history(report.id)).length, 2, 'the retry ran');
      assert.equal((await monitorOf(monitor.id)).last_result, (await history(report.id))[0].result);
    }
  });

  test('a monitor deleted after its run was queued: the job does nothing', async () => {
    const { report, monitor } = await monitored();
    assert.equal((await t.call(key, { method: 'POST', url: `/api/v1/monitors/${monitor.id}/run` })).statusCode, 202);
    assert.equal((await t.call(key, { method: 'DELETE', url: `/api/v1/monitors/${monitor.id}` })).statusCode, 200);
    await t.services.jobs.drain();
    assert.equal((await history(report.id)).length, 1);
  });
});
