// /api/v1/monitors: create, show, list, update, delete and run, with every 422 and 404, and
// next_run_at from the creation time. Runs themselves: test/monitors/runs.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fixedClock } from '../../src/time.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { goodPage, startSite, type PageSite } from '../helpers/pages.js';
import { RecordingMailer } from '../helpers/recorders.js';
import { seedReport } from '../helpers/seed.js';

const clock = fixedClock(Date.parse('2026-01-31T10:00:00Z'));
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const FIELDS = [
  'id',
  'report_id',
  'frequency',
  'alert_drop',
  'email',
  'render',
  'last_run_at',
  'next_run_at',
  'last_result',
  'created_at',
  'updated_at',
];
const NOT_FOUND = { message: 'Monitor not found.', status: 404 };

describe('monitors API', () => {
  let t: TestApp;
  let site: PageSite;
  let key: string;
  let userId: number;
  let otherKey: string;
  let otherId: number;
  const mailer = new RecordingMailer();
  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true' }, { clock, mail: mailer });
    ({ key, id: userId } = await t.account());
    ({ key: otherKey, id: otherId } = await t.account());
    site = await startSite({ '/page.html': goodPage() });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const create = (form: Record<string, string>, k = key) => t.call(k, { method: 'POST', url: '/api/v1/monitors', form });
  const show = (id: number, k = key) => t.call(k, { method: 'GET', url: `/api/v1/monitors/${id}` });
  const historyCount = async (reportId: number) =>
    Number(
      (
        await t.db.handle.db
          .selectFrom('report_history')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('report_id', '=', reportId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  test('create: 201 with the fields in order, defaults alert_drop 5, email 1 and render 0; the first run one period later; nothing runs', async () => {
    clock.set(Date.parse('2026-01-31T10:00:00Z'));
    const report = await seedReport(t.db.handle, userId);
    const expected = {
      daily: '2026-02-01T10:00:00.000000Z',
      weekly: '2026-02-07T10:00:00.000000Z',
      monthly: '2026-02-28T10:00:00.000000Z',
    };
    for (const [frequency, next] of Object.entries(expected)) {
      const res = await create({ report_id: String(report.id), frequency });
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json();
      assert.deepEqual(Object.keys(body), ['data', 'status']);
      assert.equal(body.status, 201);
      const m = body.data;
      assert.deepEqual(Object.keys(m), FIELDS);
      assert.deepEqual(
        { ...m, id: 0 },
        {
          id: 0,
          report_id: report.id,
          frequency,
          alert_drop: 5,
          email: 1,
          render: 0,
          last_run_at: null,
          next_run_at: next,
          last_result: null,
          created_at: '2026-01-31T10:00:00.000000Z',
          updated_at: '2026-01-31T10:00:00.000000Z',
        },
      );
      assert.deepEqual((await show(m.id)).json(), { data: m, status: 200 });
    }
    // JSON bodies and explicit values
    const json = await t.call(key, {
      method: 'POST',
      url: '/api/v1/monitors',
      payload: { report_id: report.id, frequency: 'daily', alert_drop: 100, email: 0 },
    });
    assert.equal(json.statusCode, 201, json.body);
    assert.deepEqual([json.json().data.alert_drop, json.json().data.email], [100, 0]);
    const one = await create({ report_id: String(report.id), frequency: 'weekly', alert_drop: '1', email: '1' });
    assert.deepEqual([one.json().data.alert_drop, one.json().data.email], [1, 1]);

    assert.equal(await t.services.jobs.drain(), 0, 'creating queued no run');
    assert.equal(await historyCount(report.id), 1);
  });

  test('create: every 422, in Laravel wording and field order', async () => {
    const mine = await seedReport(t.db.handle, userId);
    const theirs = await seedReport(t.db.handle, otherId);
    const cases: [Record<string, string>, Record<string, string[]>][] = [
      [{}, { report_id: ['The report id field is required.'], frequency: ['The frequency field is required.'] }],
      [
        { report_id: '', frequency: '' },
        { report_id: ['The report id field is required.'], frequency: ['The frequency field is required.'] },
      ],
      [{ report_id: 'abc', frequency: 'daily' }, { report_id: ['The report id must be an integer.'] }],
      [{ report_id: '1.0', frequency: 'daily' }, { report_id: ['The report id must be an integer.'] }],
      [{ report_id: String(theirs.id), frequency: 'daily' }, { report_id: ['The selected report id is invalid.'] }],
      [{ report_id: '987654', frequency: 'daily' }, { report_id: ['The selected report id is invalid.'] }],
      [{ report_id: '0', frequency: 'daily' }, { report_id: ['The selected report id is invalid.'] }],
      [{ report_id: '2147483648', frequency: 'daily' }, { report_id: ['The selected report id is invalid.'] }],
      [{ report_id: '99999999999999', frequency: 'daily' }, { report_id: ['The selected report id is invalid.'] }],
      [{ report_id: String(mine.id), frequency: 'hourly' }, { frequency: ['The selected frequency is invalid.'] }],
      [
        { report_id: String(mine.id), frequency: 'daily', alert_drop: '0' },
        { alert_drop: ['The alert drop must be at least 1.'] },
      ],
      [
        { report_id: String(mine.id), frequency: 'daily', alert_drop: '101' },
        { alert_drop: ['The alert drop must not be greater than 100.'] },
      ],
      [
        { report_id: String(mine.id), frequency: 'daily', alert_drop: '5.5' },
        { alert_drop: ['The alert drop must be an integer.'] },
      ],
      [{ report_id: String(mine.id), frequency: 'daily', email: '2' }, { email: ['The selected email is invalid.'] }],
      [
        { report_id: String(theirs.id), frequency: 'yearly', alert_drop: '-1', email: 'yes' },
        {
          report_id: ['The selected report id is invalid.'],
          frequency: ['The selected frequency is invalid.'],
          alert_drop: ['The alert drop must be an integer.'],
          email: ['The email must be an integer.', 'The selected email is invalid.'],
        },
      ],
    ];
    const before = (await t.call(key, { method: 'GET', url: '/api/v1/monitors' })).json().meta.total;
    for (const [form, errors] of cases) {
      const res = await create(form);
      assert.equal(res.statusCode, 422, `${JSON.stringify(form)}: ${res.body}`);
      const all = Object.values(errors).flat();
      const message = all.length === 1 ? all[0] : `${all[0]} (and ${all.length - 1} more error${all.length === 2 ? '' : 's'})`;
      assert.deepEqual(res.json(), { message, errors, status: 422 }, JSON.stringify(form));
    }
    assert.equal((await t.call(key, { method: 'GET', url: '/api/v1/monitors' })).json().meta.total, before, 'nothing stored');
  });

  test("show, update, delete, run: another account's, unknown and malformed ids are 404 Monitor not found.", async () => {
    const report = await seedReport(t.db.handle, userId);
    const id = (await create({ report_id: String(report.id), frequency: 'daily' })).json().data.id;
    const requests: [string, string, Record<string, string>?][] = [
      ['GET', `/api/v1/monitors/${id}`],
      ['PUT', `/api/v1/monitors/${id}`, { alert_drop: '0' }],
      ['PATCH', `/api/v1/monitors/${id}`, { frequency: 'weekly' }],
      ['DELETE', `/api/v1/monitors/${id}`],
      ['POST', `/api/v1/monitors/${id}/run`],
    ];
    for (const [method, url, form] of requests) {
      const res = await t.call(otherKey, { method: method as 'GET', url, ...(form ? { form } : {}) });
      assert.deepEqual([res.statusCode, res.json()], [404, NOT_FOUND], `${method} ${url} by another account`);
      for (const other of ['987654', '0', 'abc', '1e3']) {
        const unknown = await t.call(key, {
          method: method as 'GET',
          url: url.replace(String(id), other),
          ...(form ? { form } : {}),
        });
        assert.deepEqual([unknown.statusCode, unknown.json()], [404, NOT_FOUND], `${method} ${url} → ${other}`);
      }
    }
    const still = await show(id);
    assert.equal(still.statusCode, 200);
    assert.deepEqual([still.json().data.frequency, still.json().data.alert_drop], ['daily', 5], 'unchanged');
    assert.equal(await t.services.jobs.drain(), 0, 'no run queued by another account');
  });

  test('list: the paginator, newest first, only the account’s own; per_page validated', async () => {
    const { key: k, id: u } = await t.account();
    const report = await seedReport(t.db.handle, u);
    const ids: number[] = [];
    for (let i = 0; i < 12; i++)
      ids.push((await create({ report_id: String(report.id), frequency: 'weekly' }, k)).json().data.id);
    const all = (await t.call(k, { method: 'GET', url: '/api/v1/monitors' })).json();
    assert.equal(all.status, 200);
    assert.equal(all.meta.per_page, 100);
    assert.deepEqual(
      all.data.map((m: { id: number }) => m.id),
      [...ids].reverse(),
    );
    assert.deepEqual(Object.keys(all.data[0]), FIELDS);
    const page2 = (
      await t.call(k, { method: 'GET', url: '/api/v1/monitors?per_page=10&page=2', headers: { host: 'api.test' } })
    ).json();
    assert.deepEqual(
      page2.data.map((m: { id: number }) => m.id),
      [ids[1], ids[0]],
    );
    assert.deepEqual([page2.current_page, page2.last_page, page2.meta.total], [2, 2, 12]);
    assert.equal(page2.links.first, 'http://api.test/api/v1/monitors?per_page=10&page=1');
    assert.equal(page2.links.next, null);
    assert.deepEqual((await t.call(k, { method: 'GET', url: '/api/v1/monitors?page=5' })).json().data, []);
    const bad = await t.call(k, { method: 'GET', url: '/api/v1/monitors?per_page=20' });
    assert.deepEqual([bad.statusCode, bad.json().errors], [422, { per_page: ['The selected per page is invalid.'] }]);
    // another account sees none of them
    const { key: stranger } = await t.account();
    assert.equal((await t.call(stranger, { method: 'GET', url: '/api/v1/monitors' })).json().meta.total, 0);
  });

  test('update: settings change, next_run_at moves only with the frequency (the new rhythm, counted from creation, after now)', async () => {
    clock.set(Date.parse('2026-01-31T10:00:00Z'));
    const report = await seedReport(t.db.handle, userId);
    const created = (await create({ report_id: String(report.id), frequency: 'daily' })).json().data;
    assert.equal(created.next_run_at, '2026-02-01T10:00:00.000000Z');

    clock.set(Date.parse('2026-02-03T12:00:00Z'));
    const put = await t.call(key, {
      method: 'PUT',
      url: `/api/v1/monitors/${created.id}`,
      form: { alert_drop: '20', email: '0' },
    });
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(put.json(), {
      data: { ...created, alert_drop: 20, email: 0, updated_at: '2026-02-03T12:00:00.000000Z' },
      status: 200,
    });

    const patch = async (query: string) => {
      const res = await t.call(key, { method: 'PATCH', url: `/api/v1/monitors/${created.id}?${query}` });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data;
    };
    assert.equal((await patch('frequency=weekly')).next_run_at, '2026-02-07T10:00:00.000000Z');
    assert.equal((await patch('frequency=monthly')).next_run_at, '2026-02-28T10:00:00.000000Z');
    const daily = await patch('frequency=daily');
    assert.equal(daily.next_run_at, '2026-02-04T10:00:00.000000Z');
    assert.deepEqual([daily.alert_drop, daily.email], [20, 0], 'other settings kept');
    // the same frequency again leaves the schedule alone; so does an empty update
    assert.equal((await patch('frequency=daily&alert_drop=7')).next_run_at, '2026-02-04T10:00:00.000000Z');
    assert.equal((await patch('')).alert_drop, 7);

    const invalid = await t.call(key, {
      method: 'PUT',
      url: `/api/v1/monitors/${created.id}`,
      form: { frequency: 'never', alert_drop: '0', email: '3' },
    });
    assert.deepEqual(invalid.json(), {
      message: 'The selected frequency is invalid. (and 2 more errors)',
      errors: {
        frequency: ['The selected frequency is invalid.'],
        alert_drop: ['The alert drop must be at least 1.'],
        email: ['The selected email is invalid.'],
      },
      status: 422,
    });
    assert.equal(await t.services.jobs.drain(), 0, 'updating runs nothing');
    assert.equal(await historyCount(report.id), 1);
  });

  test('delete: 200 with the id, then 404; deleting the report (or its project) deletes its monitors', async () => {
    const report = await seedReport(t.db.handle, userId, { url: 'https://gone.example/a' });
    const a = (await create({ report_id: String(report.id), frequency: 'daily' })).json().data.id;
    const b = (await create({ report_id: String(report.id), frequency: 'weekly' })).json().data.id;
    const res = await t.call(key, { method: 'DELETE', url: `/api/v1/monitors/${a}` });
    assert.deepEqual([res.statusCode, res.json()], [200, { data: { id: a }, status: 200 }]);
    assert.deepEqual((await show(a)).json(), NOT_FOUND);
    assert.equal((await t.call(key, { method: 'DELETE', url: `/api/v1/monitors/${a}` })).statusCode, 404);

    assert.equal((await show(b)).statusCode, 200);
    assert.equal((await t.call(key, { method: 'DELETE', url: `/api/v1/reports/${report.id}` })).statusCode, 200);
    assert.deepEqual((await show(b)).json(), NOT_FOUND);

    const other = await seedReport(t.db.handle, userId, { url: 'https://project-gone.example/' });
    const c = (await create({ report_id: String(other.id), frequency: 'monthly' })).json().data.id;
    assert.equal((await t.call(key, { method: 'DELETE', url: '/api/v1/projects/project-gone.example' })).statusCode, 200);
    assert.deepEqual((await show(c)).json(), NOT_FOUND);
  });

  test('POST run: 202 with the monitor; the run happens when the queue works, and leaves the schedule alone', async () => {
    clock.set(Date.parse('2026-03-01T09:00:00Z'));
    const created = await t.call(key, { method: 'POST', url: '/api/v1/reports', form: { url: `${site.origin}/page.html` } });
    assert.equal(created.statusCode, 201, created.body);
    const report = created.json().data;
    const monitor = (await create({ report_id: String(report.id), frequency: 'weekly' })).json().data;

    clock.advance(60_000);
    const res = await t.call(key, { method: 'POST', url: `/api/v1/monitors/${monitor.id}/run` });
    assert.equal(res.statusCode, 202, res.body);
    assert.deepEqual(res.json(), { data: monitor, status: 202 });
    assert.equal(await historyCount(report.id), 1, 'queued, not run yet');

    assert.equal(await t.services.jobs.drain(), 1);
    assert.equal(await historyCount(report.id), 2);
    const after = (await show(monitor.id)).json().data;
    assert.equal(after.last_run_at, '2026-03-01T09:01:00.000000Z');
    assert.match(after.last_run_at, TIMESTAMP);
    const rerun = (await t.call(key, { method: 'GET', url: `/api/v1/reports/${report.id}` })).json().data;
    assert.equal(after.last_result, rerun.result);
    assert.equal(rerun.generated_at, '2026-03-01T09:01:00.000000Z');
    assert.equal(after.next_run_at, monitor.next_run_at, 'the schedule is unchanged');
    assert.equal(after.updated_at, monitor.updated_at, 'a run is not a change of settings');
  });
});
