// Webhooks: the CRUD API, the events that report changes publish, and their delivery to a
// receiver on loopback started here (signature, retries with backoff stepped by a fixed clock,
// giving up, inactive webhooks, the address guard on save and at delivery, pruning).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Resolver } from '../../src/analysis/fetch/address-guard.js';
import { systemResolver } from '../../src/analysis/fetch/address-guard.js';
import { EVENT_NAMES } from '../../src/model/events.js';
import { silentLog } from '../../src/jobs/log.js';
import { DELIVERY_POLICY } from '../../src/jobs/queue.js';
import { fixedClock, formatTimestamp } from '../../src/time.js';
import { WebhookService } from '../../src/webhooks/webhook-service.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { usingPostgres } from '../helpers/database.js';
import { goodPage, startSite, type PageSite } from '../helpers/pages.js';
import { startReceiver, type Received, type Receiver } from '../helpers/receiver.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SECRET = /^whsec_[A-Za-z0-9_-]{43}$/;

type Clock = ReturnType<typeof fixedClock>;

/** The receiver's check: HMAC-SHA256 of the raw body with the secret, as the README shows. */
function signed(secret: string, request: Received): boolean {
  const expected = `sha256=${createHmac('sha256', secret).update(request.raw).digest('hex')}`;
  return request.headers['x-rankscope-signature'] === expected;
}

const bodyOf = (request: Received) => JSON.parse(request.raw.toString('utf8'));

/**
 * Lets `ms` pass for the job queue: the fixed clock on SQLite; pg-boss keeps its time in
 * PostgreSQL, so there the jobs waiting to retry are made due instead.
 */
async function elapse(t: TestApp, clock: Clock, ms: number): Promise<void> {
  clock.advance(ms);
  if (usingPostgres) {
    await sql.raw(`update ${t.db.schema}_jobs.job set start_after = now() where state = 'retry'`).execute(t.db.handle.db);
  }
}

/** Names resolve on this machine only: `localhost` to loopback, anything else fails as DNS would. */
const localResolver: Resolver = async (hostname) => {
  if (hostname === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`${hostname} not found`), { code: 'ENOTFOUND' });
};

/** Longer than any backoff before retry number `retry` (DELIVERY_POLICY with full jitter). */
const pastBackoff = (retry: number) => DELIVERY_POLICY.retryDelaySeconds * 2 ** retry * 1000 + 1000;

describe('webhooks API and delivery', () => {
  const clock = fixedClock(Date.parse('2026-03-02T09:00:00Z'));
  let t: TestApp;
  let site: PageSite;
  let receiver: Receiver;
  let paths = 0;

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true' }, { clock, analysisHooks: { resolver: localResolver } });
    site = await startSite({ '/good.html': goodPage(), '/other.html': goodPage('Red widgets') });
    receiver = await startReceiver();
  });
  after(async () => {
    await t.close();
    await site.close();
    await receiver.close();
  });

  /** A fresh account with a webhook on a receiver path of its own. */
  async function subscriber(form: Record<string, string> = {}) {
    const account = await t.account();
    const path = `/hook${++paths}`;
    const res = await t.call(account.key, {
      method: 'POST',
      url: '/api/v1/webhooks',
      form: { url: `${receiver.origin}${path}`, events: 'report.created,report.updated,report.deleted', ...form },
    });
    assert.equal(res.statusCode, 201, res.body);
    const hook = res.json().data as { id: number; secret: string };
    return { ...account, path, hook };
  }

  const deliveriesOf = async (key: string, id: number, query = '') =>
    (await t.call(key, { method: 'GET', url: `/api/v1/webhooks/${id}/deliveries${query}` })).json();

  describe('CRUD', () => {
    let key: string;
    before(async () => {
      ({ key } = await t.account());
    });
    const create = (form: Record<string, string>) => t.call(key, { method: 'POST', url: '/api/v1/webhooks', form });

    test('create: 201 with every field, the events as an array in a fixed order, and the secret this once', async () => {
      const res = await create({ url: `${receiver.origin}/created`, events: ' report.deleted , report.created,report.deleted' });
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json();
      assert.deepEqual(Object.keys(body), ['data', 'status']);
      assert.equal(body.status, 201);
      const w = body.data;
      assert.deepEqual(Object.keys(w), ['id', 'url', 'events', 'active', 'created_at', 'updated_at', 'secret']);
      assert.equal(w.url, `${receiver.origin}/created`);
      assert.deepEqual(w.events, ['report.created', 'report.deleted']);
      assert.equal(w.active, 1);
      assert.match(w.created_at, TIMESTAMP);
      assert.equal(w.updated_at, w.created_at);
      assert.match(w.secret, SECRET);

      // Never again: show, list, update.
      const shown = await t.call(key, { method: 'GET', url: `/api/v1/webhooks/${w.id}` });
      assert.deepEqual(Object.keys(shown.json().data), ['id', 'url', 'events', 'active', 'created_at', 'updated_at']);
      const listed = await t.call(key, { method: 'GET', url: '/api/v1/webhooks' });
      const updated = await t.call(key, { method: 'PATCH', url: `/api/v1/webhooks/${w.id}`, form: { active: '1' } });
      for (const r of [shown, listed, updated]) assert.ok(!r.body.includes(w.secret), r.body);
      assert.ok(!t.logs.join('').includes(w.secret), 'the secret is never logged');
      // Each webhook has its own.
      const other = await create({ url: `${receiver.origin}/created`, events: 'report.created' });
      assert.notEqual(other.json().data.secret, w.secret);
    });

    test('events as an array: form events[]= and JSON; active 0; the fragment dropped', async () => {
      const form = await t.call(key, {
        method: 'POST',
        url: '/api/v1/webhooks',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `url=${encodeURIComponent(`${receiver.origin}/x?a=1#frag`)}&events[]=crawl.finished&events[]=monitor.alert&active=0`,
      });
      assert.equal(form.statusCode, 201, form.body);
      assert.deepEqual(form.json().data.events, ['monitor.alert', 'crawl.finished']);
      assert.equal(form.json().data.active, 0);
      assert.equal(form.json().data.url, `${receiver.origin}/x?a=1`, 'the fragment is never sent, so not kept');
      const json = await t.call(key, {
        method: 'POST',
        url: '/api/v1/webhooks',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ url: `${receiver.origin}/j`, events: [...EVENT_NAMES].reverse(), active: 1 }),
      });
      assert.equal(json.statusCode, 201, json.body);
      assert.deepEqual(json.json().data.events, [...EVENT_NAMES]);
    });

    test('list: the paginator, newest first, only the account’s own', async () => {
      const account = await t.account();
      const ids: number[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await t.call(account.key, {
          method: 'POST',
          url: '/api/v1/webhooks',
          form: { url: `${receiver.origin}/list${i}`, events: 'report.created' },
        });
        ids.push(res.json().data.id);
      }
      const page1 = (await t.call(account.key, { method: 'GET', url: '/api/v1/webhooks?per_page=10' })).json();
      assert.deepEqual(
        page1.data.map((w: { id: number }) => w.id),
        [...ids].reverse().slice(0, 10),
      );
      assert.deepEqual([page1.meta.total, page1.meta.per_page, page1.meta.last_page, page1.current_page], [12, 10, 2, 1]);
      assert.match(page1.links.next, /\/api\/v1\/webhooks\?per_page=10&page=2$/);
      const page2 = (await t.call(account.key, { method: 'GET', url: '/api/v1/webhooks?per_page=10&page=2' })).json();
      assert.deepEqual(
        page2.data.map((w: { id: number }) => w.id),
        [ids[1], ids[0]],
      );
      const all = (await t.call(account.key, { method: 'GET', url: '/api/v1/webhooks' })).json();
      assert.equal(all.meta.per_page, 100);
      assert.equal(all.data.length, 12);
      const bad = await t.call(account.key, { method: 'GET', url: '/api/v1/webhooks?per_page=7' });
      assert.equal(bad.statusCode, 422);
      assert.deepEqual(bad.json().errors, { per_page: ['The selected per page is invalid.'] });
    });

    test('update: PUT or PATCH, form or query string; what is not sent is kept; updated_at moves', async () => {
      const w = (await create({ url: `${receiver.origin}/u1`, events: 'report.created' })).json().data;
      clock.advance(1000);
      let res = await t.call(key, {
        method: 'PUT',
        url: `/api/v1/webhooks/${w.id}?active=0&events=report.updated,report.deleted`,
      });
      assert.equal(res.statusCode, 200, res.body);
      const { secret: _secret, ...shown } = w;
      assert.deepEqual(res.json(), {
        data: { ...shown, events: ['report.updated', 'report.deleted'], active: 0, updated_at: res.json().data.updated_at },
        status: 200,
      });
      assert.notEqual(res.json().data.updated_at, w.updated_at);
      res = await t.call(key, {
        method: 'PATCH',
        url: `/api/v1/webhooks/${w.id}`,
        form: { url: `${receiver.origin}/u2`, events: '', active: '' },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().data.url, `${receiver.origin}/u2`);
      assert.deepEqual(res.json().data.events, ['report.updated', 'report.deleted'], 'sent empty: kept');
      assert.equal(res.json().data.active, 0);
    });

    test('delete: {data: {id}}, then 404; its deliveries go with it', async () => {
      const w = (await create({ url: `${receiver.origin}/d`, events: 'report.created' })).json().data;
      const res = await t.call(key, { method: 'DELETE', url: `/api/v1/webhooks/${w.id}` });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { data: { id: w.id }, status: 200 });
      for (const [method, url] of [
        ['GET', `/api/v1/webhooks/${w.id}`],
        ['DELETE', `/api/v1/webhooks/${w.id}`],
        ['GET', `/api/v1/webhooks/${w.id}/deliveries`],
      ] as const) {
        const again = await t.call(key, { method, url });
        assert.equal(again.statusCode, 404);
        assert.deepEqual(again.json(), { message: 'Webhook not found.', status: 404 });
      }
    });

    describe('validation failures answer 422 in the API error shape and store nothing', () => {
      const url = () => `${receiver.origin}/v`;
      const cases: [string, () => Record<string, string>, Record<string, string[]>][] = [
        ['nothing', () => ({}), { url: ['The url field is required.'], events: ['The events field is required.'] }],
        ['no events', () => ({ url: url() }), { events: ['The events field is required.'] }],
        ['only commas', () => ({ url: url(), events: ' , ,' }), { events: ['The events field is required.'] }],
        [
          'an unknown event, named',
          () => ({ url: url(), events: 'report.created,report.exploded' }),
          { events: ['The events field contains an invalid event: report.exploded.'] },
        ],
        ['a bare host', () => ({ url: 'example.com/hook', events: 'report.created' }), { url: ['The url must be a valid URL.'] }],
        [
          'another scheme',
          () => ({ url: 'ftp://example.com/hook', events: 'report.created' }),
          { url: ['The url must start with http:// or https://.'] },
        ],
        [
          'credentials in the url',
          () => ({ url: 'http://user:pw@127.0.0.1/hook', events: 'report.created' }),
          { url: ['The url must not contain a user name or password.'] },
        ],
        [
          'a url over 2,048 characters',
          () => ({ url: `${url()}?${'a'.repeat(2048)}`, events: 'report.created' }),
          { url: ['The url must not be greater than 2048 characters.'] },
        ],
        [
          'active out of range',
          () => ({ url: url(), events: 'report.created', active: '2' }),
          { active: ['The selected active is invalid.'] },
        ],
        [
          'a host that does not resolve',
          () => ({ url: 'http://no-such-host.invalid/hook', events: 'report.created' }),
          { url: ['The url host could not be resolved (DNS).'] },
        ],
      ];
      for (const [name, form, errors] of cases) {
        test(name, async () => {
          const account = await t.account();
          const res = await t.call(account.key, { method: 'POST', url: '/api/v1/webhooks', form: form() });
          assert.equal(res.statusCode, 422, res.body);
          assert.deepEqual(Object.keys(res.json()), ['message', 'errors', 'status']);
          assert.deepEqual(res.json().errors, errors);
          const list = await t.call(account.key, { method: 'GET', url: '/api/v1/webhooks' });
          assert.equal(list.json().meta.total, 0);
        });
      }

      test('JSON: an empty array, an object, a non-string entry', async () => {
        const send = (events: unknown) =>
          t.call(key, {
            method: 'POST',
            url: '/api/v1/webhooks',
            headers: { 'content-type': 'application/json' },
            payload: JSON.stringify({ url: url(), events }),
          });
        assert.deepEqual((await send([])).json().errors, { events: ['The events field is required.'] });
        assert.deepEqual((await send({ a: 'report.created' })).json().errors, {
          events: ['The events must be a string or an array.'],
        });
        assert.deepEqual((await send(['report.created', 7])).json().errors, {
          events: ['The events field contains an invalid event: 7.'],
        });
        assert.deepEqual((await send(true)).json().errors, { events: ['The events must be a string or an array.'] });
      });

      test('update: an unknown event or a bad url changes nothing', async () => {
        const w = (await create({ url: url(), events: 'report.created' })).json().data;
        const forms: Record<string, string>[] = [
          { events: 'report.created,nope' },
          { url: 'not a url' },
          { url: 'http://nowhere.invalid/' },
        ];
        for (const form of forms) {
          const res = await t.call(key, { method: 'PATCH', url: `/api/v1/webhooks/${w.id}`, form });
          assert.equal(res.statusCode, 422, res.body);
        }
        const shown = await t.call(key, { method: 'GET', url: `/api/v1/webhooks/${w.id}` });
        const { secret: _secret, ...unchanged } = w;
        assert.deepEqual(shown.json().data, unchanged);
      });
    });

    test("another account's webhook answers 404 exactly like an unknown id", async () => {
      const owner = await subscriber();
      const stranger = await t.account();
      for (const id of [String(owner.hook.id), '999999', 'abc', '0', '1.5']) {
        for (const [method, path] of [
          ['GET', `/api/v1/webhooks/${id}`],
          ['PUT', `/api/v1/webhooks/${id}?active=0`],
          ['PATCH', `/api/v1/webhooks/${id}?events=nope`],
          ['DELETE', `/api/v1/webhooks/${id}`],
          ['GET', `/api/v1/webhooks/${id}/deliveries`],
        ] as const) {
          const res = await t.call(stranger.key, { method, url: path });
          assert.equal(res.statusCode, 404, `${method} ${path}`);
          assert.deepEqual(res.json(), { message: 'Webhook not found.', status: 404 });
        }
      }
      const list = await t.call(stranger.key, { method: 'GET', url: '/api/v1/webhooks' });
      assert.equal(list.json().meta.total, 0);
      const still = await t.call(owner.key, { method: 'GET', url: `/api/v1/webhooks/${owner.hook.id}` });
      assert.equal(still.json().data.active, 1);
    });
  });

  describe('events', () => {
    test('report.created, report.updated (privacy, password, re-run), report.deleted: each once, signed, with the API’s Report', async () => {
      const { key, path, hook } = await subscriber();
      const created = await t.call(key, { method: 'POST', url: '/api/v1/reports', form: { url: `${site.origin}/good.html` } });
      assert.equal(created.statusCode, 201);
      const report = created.json().data;
      const patched = await t.call(key, { method: 'PATCH', url: `/api/v1/reports/${report.id}?privacy=0` });
      const locked = await t.call(key, {
        method: 'PUT',
        url: `/api/v1/reports/${report.id}`,
        form: { privacy: '2', password: 'pw' },
      });
      const rerun = await t.call(key, { method: 'PUT', url: `/api/v1/reports/${report.id}?results=1` });
      assert.equal(rerun.statusCode, 200);
      const removed = await t.call(key, { method: 'DELETE', url: `/api/v1/reports/${report.id}` });
      assert.equal(removed.statusCode, 200);
      assert.equal(receiver.at(path).length, 0, 'delivery is a job: nothing is sent before it runs');

      assert.equal(await t.services.jobs.drain(), 5);
      assert.equal(await t.services.jobs.drain(), 0);
      const got = receiver.at(path);
      assert.deepEqual(
        got.map((r) => r.headers['x-rankscope-event']),
        ['report.created', 'report.updated', 'report.updated', 'report.updated', 'report.deleted'],
      );
      const bodies = got.map(bodyOf);
      assert.deepEqual(
        bodies.map((b) => b.event),
        got.map((r) => r.headers['x-rankscope-event']),
      );
      assert.deepEqual(bodies[0].data, report, 'report.created carries the Report the API answered');
      assert.deepEqual(bodies[1].data, patched.json().data);
      assert.deepEqual(bodies[2].data, locked.json().data);
      assert.equal(bodies[2].data.password, true);
      assert.ok(!got[2].raw.toString().includes('"pw"'), 'never the password');
      assert.deepEqual(bodies[3].data, rerun.json().data);
      assert.deepEqual(bodies[4].data, { id: report.id });
      for (const [i, r] of got.entries()) {
        assert.deepEqual(Object.keys(bodies[i]), ['event', 'created_at', 'data']);
        assert.match(bodies[i].created_at, TIMESTAMP);
        assert.equal(r.method, 'POST');
        assert.equal(r.headers['content-type'], 'application/json');
        assert.equal(r.headers['user-agent'], `Rankscope-Webhooks/${t.config.version}`);
        assert.match(String(r.headers['x-rankscope-delivery']), UUID);
        assert.ok(signed(hook.secret, r), 'the signature verifies with the secret');
        assert.ok(!signed('whsec_wrong', r), 'and with nothing else');
      }
      assert.equal(new Set(got.map((r) => r.headers['x-rankscope-delivery'])).size, 5, 'one delivery id each');

      const deliveries = await deliveriesOf(key, hook.id);
      assert.equal(deliveries.meta.total, 5);
      assert.deepEqual(
        deliveries.data.map((d: { event: string }) => d.event),
        ['report.deleted', 'report.updated', 'report.updated', 'report.updated', 'report.created'],
        'newest first',
      );
      for (const d of deliveries.data) {
        assert.deepEqual(Object.keys(d), ['id', 'event', 'attempts', 'status_code', 'error', 'delivered_at', 'created_at']);
        assert.deepEqual([d.attempts, d.status_code, d.error], [1, 200, null]);
        assert.match(d.delivered_at, TIMESTAMP);
        assert.match(d.created_at, TIMESTAMP);
      }
    });

    test('DELETE /projects/{project}: report.deleted for each of its reports, once', async () => {
      const { key, path } = await subscriber({ events: 'report.deleted' });
      const ids: number[] = [];
      for (const page of ['/good.html', '/other.html']) {
        const res = await t.call(key, { method: 'POST', url: '/api/v1/reports', form: { url: `${site.origin}${page}` } });
        ids.push(res.json().data.id);
      }
      const res = await t.call(key, { method: 'DELETE', url: '/api/v1/projects/127.0.0.1' });
      assert.deepEqual(res.json().data, { project: '127.0.0.1', deleted: 2 });
      await t.services.jobs.drain();
      await t.services.jobs.drain();
      const got = receiver.at(path).map(bodyOf);
      assert.deepEqual(
        got.map((b) => [b.event, b.data]),
        ids.map((id) => ['report.deleted', { id }]),
        'only the subscribed event, once per report',
      );
    });

    test("only the account's own webhooks hear its events", async () => {
      const mine = await subscriber();
      const theirs = await subscriber();
      await t.call(mine.key, { method: 'POST', url: '/api/v1/reports', form: { url: `${site.origin}/good.html` } });
      await t.services.jobs.drain();
      assert.equal(receiver.at(mine.path).length, 1);
      assert.equal(receiver.at(theirs.path).length, 0);
    });

    test('an inactive webhook gets nothing; one deactivated before its delivery runs is dropped unsent', async () => {
      const idle = await subscriber({ active: '0' });
      await t.call(idle.key, { method: 'POST', url: '/api/v1/reports', form: { url: `${site.origin}/good.html` } });
      await t.services.jobs.drain();
      assert.equal(receiver.at(idle.path).length, 0);
      assert.equal((await deliveriesOf(idle.key, idle.hook.id)).meta.total, 0);

      const later = await subscriber();
      await t.services.events.publish(later.id, 'report.deleted', { id: 1 });
      await t.call(later.key, { method: 'PATCH', url: `/api/v1/webhooks/${later.hook.id}`, form: { active: '0' } });
      await t.services.jobs.drain();
      assert.equal(receiver.at(later.path).length, 0);
      const [dropped] = (await deliveriesOf(later.key, later.hook.id)).data;
      assert.deepEqual(
        [dropped.attempts, dropped.status_code, dropped.error, dropped.delivered_at],
        [0, null, 'Not sent: the webhook is inactive.', null],
      );
    });

    test('a delivery whose webhook was deleted is dropped', async () => {
      const gone = await subscriber();
      await t.services.events.publish(gone.id, 'report.deleted', { id: 1 });
      await t.call(gone.key, { method: 'DELETE', url: `/api/v1/webhooks/${gone.hook.id}` });
      await t.services.jobs.drain();
      assert.equal(receiver.at(gone.path).length, 0);
    });
  });

  test('a delivery stored without its job (the process stopped in between) is queued by the sweep, once', async () => {
    const orphan = await subscriber();
    const body = JSON.stringify({ event: 'report.deleted', created_at: '2026-03-02T09:00:00.000000Z', data: { id: 7 } });
    await t.services.repos.webhookDeliveries.create(
      { webhook_id: orphan.hook.id, event: 'report.deleted', payload: body, uuid: randomUUID() },
      formatTimestamp(new Date(Math.floor(clock.now()))),
    );
    await t.services.scheduler.tick();
    await t.services.jobs.drain();
    assert.equal(receiver.at(orphan.path).length, 0, 'not while its own process may still queue it');
    clock.advance(11 * 60_000);
    await t.services.scheduler.tick();
    await t.services.jobs.drain();
    assert.equal(receiver.at(orphan.path).length, 1);
    assert.equal(receiver.at(orphan.path)[0].raw.toString('utf8'), body);
    assert.ok(signed(orphan.hook.secret, receiver.at(orphan.path)[0]));
    clock.advance(2 * 60_000);
    await t.services.scheduler.tick();
    await t.services.jobs.drain();
    assert.equal(receiver.at(orphan.path).length, 1, 'delivered once');
  });

  describe('retries', () => {
    test('a receiver answering 500 gets the same bytes again after the backoff, until it answers 2xx', async () => {
      const { id, key, path, hook } = await subscriber();
      receiver.answer(path, (count) => (count < 3 ? 500 : 204));
      await t.services.events.publish(id, 'report.deleted', { id: 42 });
      await t.services.jobs.drain();
      assert.equal(receiver.at(path).length, 1);
      let [d] = (await deliveriesOf(key, hook.id)).data;
      assert.deepEqual([d.attempts, d.status_code, d.error, d.delivered_at], [1, 500, 'The receiver answered HTTP 500.', null]);

      await t.services.jobs.drain();
      assert.equal(receiver.at(path).length, 1, 'not again before the backoff');
      await elapse(t, clock, pastBackoff(1));
      await t.services.jobs.drain();
      assert.equal(receiver.at(path).length, 2);
      [d] = (await deliveriesOf(key, hook.id)).data;
      assert.deepEqual([d.attempts, d.status_code], [2, 500]);

      await elapse(t, clock, pastBackoff(2));
      await t.services.jobs.drain();
      const got = receiver.at(path);
      assert.equal(got.length, 3);
      [d] = (await deliveriesOf(key, hook.id)).data;
      assert.deepEqual([d.attempts, d.status_code, d.error], [3, 204, null]);
      assert.match(d.delivered_at, TIMESTAMP);
      assert.equal(new Set(got.map((r) => r.raw.toString('base64'))).size, 1, 'the same body each time');
      assert.equal(new Set(got.map((r) => r.headers['x-rankscope-delivery'])).size, 1, 'the same delivery id');
      assert.ok(got.every((r) => signed(hook.secret, r)));

      await elapse(t, clock, pastBackoff(3));
      await t.services.jobs.drain();
      assert.equal(receiver.at(path).length, 3, 'a delivered event is not sent again');
    });

    test('after about a day of failures the job ends failed and the delivery says so', async () => {
      const { id, key, path, hook } = await subscriber();
      receiver.answer(path, 503);
      await t.services.events.publish(id, 'report.deleted', { id: 7 });
      const start = clock.now();
      await t.services.jobs.drain();
      for (let retry = 1; retry <= DELIVERY_POLICY.retryLimit; retry++) {
        // Not due before the shortest backoff (half the step: jitter adds up to as much again).
        if (!usingPostgres) {
          clock.advance((DELIVERY_POLICY.retryDelaySeconds * 2 ** retry * 1000) / 2 - 1000);
          await t.services.jobs.drain();
          assert.equal(receiver.at(path).length, retry, `retry ${retry} waits for its backoff`);
        }
        await elapse(t, clock, pastBackoff(retry));
        await t.services.jobs.drain();
        assert.equal(receiver.at(path).length, retry + 1);
      }
      if (!usingPostgres) assert.ok(clock.now() - start > 20 * 3_600_000, 'the retries span about a day');
      const attempts = DELIVERY_POLICY.retryLimit + 1;
      await elapse(t, clock, 7 * 86_400_000);
      await t.services.jobs.drain();
      assert.equal(receiver.at(path).length, attempts, 'no attempt after the last');
      const [d] = (await deliveriesOf(key, hook.id)).data;
      assert.deepEqual(
        [d.attempts, d.status_code, d.error, d.delivered_at],
        [attempts, 503, `The receiver answered HTTP 503. Gave up after ${attempts} attempts.`, null],
      );
      const failed = (await t.services.jobs.list()).filter((job) => job.type === 'webhook.deliver' && job.state === 'failed');
      assert.equal(failed.length, 1);
      assert.equal(failed[0].lastError, 'The receiver answered HTTP 503.');
    });

    test('a redirect is not followed: it is a failed attempt', async () => {
      const { id, key, path, hook } = await subscriber();
      receiver.answer(path, 302, { location: `${receiver.origin}${path}-moved` });
      await t.services.events.publish(id, 'report.deleted', { id: 3 });
      await t.services.jobs.drain();
      assert.equal(receiver.at(`${path}-moved`).length, 0);
      const [d] = (await deliveriesOf(key, hook.id)).data;
      assert.deepEqual([d.attempts, d.status_code, d.error], [1, 302, 'The receiver answered HTTP 302.']);
    });

    test('a receiver that does not answer in time: the attempt fails with the timeout', async () => {
      const { key, path, hook } = await subscriber();
      receiver.hang(path);
      // The service as services.ts builds it, with a short deadline (10 s in production).
      const quick = new WebhookService({
        webhooks: t.services.repos.webhooks,
        deliveries: t.services.repos.webhookDeliveries,
        jobs: t.services.jobs,
        clock,
        log: silentLog,
        guard: { policy: { allowPrivateAddresses: true }, resolver: systemResolver },
        version: t.config.version,
        timeoutMs: 300,
      });
      const delivery = await t.services.repos.webhookDeliveries.create(
        { webhook_id: hook.id, event: 'report.deleted', payload: '{}', uuid: randomUUID() },
        '2026-03-02T09:00:00.000000Z',
      );
      await assert.rejects(quick.deliver(delivery.id, 1), /did not answer within 0.3 seconds/);
      assert.equal(receiver.at(path).length, 1);
      const [d] = (await deliveriesOf(key, hook.id)).data;
      assert.deepEqual([d.attempts, d.status_code, d.error], [1, null, 'The receiver did not answer within 0.3 seconds.']);
    });
  });
});

describe('webhooks and the address guard (ALLOW_PRIVATE_ADDRESSES off)', () => {
  // 127.0.0.2 plays a public host (the analyser's test-only hook); 127.0.0.3 a private one.
  const clock = fixedClock(Date.parse('2026-03-02T09:00:00Z'));
  let t: TestApp;
  let receiver: Receiver;
  let trap: Receiver;
  let hooksAddress = '127.0.0.2';
  const resolver: Resolver = async (hostname) => {
    if (hostname === 'hooks.test') return [{ address: hooksAddress, family: 4 }];
    throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  };

  before(async () => {
    receiver = await startReceiver('127.0.0.2');
    trap = await startReceiver('127.0.0.3', receiver.port);
    t = await testApp({}, { clock, analysisHooks: { resolver, guard: { treatAsPublic: (a) => a === '127.0.0.2' } } });
  });
  after(async () => {
    await t.close();
    await receiver.close();
    await trap.close();
  });

  test('a private or loopback target is refused on create and update, saying why', async () => {
    const { key } = await t.account();
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://localhost/hook',
      'http://10.1.2.3/',
      'http://[::1]/',
      'http://169.254.169.254/',
    ]) {
      const res = await t.call(key, { method: 'POST', url: '/api/v1/webhooks', form: { url, events: 'report.created' } });
      assert.equal(res.statusCode, 422, url);
      assert.deepEqual(res.json().errors, { url: ['The url points to a private or reserved network address.'] }, url);
    }
    const ok = await t.call(key, {
      method: 'POST',
      url: '/api/v1/webhooks',
      form: { url: `http://hooks.test:${receiver.port}/ok`, events: 'report.created' },
    });
    assert.equal(ok.statusCode, 201, ok.body);
    const update = await t.call(key, {
      method: 'PATCH',
      url: `/api/v1/webhooks/${ok.json().data.id}`,
      form: { url: 'http://127.0.0.1/' },
    });
    assert.equal(update.statusCode, 422);
    assert.deepEqual(update.json().errors, { url: ['The url points to a private or reserved network address.'] });
    assert.equal((await t.call(key, { method: 'GET', url: '/api/v1/webhooks' })).json().meta.total, 1);
  });

  test('a target that resolves to a private address at delivery time is refused then, and retried', async () => {
    const { id, key } = await t.account();
    const res = await t.call(key, {
      method: 'POST',
      url: '/api/v1/webhooks',
      form: { url: `http://hooks.test:${receiver.port}/rebind`, events: 'report.deleted' },
    });
    assert.equal(res.statusCode, 201);
    const hook = res.json().data;
    await t.services.events.publish(id, 'report.deleted', { id: 1 });
    await t.services.jobs.drain();
    assert.equal(receiver.at('/rebind').length, 1, 'the control: delivered while it resolves to a public address');

    hooksAddress = '127.0.0.3';
    try {
      await t.services.events.publish(id, 'report.deleted', { id: 2 });
      await t.services.jobs.drain();
      assert.equal(receiver.at('/rebind').length, 1);
      assert.equal(trap.received.length, 0, 'nothing reached the private address');
      const [d] = (await t.call(key, { method: 'GET', url: `/api/v1/webhooks/${hook.id}/deliveries` })).json().data;
      assert.deepEqual(
        [d.attempts, d.status_code, d.error],
        [1, null, 'The url points to a private or reserved network address.'],
      );
    } finally {
      hooksAddress = '127.0.0.2';
    }
    await elapse(t, clock, pastBackoff(1));
    await t.services.jobs.drain();
    assert.equal(receiver.at('/rebind').length, 2, 'the retry goes through once the address is public again');
    assert.deepEqual(bodyOf(receiver.at('/rebind')[1]).data, { id: 2 });
  });
});

describe('webhook deliveries are kept 30 days', () => {
  const clock = fixedClock(Date.parse('2026-03-02T09:00:00Z'));
  let t: TestApp;
  let receiver: Receiver;
  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true' }, { clock, analysisHooks: { resolver: localResolver } });
    receiver = await startReceiver();
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  test('the scheduled pruning deletes deliveries older than 30 days and keeps the rest', async () => {
    const { id, key } = await t.account();
    const hook = (
      await t.call(key, {
        method: 'POST',
        url: '/api/v1/webhooks',
        form: { url: `${receiver.origin}/p`, events: 'report.deleted' },
      })
    ).json().data;
    await t.services.events.publish(id, 'report.deleted', { id: 1 });
    clock.advance(20 * 86_400_000);
    await t.services.events.publish(id, 'report.deleted', { id: 2 });
    await t.services.jobs.drain();
    const list = async () => (await t.call(key, { method: 'GET', url: `/api/v1/webhooks/${hook.id}/deliveries` })).json();
    assert.equal((await list()).meta.total, 2);

    await t.services.scheduler.tick();
    await t.services.jobs.drain();
    assert.equal((await list()).meta.total, 2, '20 days: both kept');

    clock.advance(11 * 86_400_000); // the first is 31 days old, the second 11
    await t.services.scheduler.tick();
    await t.services.jobs.drain();
    const kept = await list();
    assert.equal(kept.meta.total, 1);
    assert.equal(kept.data[0].id > 0, true);
    assert.deepEqual(bodyOf(receiver.at('/p')[1]).data, { id: 2 });
    assert.equal(kept.data[0].created_at, bodyOf(receiver.at('/p')[1]).created_at);
  });
});
