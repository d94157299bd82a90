// The issue catalogue on a real crawl: a loopback fixture site whose pages are clean but for one
// planted fault each, next to control pages just inside each threshold. Each planted fault gives
// its issue (type, severity, url) and the controls give none. The rules themselves are unit
// tested in catalogue-issues.test.ts; this is the crawler recording what they need. Links and
// images on other hosts are the link checks' (their own tests); the https-only types (http_link,
// mixed_content) and slow_response are crawl-https.test.ts's.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from '../helpers/app.js';
import { type CrawlSite, redirect, type SitePage, startCrawlSite } from '../helpers/crawl-site.js';
import { allIssues, crawlSite, type IssueBody, robotsTxt, urlset } from './crawl-harness.js';

/** Words no other page shares (seeded by the page's name). */
function words(count: number, seed: string): string {
  let x = 7;
  for (const c of seed) x = (Math.imul(x, 31) + c.charCodeAt(0)) >>> 0;
  return Array.from({ length: count }, () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return `w${(x >>> 8) % 100000}`;
  }).join(' ');
}

interface PageParts {
  title?: string | null;
  description?: string | null;
  head?: string;
  body?: string;
  text?: string;
  lang?: string;
  h1?: string | null;
  links?: string[];
  headers?: Record<string, string>;
}

/** A page that passes every catalogue rule unless a part says otherwise. */
function page(name: string, parts: PageParts = {}): SitePage {
  const title = parts.title === undefined ? `Catalogue fixture page ${name}` : parts.title;
  const description =
    parts.description === undefined
      ? `A page of the catalogue fixture site, named ${name}, with a description long enough.`
      : parts.description;
  const h1 = parts.h1 === undefined ? `<h1>${name}</h1>` : parts.h1 === null ? '' : parts.h1;
  const links = (parts.links ?? ['/']).map((href) => `<a href="${href}">link</a>`).join(' ');
  return {
    type: 'text/html; charset=utf-8',
    headers: parts.headers,
    body: `<!doctype html><html lang="${parts.lang ?? 'en'}"><head><meta charset="utf-8">${
      title === null ? '' : `<title>${title}</title>`
    }${description === null ? '' : `<meta name="description" content="${description}">`}${parts.head ?? ''}</head><body>${h1}<p>${
      parts.text ?? words(250, name)
    }</p>${links}${parts.body ?? ''}</body></html>`,
  };
}

/** A port on 127.0.0.1 where nothing listens (connections are refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the issue catalogue on a crawled site', () => {
  let t: TestApp;
  let key: string;
  let site: CrawlSite;
  let issues: IssueBody[];
  let o: string;
  let refused: string;

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_WORKERS: '0' });
    ({ key } = await t.account());
    site = await startCrawlSite({});
    o = site.origin;
    refused = `http://127.0.0.1:${await closedPort()}/nothing-here`;
    const shared = words(300, 'shared');
    const nearText = shared.replace(/^(\S+ \S+ \S+)/, '$1 inserted');
    const differentText = `${shared.split(' ').slice(0, 220).join(' ')} ${words(80, 'different')}`;
    const pages: Record<string, SitePage> = {
      '/robots.txt': robotsTxt('User-agent: *\nDisallow: /private\n'),
      // Redirects and answers.
      '/loop-a': redirect('/loop-b'),
      '/loop-b': redirect('/loop-a'),
      '/error': { status: 500, type: 'text/html', body: '<!doctype html><title>Oops</title>' },
      '/moved': redirect('/target'),
      '/target': page('target'),
      '/linker': page('linker', { links: ['/', '/moved'] }),
      // More pages link to /moved than a row keeps by name (two): each is named all the same.
      '/linker-2': page('linker-2', { links: ['/', '/moved'] }),
      '/linker-3': page('linker-3', { links: ['/', '/moved'] }),
      // Titles and descriptions, and their controls.
      '/no-title': page('no-title', { title: null }),
      '/two-titles': page('two-titles', { head: '<title>Another title of this page</title>' }),
      '/t61': page('t61', { title: 'x'.repeat(61) }),
      '/t60': page('t60', { title: 'y'.repeat(60) }),
      '/t9': page('t9', { title: 'z'.repeat(9) }),
      '/t10': page('t10', { title: 'q'.repeat(10) }),
      '/no-description': page('no-description', { description: null }),
      '/two-descriptions': page('two-descriptions', {
        head: '<meta name="description" content="A second description of this page, long enough to pass.">',
      }),
      '/d161': page('d161', { description: 'd'.repeat(161) }),
      '/d160': page('d160', { description: 'e'.repeat(160) }),
      '/d49': page('d49', { description: 'f'.repeat(49) }),
      '/d50': page('d50', { description: 'g'.repeat(50) }),
      // Structure.
      '/no-h1': page('no-h1', { h1: null }),
      '/skip': page('skip', { body: '<h2>Part</h2><h4>Detail</h4>' }),
      '/h3-first': page('h3-first', { h1: '<h3>Small</h3><h1>Big</h1>' }),
      '/stray': page('stray', { head: '<iframe src="/frame"></iframe><meta name="robots" content="index">' }),
      // 199 and 200 words: the h1's and the link's words with the paragraph's.
      '/w199': page('w199', { text: words(199 - 2, 'w199') }),
      '/w200': page('w200', { text: words(200 - 2, 'w200') }),
      '/stuck': page('stuck', { links: [] }),
      '/l501': page('l501', { links: ['/', ...Array.from({ length: 500 }, (_, i) => `/#${i}`)] }),
      '/l500': page('l500', { links: ['/', ...Array.from({ length: 499 }, (_, i) => `/#${i}`)] }),
      '/noindex': page('noindex', { head: '<meta name="robots" content="noindex">' }),
      '/deep1': page('deep1', { links: ['/', '/deep2'] }),
      '/deep2': page('deep2', { links: ['/', '/deep3'] }),
      '/deep3': page('deep3', { links: ['/', '/deep4'] }),
      '/deep4': page('deep4', { links: ['/', '/deep5'] }),
      '/deep5': page('deep5'),
      // Links and markup.
      '/nofollow': page('nofollow', { links: ['/', '/target" rel="nofollow'] }),
      '/ld': page('ld', { head: '<script type="application/ld+json">{"@context": "https://schema.org", "name": "x"}</script>' }),
      '/ld-ok': page('ld-ok', {
        head: '<script type="application/ld+json">{"@context": "https://schema.org", "@graph": [{"@type": "Thing"}]}</script>',
      }),
      '/ids': page('ids', { body: '<div id="main"></div><div id="main"></div>' }),
      '/no-alt': page('no-alt', { body: '<img src="/pic.png" width="10" height="10">' }),
      '/no-size': page('no-size', { body: '<img src="/pic.png" alt="A picture" width="10">' }),
      '/img-ok': page('img-ok', { body: '<img src="/pic.png" alt="" width="10" height="10">' }),
      // Canonicals.
      '/chain': page('chain', { head: '<link rel="canonical" href="/mid">' }),
      '/mid': page('mid', { head: '<link rel="canonical" href="/target">' }),
      '/to-noindex': page('to-noindex', { head: '<link rel="canonical" href="/noindex">' }),
      '/two-canonicals': page('two-canonicals', {
        head: '<link rel="canonical" href="/two-canonicals"><link rel="canonical" href="/target">',
      }),
      '/mismatch': page('mismatch', {
        head: '<link rel="canonical" href="/mismatch">',
        headers: { link: '</target>; rel="canonical"' },
      }),
      '/agree': page('agree', { head: '<link rel="canonical" href="/agree">', headers: { link: '</agree>; rel=canonical' } }),
      '/listed-alias': page('listed-alias', { head: '<link rel="canonical" href="/target">' }),
      // hreflang.
      '/en': page('en', {
        head: '<link rel="alternate" hreflang="en" href="/en"><link rel="alternate" hreflang="de" href="/de"><link rel="alternate" hreflang="x-default" href="/en">',
        links: ['/', '/de'],
      }),
      '/de': page('de', {
        lang: 'de',
        head: '<link rel="alternate" hreflang="de" href="/de"><link rel="alternate" hreflang="en" href="/en"><link rel="alternate" hreflang="x-default" href="/en">',
      }),
      '/fr': page('fr', {
        lang: 'fr',
        head: '<link rel="alternate" hreflang="fr" href="/fr"><link rel="alternate" hreflang="en" href="/en"><link rel="alternate" hreflang="x-default" href="/fr">',
      }),
      '/hl-404': page('hl-404', {
        head: '<link rel="alternate" hreflang="en" href="/hl-404"><link rel="alternate" hreflang="x-default" href="/hl-404"><link rel="alternate" hreflang="it" href="/missing-it">',
        links: ['/', '/missing-it'],
      }),
      '/hl-noindex': page('hl-noindex', {
        head: '<link rel="alternate" hreflang="en" href="/hl-noindex"><link rel="alternate" hreflang="x-default" href="/hl-noindex"><link rel="alternate" hreflang="nl" href="/nl">',
        links: ['/', '/nl'],
      }),
      '/nl': page('nl', {
        lang: 'nl',
        head: '<meta name="robots" content="noindex"><link rel="alternate" hreflang="nl" href="/nl"><link rel="alternate" hreflang="x-default" href="/nl"><link rel="alternate" hreflang="en" href="/hl-noindex">',
      }),
      '/hl-alias': page('hl-alias', {
        head: '<link rel="alternate" hreflang="en" href="/hl-alias"><link rel="alternate" hreflang="x-default" href="/hl-alias"><link rel="alternate" hreflang="es" href="/es">',
        links: ['/', '/es'],
      }),
      '/es': page('es', {
        lang: 'es',
        head: '<link rel="canonical" href="/target"><link rel="alternate" hreflang="es" href="/es"><link rel="alternate" hreflang="x-default" href="/es"><link rel="alternate" hreflang="en" href="/hl-alias">',
      }),
      '/bad-code': page('bad-code', {
        head: '<link rel="alternate" hreflang="en" href="/bad-code"><link rel="alternate" hreflang="x-default" href="/bad-code"><link rel="alternate" hreflang="en_US" href="/bad-code">',
      }),
      '/no-self': page('no-self', { head: '<link rel="alternate" hreflang="x-default" href="/never-linked">' }),
      '/no-default': page('no-default', { head: '<link rel="alternate" hreflang="en" href="/no-default">' }),
      '/wrong-lang': page('wrong-lang', {
        lang: 'fr',
        head: '<link rel="alternate" hreflang="en-GB" href="/wrong-lang"><link rel="alternate" hreflang="x-default" href="/wrong-lang">',
      }),
      // Content.
      '/copy-a': page('copy-a', { text: words(250, 'copy'), h1: '<h1>Copy</h1>' }),
      '/copy-b': page('copy-b', { text: words(250, 'copy'), h1: '<h1>Copy</h1>' }),
      '/near-a': page('near-a', { text: shared }),
      '/near-b': page('near-b', { text: nearText }),
      '/alike': page('alike', { text: differentText }),
      // URLs.
      '/snake_case': page('snake'),
      '/CamelCase': page('camel'),
      '/double//slash': page('double'),
      [`/${'l'.repeat(115 - `${o}/`.length)}`]: page('exactly-115'),
      [`/${'m'.repeat(116 - `${o}/`.length)}`]: page('116'),
    };
    const paths = Object.keys(pages).filter(
      (p) => p !== '/robots.txt' && p !== '/deep2' && p !== '/deep3' && p !== '/deep4' && p !== '/deep5',
    );
    const linked = [...paths, '/private', refused, '/missing-it'];
    pages['/'] = page('home', { links: linked });
    pages['/sitemap.xml'] = urlset(['/', '/listed-alias', '/target'].map((p) => `${o}${p}`));
    site.set(pages);
    const crawl = await crawlSite(t, key, { url: `${o}/`, max_pages: '300' }, { timeoutMs: 120_000 });
    assert.equal(crawl.status, 'finished');
    issues = await allIssues(t, key, crawl.id);
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  /** The URLs (paths on the site) with an issue of this type, asserting its severity. */
  function urls(type: string, severity: string): string[] {
    const found = issues.filter((i) => i.type === type);
    for (const issue of found) assert.equal(issue.severity, severity, `${type} on ${issue.url}`);
    return found.map((i) => (i.url.startsWith(`${o}/`) ? i.url.slice(o.length) : i.url)).sort();
  }

  test('answers: redirect loop, no answer, server error, robots.txt, redirecting links', () => {
    assert.deepEqual(urls('redirect_loop', 'high'), ['/loop-a']);
    assert.deepEqual(urls('fetch_failed', 'high'), [refused]);
    assert.deepEqual(urls('server_error', 'high'), ['/error']);
    assert.deepEqual(urls('blocked_by_robots', 'low'), ['/private']);
    // The home page links to every redirect, the three linkers to /moved.
    assert.deepEqual(urls('redirecting_link', 'low'), ['/', '/linker', '/linker-2', '/linker-3']);
    assert.match(
      issues.find((i) => i.type === 'redirecting_link' && i.url === `${o}/linker`)!.detail,
      /moved \(redirects to .*\/target\)/,
    );
  });

  test('titles and descriptions, with controls at 60/61, 9/10, 160/161 and 49/50 characters', () => {
    assert.deepEqual(urls('missing_title', 'high'), ['/no-title']);
    assert.deepEqual(urls('multiple_titles', 'medium'), ['/two-titles']);
    assert.deepEqual(urls('title_too_long', 'low'), ['/t61']);
    assert.deepEqual(urls('title_too_short', 'low'), ['/t9']);
    assert.deepEqual(urls('missing_meta_description', 'low'), ['/no-description']);
    assert.deepEqual(urls('multiple_meta_descriptions', 'medium'), ['/two-descriptions']);
    assert.deepEqual(urls('meta_description_too_long', 'low'), ['/d161']);
    assert.deepEqual(urls('meta_description_too_short', 'low'), ['/d49']);
  });

  test('structure: h1, heading order, head tags in the body, thin (199/200 words), depth 5 (4 is fine), dead end, 501 links (500 fine), noindex', () => {
    assert.deepEqual(urls('missing_h1', 'medium'), ['/no-h1']);
    assert.deepEqual(urls('heading_order', 'low'), ['/h3-first', '/skip']);
    assert.deepEqual(urls('meta_in_body', 'medium'), ['/stray']);
    assert.match(issues.find((i) => i.type === 'meta_in_body')!.detail, /<meta name="robots"> stands after <iframe>/);
    assert.deepEqual(urls('thin_content', 'low'), ['/w199']);
    assert.deepEqual(urls('deep_page', 'low'), ['/deep5']);
    assert.deepEqual(urls('dead_end', 'low'), ['/stuck']);
    assert.deepEqual(urls('too_many_links', 'low'), ['/l501']);
    assert.deepEqual(urls('noindex_page', 'low'), ['/nl', '/noindex']);
  });

  test('links and markup: nofollow, structured data, duplicate ids, images', () => {
    assert.deepEqual(urls('internal_nofollow', 'low'), ['/nofollow']);
    assert.deepEqual(urls('invalid_structured_data', 'low'), ['/ld']);
    assert.deepEqual(urls('duplicate_id', 'low'), ['/ids']);
    assert.deepEqual(urls('image_missing_alt', 'low'), ['/no-alt']);
    assert.deepEqual(urls('image_missing_size', 'low'), ['/no-size']);
  });

  test('canonicals: chain, to noindex, several, Link header mismatch, non-canonical in the sitemap', () => {
    assert.deepEqual(urls('canonical_chain', 'medium'), ['/chain']);
    assert.deepEqual(urls('canonical_to_noindex', 'medium'), ['/to-noindex']);
    assert.deepEqual(urls('multiple_canonicals', 'medium'), ['/mismatch', '/two-canonicals']);
    assert.deepEqual(urls('canonical_mismatch', 'medium'), ['/mismatch']);
    assert.deepEqual(urls('non_canonical_in_sitemap', 'medium'), ['/listed-alias']);
  });

  test('hreflang: no return link, targets not 200 / noindex / non-canonical, codes, self, x-default, language', () => {
    assert.deepEqual(urls('hreflang_no_return', 'medium'), ['/fr']);
    assert.deepEqual(urls('hreflang_to_non_200', 'medium'), ['/hl-404']);
    assert.deepEqual(urls('hreflang_to_noindex', 'medium'), ['/hl-noindex']);
    assert.deepEqual(urls('hreflang_to_non_canonical', 'medium'), ['/hl-alias']);
    assert.deepEqual(urls('hreflang_invalid_code', 'medium'), ['/bad-code']);
    assert.deepEqual(urls('hreflang_missing_self', 'low'), ['/no-self']);
    assert.deepEqual(urls('hreflang_missing_x_default', 'low'), ['/no-default']);
    assert.deepEqual(urls('hreflang_lang_mismatch', 'low'), ['/wrong-lang']);
  });

  test('content: exact copies, a near copy (one word inserted), and a similar-but-different page that is neither', () => {
    assert.deepEqual(urls('duplicate_content', 'high'), ['/copy-a', '/copy-b']);
    assert.deepEqual(urls('near_duplicate_content', 'medium'), ['/near-a', '/near-b']);
    assert.match(
      issues.find((i) => i.type === 'near_duplicate_content' && i.url === `${o}/near-b`)!.detail,
      /^9\d % the same as .*\/near-a\.$/,
    );
  });

  test('URLs: underscore, capitals, double slash, 116 characters (115 is fine)', () => {
    assert.deepEqual(urls('url_underscore', 'low'), ['/snake_case']);
    assert.deepEqual(urls('url_uppercase', 'low'), ['/CamelCase']);
    assert.deepEqual(urls('url_multiple_slashes', 'low'), ['/double//slash']);
    assert.deepEqual(urls('url_too_long', 'low'), [`/${'m'.repeat(116 - `${o}/`.length)}`]);
  });
});
