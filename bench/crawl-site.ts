// The generated site bench/crawl crawls: node:http on 127.0.0.1, `/` and `/p/1` … `/p/<N-1>`, each
// a small complete page (title, meta description, canonical, h1, three paragraphs: 200+ words of
// visible text, 12–20 internal links), a robots.txt naming the sitemap, a sitemap.xml of every page
// (past 50,000 pages, the protocol's limit a file, an index of sitemap files of 50,000 URLs each),
// and a 404 for anything else. One page in 20 (n ≡ 10 mod 20) is a near-duplicate of the page before
// it: the same paragraphs and related links under its own title, description and h1, about 0.9 of
// its word 5-shingles shared, so the crawl's near-duplicate pass (MinHash) has work to do. No link
// leaves the site.
// Every request is counted by method and path, so the bench can say what each tool fetched and
// whether any page was fetched twice.
import { createServer, type Server } from 'node:http';

export interface RequestCounts {
  /** GETs of page paths (`/`, `/p/<n>`), counting repeats. */
  pageGets: number;
  /** Distinct page paths fetched with GET. */
  pagesFetched: number;
  /** Page paths fetched with GET more than once, and how many extra GETs that made. */
  duplicatePages: number;
  duplicateGets: number;
  /** HEAD requests of page paths. */
  pageHeads: number;
  robots: number;
  sitemap: number;
  /** Requests answered 404 (anything that is not a page, robots.txt or the sitemap). */
  notFound: number;
  /** Every request. */
  total: number;
  /** TCP connections accepted. */
  connections: number;
}

export interface CrawlSite {
  base: string;
  pages: number;
  /** The deepest page in links from `/` (breadth-first), and how many pages are reachable. */
  maxDepth: number;
  reachable: number;
  /** Mean internal links per page (distinct targets). */
  meanLinks: number;
  /** Mean page size in bytes. */
  meanBytes: number;
  /** Forgets the requests counted so far. */
  reset(): void;
  counts(): RequestCounts;
  close(): Promise<void>;
}

const WORDS = (
  'audit crawl page link title meta description heading content sitemap robots index canonical ' +
  'search engine ranking keyword visitor guide product service review article section archive ' +
  'garden kitchen travel budget weekly report summary detail update season market local city'
).split(' ');

/** Deterministic pseudo-random integers (mulberry32), so every run serves the same site. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const pathOf = (n: number) => (n === 0 ? '/' : `/p/${n}`);

/** URLs a sitemap file may list (the protocol's limit). */
const SITEMAP_URLS = 50_000;

/** Page n's link targets: home and four section pages, the next five, 2n and 2n+1, six others. */
function linksOf(n: number, pages: number): number[] {
  const random = prng(n * 7919 + 17);
  const targets = [0, 1, 2, 3, 4, n + 1, n + 2, n + 3, n + 4, n + 5, 2 * n, 2 * n + 1];
  for (let k = 0; k < 6; k++) targets.push(random() % pages);
  return [...new Set(targets.filter((t) => t < pages && t !== n))];
}

function sentence(random: () => number, words: number): string {
  const picked = Array.from({ length: words }, () => WORDS[random() % WORDS.length]);
  const text = picked.join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

/** Page n is a near-duplicate of page n − 1 (one page in 20). */
export function isNearDuplicate(n: number): boolean {
  return n % 20 === 10;
}

/** Page n's link targets as its HTML lists them (a near-duplicate lists its original's, but itself). */
export function listedLinks(n: number, pages: number): number[] {
  return isNearDuplicate(n) ? linksOf(n - 1, pages).filter((t) => t !== n) : linksOf(n, pages);
}

/** The HTML of page n of a site of `pages` pages served at `base`. */
export function sitePageHtml(n: number, pages: number, base: string): string {
  // A near-duplicate's paragraphs are its original's, drawn from the same seed.
  const random = prng((isNearDuplicate(n) ? n - 1 : n) + 1);
  const topic = `${WORDS[n % WORDS.length]} ${WORDS[(n * 7) % WORDS.length]}`;
  // A near-duplicate's heading names its original's topic: only the page number differs.
  const original = isNearDuplicate(n) ? n - 1 : n;
  const heading = `${WORDS[original % WORDS.length]} ${WORDS[(original * 7) % WORDS.length]}`;
  const name = n === 0 ? 'Home' : `Page ${n}`;
  const paragraph = () => Array.from({ length: 5 }, () => sentence(random, 10 + (random() % 8))).join(' ');
  const links = listedLinks(n, pages)
    .map((t) => `<li><a href="${pathOf(t)}">${t === 0 ? 'Home' : `Page ${t}: ${WORDS[t % WORDS.length]}`}</a></li>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${name}: a ${topic} guide</title>
<meta name="description" content="${name} of the generated crawl benchmark site, about ${topic}: a short page with text and links to its neighbours, so a crawler reaches every page.">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="canonical" href="${base}${pathOf(n)}">
</head>
<body>
<header><a href="/">Benchmark site</a></header>
<main>
<h1>${name}: ${heading}</h1>
<p>${paragraph()}</p>
<p>${paragraph()}</p>
<p>${paragraph()}</p>
<h2>Related pages</h2>
<ul>${links}</ul>
</main>
<footer><p>Generated page ${n} of ${pages}.</p></footer>
</body>
</html>
`;
}

/** Serves a site of `pages` pages on 127.0.0.1 (a free port). */
export async function startCrawlSite(pages: number): Promise<CrawlSite> {
  let html: Buffer[] = [];
  let robots = Buffer.alloc(0);
  let sitemap = Buffer.alloc(0);
  /** The sitemap files an index lists (none while one file holds every page). */
  const sitemapFiles: Buffer[] = [];
  const notFound = Buffer.from('<!doctype html><html lang="en"><title>Not found</title><p>Not found</p></html>\n');
  let gets = new Uint32Array(pages);
  let heads = 0;
  let robotsCount = 0;
  let sitemapCount = 0;
  let notFoundCount = 0;
  let total = 0;
  let connections = 0;

  const pageNumber = (path: string): number => {
    if (path === '/') return 0;
    const match = /^\/p\/([1-9][0-9]*)$/.exec(path);
    if (!match) return -1;
    const n = Number(match[1]);
    return n < pages ? n : -1;
  };

  const sitemapFileNumber = (path: string): number => {
    const match = /^\/sitemap-([1-9][0-9]*)\.xml$/.exec(path);
    return match && Number(match[1]) <= sitemapFiles.length ? Number(match[1]) - 1 : -1;
  };

  const server: Server = createServer((request, response) => {
    total++;
    const path = (request.url ?? '/').split('?')[0];
    const head = request.method === 'HEAD';
    const n = pageNumber(path);
    if (n >= 0) {
      if (head) heads++;
      else gets[n]++;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': html[n].length });
      response.end(head ? undefined : html[n]);
    } else if (path === '/robots.txt') {
      robotsCount++;
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': robots.length });
      response.end(head ? undefined : robots);
    } else if (path === '/sitemap.xml' || sitemapFileNumber(path) >= 0) {
      sitemapCount++;
      const body = path === '/sitemap.xml' ? sitemap : sitemapFiles[sitemapFileNumber(path)];
      response.writeHead(200, { 'content-type': 'application/xml; charset=utf-8', 'content-length': body.length });
      response.end(head ? undefined : body);
    } else {
      notFoundCount++;
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8', 'content-length': notFound.length });
      response.end(head ? undefined : notFound);
    }
  });
  // Idle keep-alive connections are kept a minute: with Node's 5 s, a client that reuses one just as
  // the server closes it (likely on a loaded machine) sees a reset, which linkinator reports as a
  // broken link.
  server.keepAliveTimeout = 65_000;
  server.on('connection', () => connections++);
  // A deep accept queue: linkinator opens a new connection for most requests (see bench/crawl.ts),
  // and with Node's 511 a loaded machine dropped connects until they timed out.
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  html = Array.from({ length: pages }, (_, n) => Buffer.from(sitePageHtml(n, pages, base)));
  robots = Buffer.from(`User-agent: *\nAllow: /\nSitemap: ${base}/sitemap.xml\n`);
  const urlset = (from: number, to: number) =>
    Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${Array.from(
        { length: to - from },
        (_, i) => `<url><loc>${base}${pathOf(from + i)}</loc></url>`,
      ).join('\n')}\n</urlset>\n`,
    );
  if (pages <= SITEMAP_URLS) {
    sitemap = urlset(0, pages);
  } else {
    for (let from = 0; from < pages; from += SITEMAP_URLS) sitemapFiles.push(urlset(from, Math.min(pages, from + SITEMAP_URLS)));
    sitemap = Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${sitemapFiles
        .map((_, i) => `<sitemap><loc>${base}/sitemap-${i + 1}.xml</loc></sitemap>`)
        .join('\n')}\n</sitemapindex>\n`,
    );
  }

  // Breadth-first from `/`, as a crawler would go.
  const depth = new Int32Array(pages).fill(-1);
  depth[0] = 0;
  const queue = [0];
  let linkCount = 0;
  for (let i = 0; i < queue.length; i++) {
    for (const t of listedLinks(queue[i], pages)) {
      if (depth[t] < 0) {
        depth[t] = depth[queue[i]] + 1;
        queue.push(t);
      }
    }
  }
  for (let n = 0; n < pages; n++) linkCount += listedLinks(n, pages).length;

  return {
    base,
    pages,
    maxDepth: Math.max(...depth),
    reachable: queue.length,
    meanLinks: linkCount / pages,
    meanBytes: html.reduce((sum, b) => sum + b.length, 0) / pages,
    reset() {
      gets = new Uint32Array(pages);
      heads = robotsCount = sitemapCount = notFoundCount = total = connections = 0;
    },
    counts() {
      let pageGets = 0;
      let pagesFetched = 0;
      let duplicatePages = 0;
      for (const g of gets) {
        pageGets += g;
        if (g > 0) pagesFetched++;
        if (g > 1) duplicatePages++;
      }
      return {
        pageGets,
        pagesFetched,
        duplicatePages,
        duplicateGets: pageGets - pagesFetched,
        pageHeads: heads,
        robots: robotsCount,
        sitemap: sitemapCount,
        notFound: notFoundCount,
        total,
        connections,
      };
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
