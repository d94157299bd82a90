// render=1 on crawls (docs/rendering.md): a rendered crawl renders each HTML page in Chromium,
// follows the links scripts add (an unrendered crawl of the same site never finds those pages),
// and compares each page's raw HTML with its rendered DOM. Each changed-by-JS issue type is
// raised on a page planted for it and on no control page (a script that sets what the HTML
// already says; content that grows less than twice, or by fewer than 100 words), and never on
// an unrendered crawl. `rankscope crawl --render` and the dashboard's checkbox too.
import { captureIo } from '../helpers/cli-io.js';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCrawl } from '../../src/cli/crawl.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { CHROMIUM, noBrowser } from '../helpers/browser.js';
import { type CrawlSite, type SitePage, startCrawlSite } from '../helpers/crawl-site.js';
import { processDatabase } from '../helpers/database.js';
import { signedInClient } from '../helpers/dashboard.js';
import { allIssues, allPages, type CrawlBody, crawlSite, type IssueBody } from '../crawl/crawl-harness.js';

const JS_TYPES = [
  'title_changed_by_js',
  'meta_description_changed_by_js',
  'h1_changed_by_js',
  'canonical_changed_by_js',
  'noindex_changed_by_js',
  'links_only_rendered',
  'content_only_rendered',
] as const;

/** `count` distinct words, seeded by `seed` (no two pages share their text). */
function words(count: number, seed: string): string {
  let x = 11;
  for (const c of seed) x = (Math.imul(x, 31) + c.charCodeAt(0)) >>> 0;
  return Array.from({ length: count }, () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return `w${(x >>> 8) % 100000}`;
  }).join(' ');
}

interface Parts {
  title?: string;
  description?: string;
  h1?: string;
  head?: string;
  /** Words of visible text in the raw HTML (250 by default). */
  text?: number;
  links?: string[];
  /** Run after the page has loaded. */
  script?: string;
}

/**
 * A page clean of every changed-by-JS rule unless its script says otherwise: a title, a
 * description, an h1, text and links, all in the raw HTML.
 */
function page(name: string, parts: Parts = {}): SitePage {
  const links = (parts.links ?? ['/']).map((href) => `<a href="${href}">link</a>`).join(' ');
  const script = parts.script ? `<script>${parts.script}</script>` : '';
  return {
    type: 'text/html; charset=utf-8',
    body:
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${parts.title ?? `Rendered fixture ${name}`}</title>` +
      `<meta name="description" content="${parts.description ?? `The rendered crawl fixture page ${name}, described at length.`}">` +
      `${parts.head ?? ''}</head><body><h1>${parts.h1 ?? `Heading ${name}`}</h1><div id="main"><p>${words(parts.text ?? 250, name)}</p></div>` +
      `${links}${script}</body></html>`,
  };
}

/** A script that appends an `<a href>` to the body for each href. */
function addLinks(hrefs: string[]): string {
  return `for (const href of ${JSON.stringify(hrefs)}) { const a = document.createElement('a'); a.href = href; a.textContent = 'more'; document.body.appendChild(a); }`;
}

/** A script that appends a paragraph of these words to the body. */
function addText(text: string): string {
  return `const p = document.createElement('p'); p.textContent = ${JSON.stringify(text)}; document.body.appendChild(p);`;
}

/** A script that adds a head element. */
function addHead(tag: string, attrs: Record<string, string>): string {
  return `{ const el = document.createElement(${JSON.stringify(tag)}); for (const [k, v] of Object.entries(${JSON.stringify(attrs)})) el.setAttribute(k, v); document.head.appendChild(el); }`;
}

/** Planted pages (one changed-by-JS fault each) and their controls; the home page links to all. */
const PLANTED: Record<string, (typeof JS_TYPES)[number]> = {
  '/title-planted': 'title_changed_by_js',
  '/description-planted': 'meta_description_changed_by_js',
  '/h1-planted': 'h1_changed_by_js',
  '/canonical-planted': 'canonical_changed_by_js',
  '/noindex-added': 'noindex_changed_by_js',
  '/noindex-removed': 'noindex_changed_by_js',
  '/links-planted': 'links_only_rendered',
  '/content-planted': 'content_only_rendered',
};
const CONTROLS = [
  '/title-control',
  '/description-control',
  '/h1-control',
  '/canonical-control',
  '/noindex-control',
  '/links-control',
  '/content-control-ratio',
  '/content-control-few',
];

function site(origin: () => string): Record<string, SitePage> {
  const home = [...Object.keys(PLANTED), ...CONTROLS];
  return {
    '/robots.txt': { status: 404, body: '' },
    // The home page links to the planted and control pages in its HTML, and to /js-a by script.
    '/': page('home', { links: home, script: addLinks(['/js-a']) }),
    // Reached only through scripts: /js-a's script links /js-b.
    '/js-a': page('js-a', { script: addLinks(['/js-b']) }),
    '/js-b': page('js-b'),

    '/title-planted': page('title-planted', {
      title: 'The title in the raw HTML',
      script: `document.title = 'The title a script wrote';`,
    }),
    '/title-control': page('title-control', {
      title: 'The title both ways',
      script: `document.title = 'The title both ways';`,
    }),
    '/description-planted': page('description-planted', {
      script: `document.querySelector('meta[name=description]').setAttribute('content', 'A description a script wrote over the one in the HTML.');`,
    }),
    '/description-control': page('description-control', {
      description: 'The same description whether rendered or not, long enough.',
      script: `document.querySelector('meta[name=description]').setAttribute('content', 'The same description whether rendered or not, long enough.');`,
    }),
    '/h1-planted': page('h1-planted', {
      h1: 'Raw heading',
      script: `document.querySelector('h1').textContent = 'Scripted heading';`,
    }),
    '/h1-control': page('h1-control', {
      h1: 'Same heading',
      script: `document.querySelector('h1').textContent = 'Same heading';`,
    }),
    '/canonical-planted': page('canonical-planted', {
      script: addHead('link', { rel: 'canonical', href: '/somewhere-else' }),
    }),
    '/canonical-control': page('canonical-control', {
      head: `<link rel="canonical" href="${origin()}/canonical-control">`,
      script: `document.querySelector('link[rel=canonical]').setAttribute('href', '/canonical-control');`,
    }),
    '/noindex-added': page('noindex-added', { script: addHead('meta', { name: 'robots', content: 'noindex' }) }),
    '/noindex-removed': page('noindex-removed', {
      head: '<meta name="robots" content="noindex, follow">',
      script: `document.querySelector('meta[name=robots]').remove();`,
    }),
    '/noindex-control': page('noindex-control', { script: addHead('meta', { name: 'robots', content: 'index, follow' }) }),
    '/links-planted': page('links-planted', { script: addLinks(['/', '/title-control', '/made-up-by-script']) }),
    // A script that links again to what the HTML links to adds no link.
    '/links-control': page('links-control', { links: ['/', '/h1-control'], script: addLinks(['/h1-control', '/']) }),
    '/made-up-by-script': page('made-up'),
    // 50 words, then 200 more: five times as many, 200 more.
    '/content-planted': page('content-planted', { text: 50, script: addText(words(200, 'planted-extra')) }),
    // 150 words, then 120 more: 270 < 2 × 150.
    '/content-control-ratio': page('content-control-ratio', { text: 150, script: addText(words(120, 'ratio-extra')) }),
    // 20 words, then 60 more: four times as many, but fewer than 100 more.
    '/content-control-few': page('content-control-few', { text: 20, script: addText(words(60, 'few-extra')) }),
  };
}

function paths(rows: readonly { url: string }[]): string[] {
  return rows.map((row) => new URL(row.url).pathname).sort();
}

function jsIssues(issues: readonly IssueBody[]): IssueBody[] {
  return issues.filter((issue) => (JS_TYPES as readonly string[]).includes(issue.type));
}

describe('render=1 on crawls', { skip: noBrowser }, () => {
  let t: TestApp;
  let key: string;
  let s: CrawlSite;
  let rendered: CrawlBody;
  let raw: CrawlBody;
  let issues: IssueBody[];
  let homeReport: { rendered: boolean; results: { title: { value: unknown } } };
  let homeError: string | null;

  before(async () => {
    t = await testApp({
      ALLOW_PRIVATE_ADDRESSES: 'true',
      CHROMIUM_PATH: CHROMIUM,
      RENDER_TIMEOUT: '10',
      ANALYSIS_WORKERS: '0',
    });
    ({ key } = await t.account());
    s = await startCrawlSite({});
    s.set(site(() => s.origin));
    rendered = await crawlSite(t, key, { url: `${s.origin}/`, render: '1', sitemap: '0', external: '0' }, { timeoutMs: 120_000 });
    issues = await allIssues(t, key, rendered.id);
    // Read before the unrendered crawl re-runs the same reports.
    const home = (await allPages(t, key, rendered.id)).find((p) => p.url === `${s.origin}/`)!;
    homeReport = (await t.call(key, { method: 'GET', url: `/api/v1/reports/${home.report_id}` })).json().data;
    homeError = home.error;
    raw = await crawlSite(t, key, { url: `${s.origin}/`, sitemap: '0', external: '0' }, { timeoutMs: 60_000 });
  });
  after(async () => {
    await t?.close();
    await s?.close();
  });

  test('the crawl shows render; its pages become reports with rendered: true', () => {
    assert.equal(rendered.status, 'finished');
    assert.equal(rendered.render, true);
    assert.equal(raw.render, false);
    assert.equal(homeError, null);
    assert.equal(homeReport.rendered, true);
    assert.equal(homeReport.results.title.value, 'Rendered fixture home');
  });

  test('a rendered crawl finds the pages only scripts link to; an unrendered one does not', async () => {
    const renderedPaths = paths(await allPages(t, key, rendered.id));
    const rawPaths = paths(await allPages(t, key, raw.id));
    for (const path of ['/js-a', '/js-b', '/made-up-by-script']) {
      assert.ok(renderedPaths.includes(path), `${path} in the rendered crawl: ${renderedPaths.join(' ')}`);
      assert.ok(!rawPaths.includes(path), `${path} not in the unrendered crawl`);
    }
    assert.equal(renderedPaths.length, rawPaths.length + 3);
    assert.equal(rendered.pages_failed, 0);
  });

  test('each changed-by-JS type is raised on its planted page, with its severity', () => {
    const severities: Record<string, string> = {
      title_changed_by_js: 'medium',
      meta_description_changed_by_js: 'medium',
      h1_changed_by_js: 'low',
      canonical_changed_by_js: 'high',
      noindex_changed_by_js: 'high',
      links_only_rendered: 'low',
      content_only_rendered: 'medium',
    };
    for (const [path, type] of Object.entries(PLANTED)) {
      const found = issues.find((issue) => issue.type === type && issue.url === `${s.origin}${path}`);
      assert.ok(found, `${type} on ${path}: ${JSON.stringify(jsIssues(issues))}`);
      assert.equal(found.severity, severities[type]);
    }
  });

  test('each planted page raises its one type, the controls none', () => {
    const js = jsIssues(issues);
    for (const path of CONTROLS) {
      const url = `${s.origin}${path}`;
      assert.deepEqual(
        js.filter((issue) => issue.url === url),
        [],
        path,
      );
    }
    for (const [path, type] of Object.entries(PLANTED)) {
      const url = `${s.origin}${path}`;
      assert.deepEqual(
        js.filter((issue) => issue.url === url).map((issue) => issue.type),
        [type],
        path,
      );
    }
    // The other pages: only the links scripts add, on the two pages whose scripts add links.
    const elsewhere = js.filter((issue) => !Object.hasOwn(PLANTED, new URL(issue.url).pathname));
    assert.deepEqual(elsewhere.map((issue) => `${issue.type} ${new URL(issue.url).pathname}`).sort(), [
      'links_only_rendered /',
      'links_only_rendered /js-a',
    ]);
  });

  test('the details say what changed', () => {
    const detail = (type: string, path: string) =>
      issues.find((issue) => issue.type === type && issue.url === `${s.origin}${path}`)?.detail;
    assert.equal(
      detail('title_changed_by_js', '/title-planted'),
      'Title in the raw HTML: "The title in the raw HTML"; after the scripts ran: "The title a script wrote".',
    );
    assert.equal(
      detail('canonical_changed_by_js', '/canonical-planted'),
      `Canonical URL in the raw HTML: none; after the scripts ran: "${s.origin}/somewhere-else".`,
    );
    assert.equal(
      detail('noindex_changed_by_js', '/noindex-added'),
      'A script added noindex: the raw HTML has none, the rendered page is noindex.',
    );
    assert.equal(
      detail('noindex_changed_by_js', '/noindex-removed'),
      'A script removed noindex: the raw HTML is noindex, the rendered page is not.',
    );
    assert.equal(
      detail('links_only_rendered', '/links-planted'),
      `2 links only after the scripts ran: ${s.origin}/title-control and ${s.origin}/made-up-by-script.`,
    );
    // 200 words added to 50 (and the heading and link text both sides share).
    const content = /^(\d+) words of visible text after the scripts ran; (\d+) in the raw HTML\.$/.exec(
      detail('content_only_rendered', '/content-planted') ?? '',
    );
    assert.ok(content);
    assert.equal(Number(content[1]) - Number(content[2]), 200);
  });

  test('an unrendered crawl raises none of them', async () => {
    assert.deepEqual(jsIssues(await allIssues(t, key, raw.id)), []);
  });

  test('the dashboard offers Render with Chromium on the crawl form, and starts a rendered crawl with it', async () => {
    const client = await signedInClient(t);
    const list = await client.get('/app/crawls');
    assert.match(list.body, /type="checkbox" name="render"/);
    assert.match(list.body, /Render with Chromium/);
    const made = await client.post('/app/crawls', { url: `${s.origin}/js-b`, max_pages: '1', sitemap: '0', render: ['0', '1'] });
    assert.equal(made.statusCode, 303, made.body);
    const id = /\/app\/crawls\/(\d+)/.exec(String(made.headers.location))![1];
    const shown = await t.call(client.account.key, { method: 'GET', url: `/api/v1/crawls/${id}` });
    assert.equal(shown.json().data.render, true);
    const detail = await client.get(`/app/crawls/${id}`);
    assert.match(detail.body, /rendered with Chromium/);
  });

  test('rankscope crawl --render follows the links scripts add', async () => {
    const run = captureIo();
    const io = run.io;
    const database = await processDatabase();
    const env = {
      ...(process.env as Record<string, string>),
      DATABASE_URL: database.databaseUrl,
      ALLOW_PRIVATE_ADDRESSES: 'true',
      ADMIN_EMAIL: 'owner@example.com',
      CHROMIUM_PATH: CHROMIUM,
      RENDER_TIMEOUT: '10',
    };
    const args = [`${s.origin}/js-a`, '--render', '--no-sitemap', '--no-external', '--max-pages', '3', '--json'];
    try {
      assert.equal(await runCrawl(args, io, { env }), 0, run.stderr());
      // Without Chromium: a usage error before anything runs.
      const refused = await runCrawl(args, io, { env: { ...env, CHROMIUM_PATH: '/nonexistent/chromium' } });
      assert.equal(refused, 2);
      assert.match(run.stderr(), /Rendering needs Chromium: set CHROMIUM_PATH\./);
    } finally {
      await database.cleanup();
    }
    const result = JSON.parse(run.stdout());
    assert.equal(result.crawl.render, true);
    assert.deepEqual(paths(result.pages), ['/', '/js-a', '/js-b']);
    assert.ok(
      result.issues.some((issue: IssueBody) => issue.type === 'links_only_rendered' && issue.url === `${s.origin}/js-a`),
      JSON.stringify(result.issues),
    );
  });
});

describe('a rendered crawl whose page cannot be rendered', { skip: noBrowser }, () => {
  let t: TestApp;
  let key: string;
  let s: CrawlSite;

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', CHROMIUM_PATH: CHROMIUM, RENDER_TIMEOUT: '2', ANALYSIS_WORKERS: '0' });
    ({ key } = await t.account());
    s = await startCrawlSite({
      '/robots.txt': { status: 404, body: '' },
      // Never reaches network idle: a request every 100 ms.
      '/': page('never-idle', { script: `setInterval(() => fetch('/poll?' + Math.random()), 100);` }),
      '/poll': { type: 'application/json', body: '{}' },
    });
  });
  after(async () => {
    await t?.close();
    await s?.close();
  });

  test('is analysed from its raw HTML, saying why; its report is not rendered', async () => {
    const crawl = await crawlSite(t, key, { url: `${s.origin}/`, render: '1', sitemap: '0', external: '0', max_pages: '2' });
    assert.equal(crawl.status, 'finished');
    const [home] = (await allPages(t, key, crawl.id)).filter((p) => p.url === `${s.origin}/`);
    assert.equal(home.status_code, 200);
    assert.equal(
      home.error,
      'Not rendered: The page did not finish loading (load event and network idle) within 2 seconds. Its raw HTML was analysed.',
    );
    const report = (await t.call(key, { method: 'GET', url: `/api/v1/reports/${home.report_id}` })).json().data;
    assert.equal(report.rendered, false);
    assert.equal(report.results.title.value, 'Rendered fixture never-idle');
    assert.equal(crawl.pages_failed, 0);
  });
});
