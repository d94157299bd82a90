// render=1 wired end to end (docs/rendering.md): a page whose title, meta description, h1,
// canonical, noindex, links and content exist only after its scripts run is seen as a browser
// shows it with render=1, and as its raw HTML without; the fetch-level figures stay the HTTP
// fetch's. Reports (create, re-run), monitors, `rankscope analyze --render` and the dashboard.
import { captureIo } from '../helpers/cli-io.js';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ServerResponse } from 'node:http';
import { fetchSnapshot } from '../../src/analysis/analyze.js';
import { DEFAULT_CONFIG } from '../../src/analysis/config.js';
import { inProcessEngine } from '../../src/analysis/engine.js';
import { main } from '../../src/cli/index.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { CHROMIUM, noBrowser } from '../helpers/browser.js';
import { signedInClient } from '../helpers/dashboard.js';
import { startSite, type PageSite } from '../helpers/pages.js';

const TITLE = 'Blue widgets built by a script';
const DESCRIPTION = 'Blue widgets of every size, described by a script that runs in the browser after the page loads.';
const HEADING = 'Blue widgets, rendered';
const LINKS = ['/widgets/1', '/widgets/2', '/widgets/3'];
const PARAGRAPH = 'Our blue widgets are made by hand from recycled steel and painted in three shades of blue for every kitchen.';

/** The raw HTML: an empty shell and a script. */
const SHELL =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<script src="/app.js" defer></script></head><body><div id="app">Loading</div></body></html>';

/** Builds the head at once and the body from a later request (network idle must wait for it). */
const APP_JS = `
document.title = ${JSON.stringify(TITLE)};
function add(tag, attrs) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  document.head.appendChild(el);
}
add('meta', { name: 'description', content: ${JSON.stringify(DESCRIPTION)} });
add('meta', { name: 'robots', content: 'noindex' });
add('link', { rel: 'canonical', href: '/canonical-page' });
fetch('/content.json').then((r) => r.json()).then((data) => {
  const app = document.getElementById('app');
  app.textContent = '';
  const h1 = document.createElement('h1');
  h1.textContent = data.heading;
  app.appendChild(h1);
  for (const text of data.paragraphs) {
    const p = document.createElement('p');
    p.textContent = text;
    app.appendChild(p);
  }
  for (const href of data.links) {
    const a = document.createElement('a');
    a.href = href;
    a.textContent = 'Widget ' + href.split('/').pop();
    app.appendChild(a);
  }
});
`;
const CONTENT = JSON.stringify({ heading: HEADING, paragraphs: Array.from({ length: 30 }, () => PARAGRAPH), links: LINKS });

function send(type: string, body: string) {
  return (_req: unknown, res: ServerResponse) => res.writeHead(200, { 'content-type': type }).end(body);
}

type Results = Record<string, { passed: boolean; value: unknown; errors?: unknown }>;

/** The internal links the in_page_links check found. */
function internalLinks(results: Results): string[] {
  const value = results.in_page_links.value as Record<string, { url: string }[]> | unknown[];
  const internals = Array.isArray(value) ? [] : (value.Internals ?? []);
  return internals.map((link) => new URL(link.url).pathname);
}

describe('render=1 on reports and monitors', { skip: noBrowser }, () => {
  let t: TestApp;
  let site: PageSite;
  let key: string;

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', CHROMIUM_PATH: CHROMIUM, RENDER_TIMEOUT: '8' });
    ({ key } = await t.account());
    site = await startSite({
      '/': send('text/html; charset=utf-8', SHELL),
      '/app.js': send('text/javascript', APP_JS),
      '/content.json': send('application/json', CONTENT),
      '/never-idle': send(
        'text/html',
        '<!doctype html><title>x</title><script>setInterval(() => fetch("/content.json?" + Math.random()), 100);</script>',
      ),
    });
  });
  after(async () => {
    await t?.close();
    await site?.close();
  });

  const create = (form: Record<string, string>) => t.call(key, { method: 'POST', url: '/api/v1/reports', form });
  const count = async () => (await t.call(key, { method: 'GET', url: '/api/v1/reports' })).json().meta.total as number;

  test('without render the checks read the raw HTML: no title, description, h1, links or content; not noindex', async () => {
    const res = await create({ url: `${site.origin}/` });
    assert.equal(res.statusCode, 201, res.body);
    const report = res.json().data;
    assert.equal(report.rendered, false);
    const r: Results = report.results;
    assert.equal(r.title.passed, false);
    assert.equal(r.title.value, null);
    assert.equal(r.meta_description.passed, false);
    assert.equal(r.headings.passed, false);
    assert.equal(r.noindex.passed, true);
    assert.deepEqual(internalLinks(r), []);
    assert.equal(r.content_length.passed, false);
  });

  test('with render=1 the checks read the DOM the scripts built; the fetch-level figures stay the fetch’s', async () => {
    const raw = (await create({ url: `${site.origin}/` })).json().data;
    const scriptsBefore = site.hits('/content.json');
    const res = await create({ url: `${site.origin}/`, render: '1' });
    assert.equal(res.statusCode, 201, res.body);
    const report = res.json().data;
    assert.equal(report.rendered, true);
    assert.equal(report.url, `${site.origin}/`, 'the url is the HTTP fetch’s final URL');
    assert.ok(site.hits('/content.json') > scriptsBefore, 'the browser ran the script and its request');
    const r: Results = report.results;
    assert.equal(r.title.value, TITLE);
    assert.equal(r.title.passed, true);
    assert.equal(r.meta_description.value, DESCRIPTION);
    assert.equal(r.meta_description.passed, true);
    assert.equal(r.headings.passed, true);
    assert.deepEqual((r.headings.value as { h1: string[] }).h1, [HEADING]);
    assert.equal(r.noindex.passed, false, 'the noindex a script added counts');
    assert.equal(r.noindex.value, 'noindex');
    assert.deepEqual(internalLinks(r), LINKS);
    assert.equal(r.content_length.passed, true);
    assert.ok((r.content_length.value as number) > (raw.results.content_length.value as number) + 300);
    // The bytes on the wire (page_size, text_compression) are the HTTP response's, not the DOM's.
    assert.deepEqual(r.page_size.value, raw.results.page_size.value);
    assert.deepEqual(r.text_compression.value, raw.results.text_compression.value);
    const shown = await t.call(key, { method: 'GET', url: `/api/v1/reports/${report.id}` });
    assert.equal(shown.json().data.rendered, true);
  });

  test('the canonical a script added is in the DOM the engine parses', async () => {
    const renderer = t.services.renderer;
    const config = { ...DEFAULT_CONFIG, request: { ...DEFAULT_CONFIG.request, allowPrivateAddresses: true as const } };
    const { snapshot, parsed } = await fetchSnapshot(`${site.origin}/`, {
      config,
      render: (url, signal) => renderer.render(url, { account: 1, signal }),
    });
    parsed.discard();
    const outline = (await inProcessEngine.parse(snapshot.html, snapshot.finalUrl, undefined, true)).outline;
    assert.equal(outline?.canonical, `${site.origin}/canonical-page`);
    assert.deepEqual(
      outline?.links.map((link) => new URL(link).pathname),
      LINKS,
    );
    assert.equal(snapshot.status, 200);
    assert.equal(snapshot.wireBytes, Buffer.byteLength(SHELL), 'the fetch’s bytes');
  });

  test('a re-run renders with render=1 and reads the raw HTML again without; render alone analyses nothing', async () => {
    const created = (await create({ url: `${site.origin}/` })).json().data;
    const put = (query: string) => t.call(key, { method: 'PUT', url: `/api/v1/reports/${created.id}?${query}` });
    const rendered = await put('results=1&render=1');
    assert.equal(rendered.statusCode, 200, rendered.body);
    assert.equal(rendered.json().data.rendered, true);
    assert.equal(rendered.json().data.results.title.value, TITLE);
    const untouched = await put('render=0');
    assert.equal(untouched.statusCode, 200);
    assert.equal(untouched.json().data.rendered, true, 'no re-run: the report is as it was');
    assert.equal(untouched.json().data.generated_at, rendered.json().data.generated_at);
    const raw = await put('results=1');
    assert.equal(raw.json().data.rendered, false);
    assert.equal(raw.json().data.results.title.value, null);
  });

  test('a page the browser cannot finish answers 422 on url with the reason, and stores nothing', async () => {
    const before = await count();
    const res = await create({ url: `${site.origin}/never-idle`, render: '1' });
    assert.equal(res.statusCode, 422, res.body);
    const message = 'The page did not finish loading (load event and network idle) within 8 seconds.';
    assert.deepEqual(res.json(), { message, errors: { url: [message] }, status: 422 });
    assert.equal(await count(), before);
    // The same page without render is analysed as before.
    assert.equal((await create({ url: `${site.origin}/never-idle` })).statusCode, 201);
  });

  test('a monitor stores render, and its runs re-run the report rendered', async () => {
    const report = (await create({ url: `${site.origin}/` })).json().data;
    assert.equal(report.rendered, false);
    const made = await t.call(key, {
      method: 'POST',
      url: '/api/v1/monitors',
      form: { report_id: String(report.id), frequency: 'daily', render: '1' },
    });
    assert.equal(made.statusCode, 201, made.body);
    const monitor = made.json().data;
    assert.equal(monitor.render, 1);
    assert.equal((await t.call(key, { method: 'GET', url: `/api/v1/monitors/${monitor.id}` })).json().data.render, 1);

    assert.equal((await t.call(key, { method: 'POST', url: `/api/v1/monitors/${monitor.id}/run` })).statusCode, 202);
    await t.services.jobs.drain();
    const after = (await t.call(key, { method: 'GET', url: `/api/v1/reports/${report.id}` })).json().data;
    assert.equal(after.rendered, true);
    assert.equal(after.results.title.value, TITLE);

    const off = await t.call(key, { method: 'PATCH', url: `/api/v1/monitors/${monitor.id}`, form: { render: '0' } });
    assert.equal(off.json().data.render, 0);
  });

  test('the dashboard offers Render with Chromium on the new report and monitor forms, and renders when it is ticked', async () => {
    const client = await signedInClient(t);
    const account = client.account;
    const list = await client.get('/app/reports');
    assert.match(list.body, /name="render"[^>]*type="checkbox"|type="checkbox" name="render"/);
    assert.match(list.body, /Render with Chromium/);
    const made = await client.post('/app/reports', { url: `${site.origin}/`, privacy: '1', password: '', render: ['0', '1'] });
    assert.equal(made.statusCode, 303, made.body);
    const id = /\/app\/reports\/(\d+)/.exec(String(made.headers.location))![1];
    const shown = (await t.call(account.key, { method: 'GET', url: `/api/v1/reports/${id}` })).json().data;
    assert.equal(shown.rendered, true);
    const page = await client.get(`/app/reports/${id}`);
    assert.match(page.body, /rendered with Chromium/);
    assert.match(page.body, /type="checkbox" name="render" value="1" checked/, 'the re-run renders again by default');
    const monitorForm = await client.get(`/app/monitors/new?report_id=${id}`);
    assert.match(monitorForm.body, /Render with Chromium/);
  });

  test('rankscope analyze --render: the rendered title, "rendered": true in the JSON', async () => {
    const run = captureIo();
    const io = run.io;
    const saved = { allow: process.env.ALLOW_PRIVATE_ADDRESSES, chromium: process.env.CHROMIUM_PATH };
    process.env.ALLOW_PRIVATE_ADDRESSES = 'true';
    process.env.CHROMIUM_PATH = CHROMIUM;
    try {
      const code = await main(['analyze', `${site.origin}/`, '--render', '--json'], io);
      assert.equal(code, 0, run.stderr());
      const page = JSON.parse(run.stdout());
      assert.equal(page.rendered, true);
      assert.equal(page.results.title.value, TITLE);
      assert.equal(page.results.noindex.passed, false);
      run.clear();
      assert.equal(await main(['analyze', `${site.origin}/`, '--json'], io), 0);
      const raw = JSON.parse(run.stdout());
      assert.equal(raw.rendered, undefined);
      assert.equal(raw.results.title.value, null);
    } finally {
      for (const [name, value] of [
        ['ALLOW_PRIVATE_ADDRESSES', saved.allow],
        ['CHROMIUM_PATH', saved.chromium],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
