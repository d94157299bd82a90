// Pipedream's phpAnalytics components (the h_supertools_analytics_tool app: create-report,
// list-report-id-options, the reportId options, retrieve-report-data and the report-generated
// source), replayed with their exact paths, parameters and paging loop over real HTTP: JSON
// bodies as @pipedream/platform's axios sends them, `sort_by=domain`/`id`, `from=1970-01-01`.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before, describe, test } from 'node:test';
import { fixedClock } from '../../src/time.js';
import { type TestApp, testApp } from '../helpers/app.js';

type Row = { value: string; count: number };

describe("Pipedream's phpAnalytics components", () => {
  let t: TestApp;
  let key: string;
  let base: string;
  const clock = fixedClock(Date.parse('2026-11-20T09:00:00Z'));
  const today = '2026-11-27';

  /** The app's `_makeRequest`: `${_apiUrl()}/${path}`, the bearer header, axios' JSON and params. */
  async function request(
    path: string,
    { method = 'GET', params, data }: { method?: string; params?: object; data?: object } = {},
  ) {
    const url = new URL(`${base}/api/v1/${path}`);
    for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const res = await fetch(url, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        Accept: 'application/json, text/plain, */*',
        ...(data ? { 'Content-Type': 'application/json' } : {}),
      },
      body: data ? JSON.stringify(data) : undefined,
    });
    const body: any = await res.json();
    // axios throws on a non-2xx status: the component fails.
    assert.ok(res.ok, `${method} ${url.pathname}${url.search} → ${res.status} ${JSON.stringify(body)}`);
    return body;
  }

  /** The app's `paginate`: page = 1, 2, …; stops when current_page equals last_page (read at the top level). */
  async function paginate(websiteId: number, params: Record<string, string | number | undefined>) {
    const items: Row[] = [];
    let page = 0;
    let more = false;
    let requests = 0;
    do {
      params.page = ++page;
      const { data, current_page, last_page } = await request(`stats/${websiteId}`, { params });
      requests++;
      items.push(...data);
      // biome-ignore lint/suspicious/noDoubleEquals: their loop compares loosely
      more = current_page != last_page;
      assert.ok(requests < 1000, 'the loop ends');
    } while (more);
    return { items, requests };
  }

  before(async () => {
    t = await testApp({ EVENT_RATE_LIMIT: '0' }, { clock });
    key = (await t.account()).key;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  let websiteId: number;

  test('create-report: POST websites with its JSON body (booleans as 0/1, privacy 0–2, the password)', async () => {
    // create-report's run(): email: +email, exclude_bots: +excludeBots, privacy: privacy - 1 (its options are 1–3).
    const response = await request('websites', {
      method: 'POST',
      data: {
        domain: 'shop.example',
        email: +true,
        exclude_bots: +false,
        exclude_params: undefined,
        exclude_ips: undefined,
        privacy: 3 - 1,
        password: 'hunter22',
      },
    });
    assert.equal(response.status, 201);
    assert.equal(response.data.domain, 'shop.example');
    assert.deepEqual(
      [response.data.email, response.data.exclude_bots, response.data.privacy, response.data.password],
      [1, 0, 2, true],
    );
    websiteId = response.data.id;
    // Three days of events: 23 distinct pages, page i seen i times on the 20th (and once more on the 26th for even i).
    for (const [day, pages] of [
      ['2026-11-20', Array.from({ length: 23 }, (_, i) => Array.from({ length: i + 1 }, () => `/p${i}`)).flat()],
      ['2026-11-26', Array.from({ length: 12 }, (_, i) => `/p${2 * i}`)],
    ] as const) {
      clock.set(Date.parse(`${day}T10:00:00Z`));
      for (const [n, path] of pages.entries()) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/event',
          headers: {
            'content-type': 'text/plain',
            'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0',
            'x-forwarded-for': `10.0.${n % 200}.1`,
          },
          payload: JSON.stringify({ name: 'pageview', url: `https://shop.example${path}`, website: websiteId }),
        });
        assert.equal(res.statusCode, 202);
      }
    }
    clock.set(Date.parse(`${today}T12:00:00Z`));
  });

  test('list-report-id-options and the reportId options: GET websites?page=0 and page=1, {id, domain}', async () => {
    for (const page of [0, 1]) {
      const { data } = await request('websites', { params: { page } });
      const options = data.map(({ id: value, domain: label }: { id: number; domain: string }) => ({ label, value }));
      assert.deepEqual(options, [{ label: 'shop.example', value: websiteId }]);
    }
  });

  test('retrieve-report-data: sort_by=domain (its default option), 10 a page, every row once', async () => {
    for (const sortBy of ['domain', 'id', 'url']) {
      const { items, requests } = await paginate(websiteId, {
        name: 'page',
        from: '2026-11-01',
        to: today,
        search: undefined,
        sort: 'asc',
        sort_by: sortBy,
        per_page: 10,
      });
      assert.equal(requests, 3, sortBy);
      assert.equal(items.length, 23);
      assert.equal(new Set(items.map((r) => r.value)).size, 23);
      // An unknown sort_by sorts by count (asc as asked; equal counts by value).
      const counts = items.map((r) => r.count);
      assert.deepEqual(
        counts,
        [...counts].sort((a, b) => a - b),
      );
      // /p0 (once on the 20th, once on the 26th) and /p1 (twice on the 20th) tie at 2: by value.
      assert.deepEqual(items.slice(0, 3), [
        { value: '/p0', count: 2 },
        { value: '/p1', count: 2 },
        { value: '/p2', count: 4 }, // 3 + 1, beside /p3's 4
      ]);
    }
  });

  test('report-generated: from=1970-01-01 to today, sort_by=id, sort=desc, 100 a page, for every name it offers', async () => {
    const names = [
      'browser',
      'campaign',
      'city',
      'continent',
      'country',
      'device',
      'event',
      'landing_page',
      'language',
      'os',
      'page',
      'pageviews',
      'pageviews_hours',
      'referrer',
      'resolution',
      'visitors',
      'visitors_hours',
    ];
    for (const name of names) {
      const { items } = await paginate(websiteId, {
        sort_by: 'id',
        name,
        from: '1970-01-01',
        to: today,
        sort: 'desc',
        per_page: 100,
      });
      if (name === 'pageviews' || name === 'visitors') {
        // One row a day from the website's creation day (the 20th) to today, not from 1970.
        assert.deepEqual(
          items.map((r) => r.value).sort(),
          ['20', '21', '22', '23', '24', '25', '26', '27'].map((d) => `2026-11-${d}`),
          name,
        );
        if (name === 'pageviews')
          assert.equal(
            items.reduce((n, r) => n + r.count, 0),
            276 + 12,
          );
      } else if (name.endsWith('_hours')) assert.equal(items.length, 24, name);
      else if (name === 'page') assert.equal(items.length, 23);
      // the source emits one event per row; its id is value + count, so rows must be distinct
      assert.equal(new Set(items.map((r) => r.value + r.count)).size, items.length, name);
    }
  });
});
