// A monitor's alert end to end, with nothing recorded in between: the page served on loopback
// loses its title, the scheduled run re-analyses it, and the alert arrives at a real SMTP server
// (smtp-server) with a text and an HTML part naming the check, and at a real webhook receiver as
// a signed monitor.alert; a monitor with email = 0 mails nothing; a drained queue sends nothing twice.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { fixedClock } from '../../src/time.js';
import { type TestApp, testApp } from '../helpers/app.js';
import { findPart, parseMime } from '../helpers/mime.js';
import { goodPage, type PageSite, startSite } from '../helpers/pages.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';

const clock = fixedClock(Date.parse('2026-06-01T08:00:00Z'));

describe('monitor alerts, delivered', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let site: PageSite;
  let receiver: Receiver;
  let key: string;
  let email: string;
  let secret: string;

  before(async () => {
    smtp = await startSmtpServer();
    site = await startSite({});
    receiver = await startReceiver();
    t = await testApp(
      {
        ALLOW_PRIVATE_ADDRESSES: 'true',
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Rankscope <alerts@rank.example>',
        APP_URL: 'https://rank.example',
      },
      { clock },
    );
    ({ key, email } = await t.account());
    const hook = await t.call(key, {
      method: 'POST',
      url: '/api/v1/webhooks',
      form: { url: `${receiver.origin}/hooks`, events: 'monitor.alert' },
    });
    assert.equal(hook.statusCode, 201, hook.body);
    secret = hook.json().data.secret;
  });
  after(async () => {
    await t.close();
    await Promise.all([smtp.close(), site.close(), receiver.close()]);
  });

  async function monitored(path: string, form: Record<string, string>) {
    site.set(path, goodPage());
    const report = await t.call(key, { method: 'POST', url: '/api/v1/reports', form: { url: `${site.origin}${path}` } });
    assert.equal(report.statusCode, 201, report.body);
    const reportId = report.json().data.id as number;
    const monitor = await t.call(key, {
      method: 'POST',
      url: '/api/v1/monitors',
      form: { report_id: String(reportId), frequency: 'daily', ...form },
    });
    assert.equal(monitor.statusCode, 201, monitor.body);
    return { reportId, monitorId: monitor.json().data.id as number };
  }

  test('a high-importance check that fails at the scheduled run: one mail with both parts, one signed webhook', async () => {
    const { reportId, monitorId } = await monitored('/alert.html', { alert_drop: '50' });
    const before = (await t.call(key, { method: 'GET', url: `/api/v1/reports/${reportId}` })).json().data.result as number;
    site.set('/alert.html', goodPage().replace(/<title>.*<\/title>/, ''));

    clock.advance(24 * 3_600_000); // the monitor is due a day after its creation
    await t.services.scheduler.tick();
    await t.services.jobs.drain();
    await t.services.jobs.drain(); // the alert's own jobs (mail, webhook) queued by the run

    const alerts = smtp.received.filter((mail) => mail.to.includes(email));
    assert.equal(alerts.length, 1, 'one alert mail');
    const root = parseMime(alerts[0].raw);
    const subject = root.headers.get('subject') ?? '';
    const text = findPart(root, 'text/plain')?.body ?? '';
    const html = findPart(root, 'text/html')?.body ?? '';
    assert.ok(text && html, 'a plain-text part and an HTML part');
    assert.match(subject, /alert\.html|127\.0\.0\.1/);
    const after = (await t.call(key, { method: 'GET', url: `/api/v1/reports/${reportId}` })).json().data.result as number;
    for (const part of [text, html]) {
      assert.match(part, /\btitle\b/, 'names the changed check by its id');
      assert.ok(part.includes(String(before)) && part.includes(String(after)), `shows the score ${before} → ${after}`);
      assert.ok(part.includes(`https://rank.example/reports/${reportId}`), 'links to the report');
    }
    assert.doesNotMatch(html, /<script|<img[^>]+src="https?:/i, 'no script, no remote image');

    const hooks = receiver.at('/hooks');
    assert.equal(hooks.length, 1, 'one monitor.alert delivery');
    const signature = createHmac('sha256', secret).update(hooks[0].raw).digest('hex');
    assert.equal(hooks[0].headers['x-rankscope-signature'], `sha256=${signature}`);
    const body = JSON.parse(hooks[0].raw.toString('utf8'));
    assert.equal(body.event, 'monitor.alert');
    assert.equal(body.data.monitor.id, monitorId);
    assert.equal(body.data.report.id, reportId);
    assert.deepEqual(
      body.data.changes.filter((c: { id: string }) => c.id === 'title'),
      [
        {
          id: 'title',
          title: body.data.changes.find((c: { id: string }) => c.id === 'title').title,
          passed_before: true,
          passed: false,
        },
      ],
    );

    // Nothing is sent twice: the queue is empty and a further drain sends nothing.
    await t.services.jobs.drain();
    assert.equal(smtp.received.filter((mail) => mail.to.includes(email)).length, 1);
    assert.equal(receiver.at('/hooks').length, 1);
  });

  test('email = 0: the same change mails nothing (the webhook still hears it)', async () => {
    const { reportId } = await monitored('/quiet.html', { email: '0' });
    const mailsBefore = smtp.received.length;
    const hooksBefore = receiver.at('/hooks').length;
    site.set('/quiet.html', goodPage().replace(/<title>.*<\/title>/, ''));
    const run = await t.call(key, { method: 'GET', url: '/api/v1/monitors' });
    const monitor = run.json().data.find((m: { report_id: number }) => m.report_id === reportId);
    assert.equal((await t.call(key, { method: 'POST', url: `/api/v1/monitors/${monitor.id}/run` })).statusCode, 202);
    await t.services.jobs.drain();
    await t.services.jobs.drain();
    assert.equal(smtp.received.length, mailsBefore, 'no mail');
    assert.equal(receiver.at('/hooks').length, hooksBefore + 1, 'monitor.alert is published whatever email says');
  });
});
