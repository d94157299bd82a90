// The reports and projects pages (docs/dashboard.md): they read and write through
// the API, so what a page shows and what the API then answers must agree.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from '../helpers/app.js';
import { signedInClient, type DashboardClient } from '../helpers/dashboard.js';
import { goodPage, startSite, type PageSite } from '../helpers/pages.js';
import { seedReport } from '../helpers/seed.js';
import { CHECKS } from '../../src/analysis/checks/index.js';

/** The body of the table (rows only), so filters' own option labels do not count. */
const tableOf = (body: string) => /<tbody>([\s\S]*?)<\/tbody>/.exec(body)?.[1] ?? '';
const h1Count = (body: string) => (body.match(/<h1[\s>]/g) ?? []).length;

describe('dashboard: reports and projects', () => {
  let t: TestApp;
  let site: PageSite;
  let client: DashboardClient;
  let other: DashboardClient;

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0' });
    site = await startSite({ '/good.html': goodPage(), '/bare.html': '<!doctype html><html><head></head><body>x</body></html>' });
    client = await signedInClient(t);
    other = await signedInClient(t);
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const apiReport = (id: number | string, key = client.account.key) =>
    t.call(key, { method: 'GET', url: `/api/v1/reports/${id}` });
  const apiHistory = (id: number | string) => t.call(client.account.key, { method: 'GET', url: `/api/v1/reports/${id}/history` });

  test('an empty account: "No reports yet" with the new report form', async () => {
    const fresh = await signedInClient(t);
    const res = await fresh.get('/app/reports');
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /No reports yet/);
    assert.match(res.body, /<form method="post" action="\/app\/reports" data-busy="Analysing…">/);
    assert.match(res.body, /<label for="f-url">Page URL<\/label>/);
    assert.equal(h1Count(res.body), 1);
    assert.match(res.body, /<title>Reports · Rankscope<\/title>/);
    const projects = await fresh.get('/app/projects');
    assert.equal(projects.statusCode, 200);
    assert.match(projects.body, /No projects yet/);
    assert.match(projects.body, /href="\/app\/reports#new-report"/);
  });

  let reportId: number;

  test('a new report from a URL: analysed, 303 to its page with a notice; on the list and the detail', async () => {
    const url = `${site.origin}/good.html`;
    const res = await client.post('/app/reports', { url, privacy: '1' });
    assert.equal(res.statusCode, 303, res.body.slice(0, 500));
    const location = String(res.headers.location);
    const match = /^\/app\/reports\/(\d+)$/.exec(location);
    assert.ok(match, location);
    reportId = Number(match[1]);
    const shown = await apiReport(reportId);
    assert.equal(shown.statusCode, 200);
    assert.equal(shown.json().data.url, url);

    const detail = await client.get(location);
    assert.equal(detail.statusCode, 200);
    assert.match(detail.body, /Report created: the page scored \d+ out of 100\./);
    assert.equal(h1Count(detail.body), 1);
    assert.ok(detail.body.includes(url));
    assert.match(detail.body, /class="gauge band-/);
    assert.match(detail.body, /Overall score/);
    // Every check, each passed or failed.
    assert.equal((detail.body.match(/<article class="check check-(?:pass|fail)"/g) ?? []).length, CHECKS.length);
    assert.match(detail.body, /One analysis so far/);
    // Private: no share link.
    assert.doesNotMatch(detail.body, /href="\/reports\/\d+"/);
    assert.match(detail.body, new RegExp(`action="/app/reports/${reportId}/rerun"`));
    assert.match(detail.body, new RegExp(`action="/app/reports/${reportId}/delete"`));
    // The notice is shown once.
    assert.doesNotMatch((await client.get(location)).body, /Report created/);

    const list = await client.get('/app/reports');
    assert.equal(list.statusCode, 200);
    const rows = tableOf(list.body);
    assert.ok(rows.includes(`href="/app/reports/${reportId}"`));
    assert.ok(rows.includes(url));
    assert.ok(rows.includes('127.0.0.1'));
    assert.match(rows, /\d+ <span class="badge">.*(Good|Decent|Poor)<\/span>/);
  });

  test('a page that cannot be analysed: 422, the API’s message at the url field, nothing stored', async () => {
    const before = (await t.call(client.account.key, { method: 'GET', url: '/api/v1/reports' })).json().meta.total;
    const res = await client.post('/app/reports', { url: `${site.origin}/missing.html` });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /id="f-url"[^>]*aria-invalid="true"[^>]*aria-describedby="f-url-error"/);
    assert.match(res.body, /<p class="error" id="f-url-error">/);
    assert.ok(res.body.includes(`value="${site.origin}/missing.html"`), 'the URL is kept in the field');
    const notUrl = await client.post('/app/reports', { url: 'ftp://example.com/x' });
    assert.equal(notUrl.statusCode, 422);
    assert.match(notUrl.body, /id="f-url-error"/);
    const needsPassword = await client.post('/app/reports', { url: `${site.origin}/good.html`, privacy: '2' });
    assert.equal(needsPassword.statusCode, 422);
    assert.match(needsPassword.body, /id="f-password-error">[\s\S]*?The password field is required when privacy is 2\./);
    const after = (await t.call(client.account.key, { method: 'GET', url: '/api/v1/reports' })).json().meta.total;
    assert.equal(after, before);
  });

  test('search, project and result filters, sort and paging keep working and keep the filters', async () => {
    const fresh = await signedInClient(t);
    const ids: number[] = [];
    for (const [i, url, result] of [
      [0, 'https://alpha.example/one', 95],
      [1, 'https://alpha.example/two', 70],
      [2, 'https://www.beta.example/three', 30],
      [3, 'https://beta.example/four', 92],
      [4, 'https://gamma.example/five', 55],
    ] as const) {
      const row = await seedReport(t.db.handle, fresh.account.id, {
        url,
        result,
        generated_at: `2024-03-0${i + 1}T12:00:00.000000Z`,
      });
      ids.push(row.id);
    }
    const urlsOf = (body: string) => [...tableOf(body).matchAll(/href="\/app\/reports\/\d+">([^<]+)</g)].map((m) => m[1]);

    const all = await fresh.get('/app/reports');
    assert.deepEqual(urlsOf(all.body), [
      'https://gamma.example/five',
      'https://beta.example/four',
      'https://www.beta.example/three',
      'https://alpha.example/two',
      'https://alpha.example/one',
    ]);
    // The project select lists the account's projects.
    assert.match(all.body, /<option value="alpha.example">alpha.example<\/option>/);
    assert.match(all.body, /<option value="beta.example">beta.example<\/option>/);

    const search = await fresh.get('/app/reports?search=ALPHA');
    assert.deepEqual(urlsOf(search.body), ['https://alpha.example/two', 'https://alpha.example/one']);
    assert.match(search.body, /id="f-search" name="search" type="search" value="ALPHA"/);

    const project = await fresh.get('/app/reports?project=beta.example');
    assert.deepEqual(urlsOf(project.body), ['https://beta.example/four', 'https://www.beta.example/three']);
    assert.match(project.body, /<option value="beta.example" selected>/);

    const good = await fresh.get('/app/reports?result=good&sort_by=result&sort=asc');
    assert.deepEqual(urlsOf(good.body), ['https://beta.example/four', 'https://alpha.example/one']);
    assert.match(good.body, /<option value="good" selected>/);
    assert.match(tableOf(good.body), /92 <span class="badge">.*Good<\/span>/);

    const byUrl = await fresh.get('/app/reports?sort_by=url&sort=asc');
    assert.deepEqual(urlsOf(byUrl.body)[0], 'https://alpha.example/one');

    // Paging: 10 per page of 12 reports (7 more), filters kept in the links.
    for (let i = 0; i < 7; i++)
      await seedReport(t.db.handle, fresh.account.id, { url: `https://alpha.example/p${i}`, result: 80 });
    const first = await fresh.get('/app/reports?per_page=10&sort_by=url&sort=asc&search=example');
    assert.equal(urlsOf(first.body).length, 10);
    assert.match(first.body, /Showing 1–10 of 12 reports · page 1 of 2/);
    const next = /<a href="([^"]+)" rel="next">Next page of reports<\/a>/.exec(first.body)?.[1];
    assert.equal(next, '/app/reports?search=example&amp;sort_by=url&amp;sort=asc&amp;per_page=10&amp;page=2');
    const second = await fresh.get(next!.replaceAll('&amp;', '&'));
    assert.equal(second.statusCode, 200);
    assert.equal(urlsOf(second.body).length, 2);
    assert.match(second.body, /Showing 11–12 of 12 reports · page 2 of 2/);
    assert.match(second.body, /rel="prev">Previous page of reports/);
    assert.doesNotMatch(second.body, /rel="next"/);

    // Nothing matches: says so, with a way back.
    const none = await fresh.get('/app/reports?search=nothing-like-this');
    assert.equal(none.statusCode, 200);
    assert.match(none.body, /No reports match these filters/);

    // A filter the API refuses: its message at the field.
    const bad = await fresh.get('/app/reports?per_page=7');
    assert.equal(bad.statusCode, 422);
    assert.match(bad.body, /The selected per page is invalid\./);

    // The projects page lists them with counts, each linking to its reports.
    const projects = await fresh.get('/app/projects?sort_by=project&sort=asc');
    assert.equal(projects.statusCode, 200);
    assert.equal(h1Count(projects.body), 1);
    const projectRows = tableOf(projects.body);
    assert.match(
      projectRows,
      /<a href="\/app\/reports\?project=alpha.example">alpha.example<span class="visually-hidden"> reports<\/span><\/a><\/th><td class="num">9<\/td>/,
    );
    assert.match(
      projectRows,
      /href="\/app\/reports\?project=beta.example">beta.example<span class="visually-hidden"> reports<\/span><\/a><\/th><td class="num">2<\/td>/,
    );
    assert.ok(projectRows.indexOf('alpha.example') < projectRows.indexOf('gamma.example'));
    const searched = await fresh.get('/app/projects?search=gam');
    assert.match(tableOf(searched.body), /gamma.example/);
    assert.doesNotMatch(tableOf(searched.body), /alpha.example/);
  });

  test('privacy: password needs a password (422 at the field, nothing changed); then public; the share link shows', async () => {
    const refused = await client.post(`/app/reports/${reportId}`, { privacy: '2', password: '' });
    assert.equal(refused.statusCode, 422);
    assert.match(refused.body, /id="f-password"[^>]*aria-invalid="true"/);
    assert.match(refused.body, /id="f-password-error">[\s\S]*?The password field is required when privacy is 2\./);
    assert.match(refused.body, /<option value="2" selected>/, 'the choice is kept');
    assert.equal(h1Count(refused.body), 1);
    let shown = (await apiReport(reportId)).json().data;
    assert.equal(shown.privacy, 1);
    assert.equal(shown.password, false);

    const withPassword = await client.post(`/app/reports/${reportId}`, { privacy: '2', password: 'open sesame' });
    assert.equal(withPassword.statusCode, 303);
    shown = (await apiReport(reportId)).json().data;
    assert.equal(shown.privacy, 2);
    assert.equal(shown.password, true);

    const toPublic = await client.post(`/app/reports/${reportId}`, { privacy: '0' });
    assert.equal(toPublic.statusCode, 303);
    assert.equal(toPublic.headers.location, `/app/reports/${reportId}`);
    shown = (await apiReport(reportId)).json().data;
    assert.equal(shown.privacy, 0);
    assert.equal(shown.password, false);
    const page = await client.get(`/app/reports/${reportId}`);
    assert.match(page.body, /Privacy saved\./);
    assert.match(page.body, new RegExp(`<a href="/reports/${reportId}">Open the share page</a>`));
    assert.equal((await t.app.inject({ method: 'GET', url: `/reports/${reportId}` })).statusCode, 200);
  });

  test('re-run adds a history item, and the chart appears', async () => {
    assert.equal((await apiHistory(reportId)).json().meta.total, 1);
    const res = await client.post(`/app/reports/${reportId}/rerun`);
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/app/reports/${reportId}`);
    assert.equal((await apiHistory(reportId)).json().meta.total, 2);
    const page = await client.get(`/app/reports/${reportId}`);
    assert.match(page.body, /Analysis re-run: the page scored \d+ out of 100\./);
    assert.match(page.body, /<svg viewBox="0 0 640 240" role="img" aria-labelledby="chart-title chart-desc">/);
    assert.match(page.body, /2 analyses/);

    // The page is gone: the re-run fails with the API's reason, and the report stays as it was.
    const before = (await apiReport(reportId)).json().data;
    site.set('/good.html', (_req, reply) => {
      reply.writeHead(500, { 'content-type': 'text/html' });
      reply.end('down');
    });
    const failed = await client.post(`/app/reports/${reportId}/rerun`);
    site.set('/good.html', goodPage());
    assert.equal(failed.statusCode, 303);
    assert.equal(failed.headers.location, `/app/reports/${reportId}`);
    const after = await client.get(`/app/reports/${reportId}`);
    assert.match(after.body, /<p class="flash bad" role="status">The analysis was not re-run: [^<]+<\/p>/);
    assert.equal((await apiHistory(reportId)).json().meta.total, 2);
    assert.deepEqual((await apiReport(reportId)).json().data, before);
  });

  test("another account's report: 404 on GET and every POST, and nothing changes", async () => {
    const before = (await apiReport(reportId)).json().data;
    const page = await other.get(`/app/reports/${reportId}`);
    assert.equal(page.statusCode, 404);
    assert.match(page.body, /<h1 id="page-title">Not found<\/h1>/);
    assert.doesNotMatch(page.body, /good\.html/);
    for (const [path, fields] of [
      [`/app/reports/${reportId}`, { privacy: '1' }],
      [`/app/reports/${reportId}/rerun`, {}],
      [`/app/reports/${reportId}/delete`, {}],
    ] as const) {
      const res = await other.post(path, fields);
      assert.equal(res.statusCode, 404, path);
    }
    assert.equal((await other.get('/app/reports/not-a-number')).statusCode, 404);
    assert.equal((await other.get('/app/reports/99999999')).statusCode, 404);
    assert.deepEqual((await apiReport(reportId)).json().data, before);
    assert.equal((await apiHistory(reportId)).json().meta.total, 2);
    // Nor does it show on the other account's list.
    assert.match((await other.get('/app/reports')).body, /No reports yet/);
  });

  test('a POST without the CSRF token is refused and changes nothing', async () => {
    const res = await client.post(`/app/reports/${reportId}/delete`, { _token: 'wrong' });
    assert.equal(res.statusCode, 403);
    assert.equal((await apiReport(reportId)).statusCode, 200);
  });

  test('delete: 303 to the list with a notice; the API then answers 404', async () => {
    const res = await client.post(`/app/reports/${reportId}/delete`);
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/app/reports');
    assert.equal((await apiReport(reportId)).statusCode, 404);
    const list = await client.get('/app/reports');
    assert.match(list.body, /Report deleted\./);
    assert.ok(!tableOf(list.body).includes(`/app/reports/${reportId}"`));
    assert.equal((await client.get(`/app/reports/${reportId}`)).statusCode, 404);
  });
});
