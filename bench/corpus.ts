// Corpus A from disk as snapshots served the way the reference run served them (docs/checks.md §7.2).

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED } from './paths.js';
import { makeSnapshot } from '../src/analysis/snapshot.js';
import type { PageSnapshot } from '../src/analysis/types.js';

export const CORPUS_DIR = join(SHARED, 'corpus');
export const PAGES_DIR = join(CORPUS_DIR, 'A');

export const REFERENCE_ROBOTS = 'User-agent: *\nDisallow: /private/\nDisallow: /*?\nSitemap: http://127.0.0.1/sitemap.xml\n';
export const REFERENCE_HEADERS = {
  'content-type': ['text/html; charset=utf-8'],
  server: ['kal-loopback/1.0'],
};

export interface CorpusPage {
  file: string;
  html: string;
}

export function corpusFiles(): string[] {
  return readdirSync(PAGES_DIR)
    .filter((f) => /^\d{3}\.html$/.test(f))
    .sort();
}

export function readCorpus(): CorpusPage[] {
  return corpusFiles().map((file) => ({ file, html: readFileSync(join(PAGES_DIR, file), 'utf8') }));
}

/** The snapshot the reference server would have produced for `file` at `origin`. */
export function corpusSnapshot(page: CorpusPage, origin = 'http://127.0.0.1'): PageSnapshot {
  return makeSnapshot({
    html: page.html,
    finalUrl: `${origin}/${page.file}`,
    headers: REFERENCE_HEADERS,
    robots: { url: `${origin}/robots.txt`, status: 200, body: REFERENCE_ROBOTS },
  });
}
