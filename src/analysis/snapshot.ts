// PageSnapshot literals for tests, benchmarks and offline use: fill in what a plain, fast,
// successful fetch would have produced.

import type { PageSnapshot } from './types.js';
import { originOf } from './urls.js';

const DEFAULT_URL = 'http://example.test/';
/** A fixed probe path: snapshots stay deterministic, where the fetcher uses random digits. */
const PROBE_PATH = '/00000000000000000000000000000000-404-check';

export function makeSnapshot(partial: Partial<PageSnapshot> & { html: string }): PageSnapshot {
  const finalUrl = partial.finalUrl ?? partial.requestedUrl ?? DEFAULT_URL;
  const origin = originOf(finalUrl);
  return {
    requestedUrl: partial.requestedUrl ?? finalUrl,
    finalUrl,
    status: 200,
    headers: { 'content-type': ['text/html; charset=utf-8'] },
    wireBytes: Buffer.byteLength(partial.html, 'utf8'),
    charsetUsed: 'utf-8',
    loadTime: 0.1,
    robots: { url: `${origin}/robots.txt`, status: 404, body: '' },
    notFoundProbe: { url: `${origin}${PROBE_PATH}`, status: 404 },
    faviconProbe: null,
    sitemapProbe: null,
    ...partial,
  };
}
