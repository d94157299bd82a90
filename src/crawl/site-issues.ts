// The site-level issues of a finished crawl (docs/audit-issues.md), computed from one compact
// row per URL the crawl fetched or skipped, and what the link and image checks found. Pure, and
// linear in the number of rows: every relation is looked up in a Map, near-duplicates go through
// MinHash buckets (issues/near-duplicates.ts), and each detail names a bounded number of pages.
// The first ten types are here; the rest of the catalogue is issues/catalogue-issues.ts.
//
// The pass reads the rows twice (SiteIssuePass), so that it never holds them all: the first
// reading keeps what one row's rules look up of another (issues/row-index.ts: typed arrays and
// the URLs), the second runs each row's own rules on the whole row. A crawl of 100,000 pages so
// finishes within its memory budget (bench/results/crawl.md); findSiteIssues runs both readings
// over an array.

import { ISSUE_SEVERITIES, type IssueSeverity, type IssueType } from './issues/catalogue.js';
import { Catalogue, type CatalogueRow } from './issues/catalogue-issues.js';
import type { CheckedTarget } from './issues/checked-target.js';
import { confirmNearDuplicates, type NearDuplicate, type NearDuplicatePlan } from './issues/near-duplicates.js';
import { type IndexedRow, RowIndex, type RowLookup } from './issues/row-index.js';
import { siteHostOf } from './scope.js';

export { ISSUE_SEVERITIES, ISSUE_TYPES, type IssueSeverity, type IssueType } from './issues/catalogue.js';

export interface SiteIssue {
  type: IssueType;
  severity: IssueSeverity;
  /** The URL the issue is about. */
  url: string;
  /** Why, naming the related pages. */
  detail: string;
}

export interface CrawledPage extends CatalogueRow {
  /** Normalised absolute URL of this row. */
  url: string;
  /** done = fetched and answered (any status); failed = no answer; skipped = not fetched. */
  state: 'done' | 'failed' | 'skipped';
  /** Status of the answer; redirects are not followed, so a 301 row has 301. */
  status: number | null;
  /** For 3xx rows: the normalised Location target. */
  redirectTo: string | null;
  /** robots.txt disallows it (the row is then skipped). */
  robotsDisallowed: boolean;
  /** The answer was an HTML page that was analysed. */
  html: boolean;
  title: string | null;
  description: string | null;
  /** Meta robots or X-Robots-Tag noindex. */
  noindex: boolean;
  /** Resolved and normalised like `url`, so the two compare as strings. */
  canonical: string | null;
  inSitemap: boolean;
  /** A few of the crawled pages linking here (the crawler keeps at most a handful). */
  linkedFrom: string[];
  /** How many crawled pages link here; may exceed linkedFrom.length. */
  inlinks: number;
  /** An https page loading http resources. */
  mixedContent: boolean;
}

export interface SiteIssueOptions {
  /** The site has a sitemap, so a page missing from it is worth reporting. */
  sitemapFound: boolean;
  /** What the link and image checks found (none: those types are not raised). */
  checked?: readonly CheckedTarget[];
  /** Sorted shingle hashes of the near-duplicate candidates (planFor(pages).urls); a candidate without them is not confirmed. */
  shingles?: ReadonlyMap<string, Uint32Array>;
  /** The near-duplicate plan the shingles were read for (planFor(pages)), so it is not made twice. */
  nearDuplicatePlan?: NearDuplicatePlan;
}

/** Pages named in a detail before "and N more". */
const NAMED_PAGES = 3;
/** Redirect hops spelled out in a chain's detail. */
const NAMED_HOPS = 10;
const QUOTED_TEXT = 80;

/** A page search engines may index: answered 200 with analysed HTML and nothing opting it out. */
export function indexable(
  page: Pick<CrawledPage, 'state' | 'status' | 'html' | 'noindex' | 'robotsDisallowed' | 'canonical' | 'url'>,
): boolean {
  return (
    page.state === 'done' &&
    page.status === 200 &&
    page.html &&
    !page.noindex &&
    !page.robotsDisallowed &&
    (page.canonical === null || page.canonical === page.url)
  );
}

/**
 * The issues of a crawl, ordered by severity (high first), then type, then URL.
 * `pages[0]` is the start page: it is never an orphan, as nothing needs to link to it.
 * `sitemapFound`: the site has a sitemap, so a page missing from it is worth reporting.
 */
export function findSiteIssues(pages: readonly CrawledPage[], options: SiteIssueOptions): SiteIssue[] {
  const pass = new SiteIssuePass(options.sitemapFound);
  for (const page of pages) pass.index(page);
  pass.nearDuplicates(confirmNearDuplicates(options.nearDuplicatePlan ?? pass.plan(), options.shingles ?? new Map()));
  for (const target of options.checked ?? []) pass.checked(target);
  for (const page of pages) pass.check(page);
  return pass.issues();
}

/**
 * The issue pass over rows read twice, in the same order (the start page first): index() every
 * row; plan() names the near-duplicate candidates whose text to read, nearDuplicates() takes
 * what their exact comparison confirmed (confirmNearDuplicates, or confirmSome a slice at a
 * time); checked() each link-check result; check() every row again; issues(). It holds the rows'
 * index and the issues, never the rows.
 */
export class SiteIssuePass {
  private readonly rows = new RowIndex();
  private readonly catalogue = new Catalogue(this.rows);
  private readonly found: SiteIssue[] = [];
  /** One issue per (type, url): the first one found. */
  private readonly seen = new Map<IssueType, Set<string>>();
  private readonly titles = new DuplicateTexts('title');
  private readonly descriptions = new DuplicateTexts('description');
  private readonly redirectRows: number[] = [];
  private redirectEnds: Map<string, string | null> | undefined;
  private checkedRows = 0;

  constructor(private readonly sitemapFound: boolean) {}

  readonly add = (type: IssueType, url: string, detail: string): void => {
    let urls = this.seen.get(type);
    if (urls === undefined) {
      urls = new Set();
      this.seen.set(type, urls);
    }
    if (urls.has(url)) return;
    // The index's string: an issue about a row holds no copy of its URL.
    const shared = this.rows.shared(url);
    urls.add(shared);
    this.found.push({ type, severity: ISSUE_SEVERITIES[type], url: shared, detail });
  };

  /** First reading: the next row. */
  index(page: CrawledPage): void {
    const i = this.rows.add(page);
    if (isRedirect(page)) this.redirectRows.push(i);
    if (indexable(page)) {
      this.titles.count(page.title);
      this.descriptions.count(page.description);
    }
    this.catalogue.index(i, page);
  }

  /** After the first reading: the near-duplicate candidates to confirm (their URLs: whose text to read). */
  plan(): NearDuplicatePlan {
    return this.catalogue.plan();
  }

  nearDuplicates(found: Map<string, NearDuplicate>): void {
    this.catalogue.nearDuplicates(found);
  }

  /** A link or image check's result (after the first reading). */
  checked(target: CheckedTarget): void {
    this.catalogue.checked(target, this.rows.size > 0 ? siteHostOf(this.rows.url(0)) : '', this.add);
  }

  /** Second reading: the next row, the same as the first reading's. */
  check(page: CrawledPage): void {
    const redirectEnds = this.redirects();
    const index = this.checkedRows++;
    const byUrl = this.rows;
    const add = this.add;
    if (page.state === 'done' && isError(page.status) && inlinks(page) > 0) {
      add('broken_link', page.url, `Answers ${page.status}; linked from ${linkingPages(page)}.`);
    }
    if (page.inSitemap) {
      const reasons = notIndexableReasons(page);
      if (reasons.length > 0) add('non_indexable_in_sitemap', page.url, `Listed in a sitemap, but ${reasons.join('; ')}.`);
      if (index > 0 && page.state === 'done' && inlinks(page) === 0) {
        add('orphan_page', page.url, 'Listed in a sitemap, but no crawled page links to it.');
      }
    } else if (this.sitemapFound && inlinks(page) > 0 && indexable(page)) {
      add('missing_from_sitemap', page.url, `Indexable and linked from ${linkingPages(page)}, but in no sitemap.`);
    }
    const canonicalIssue = canonicalTarget(page, byUrl);
    if (canonicalIssue) add('canonical_to_non_200', page.url, canonicalIssue);
    if (page.state === 'done' && page.mixedContent) {
      add('mixed_content', page.url, 'An HTTPS page that loads resources over plain HTTP.');
    }
    if (indexable(page)) {
      this.titles.collect(index, page.title);
      this.descriptions.collect(index, page.description);
    }
    this.catalogue.check(page, redirectEnds, add);
  }

  /** After the second reading: every issue, ordered by severity (high first), then type, then URL. */
  issues(): SiteIssue[] {
    this.redirects();
    this.titles.report(this.rows, this.add);
    this.descriptions.report(this.rows, this.add);
    this.catalogue.end(this.add);
    const rank = { high: 0, medium: 1, low: 2 };
    return this.found.sort(
      (a, b) =>
        rank[a.severity] - rank[b.severity] || compare(a.type, b.type) || compare(a.url, b.url) || compare(a.detail, b.detail),
    );
  }

  /** redirect_chain, redirect_loop and redirect_to_broken, once the first reading is done; where each redirect's chain ends. */
  private redirects(): Map<string, string | null> {
    this.redirectEnds ??= redirects(
      this.redirectRows.map((i) => this.rows.row(i) as IndexedRow & { redirectTo: string }),
      this.rows,
      this.add,
    );
    return this.redirectEnds;
  }
}

/**
 * duplicate_title and duplicate_meta_description: one issue per page whose text (title,
 * description) another indexable page shares. Compared trimmed, with runs of whitespace
 * collapsed and case ignored: search results show them so, and "Blue Widgets" and "blue
 * widgets" are the same title to a reader. The first reading counts each text by a 30-bit hash
 * (no text held); the second groups the texts whose hash came twice, exactly.
 */
class DuplicateTexts {
  private hashes = new Map<number, number>();
  private readonly groups = new Map<string, number[]>();
  private readonly texts = new Map<number, string>();

  constructor(private readonly field: 'title' | 'description') {}

  count(text: string | null): void {
    const key = duplicateKey(text);
    if (!key) return;
    const hash = textHash(key);
    if ((this.hashes.get(hash) ?? 0) < 2) this.hashes.set(hash, (this.hashes.get(hash) ?? 0) + 1);
  }

  collect(row: number, text: string | null): void {
    const key = duplicateKey(text);
    if (!key || this.hashes.get(textHash(key)) !== 2) return;
    const group = this.groups.get(key);
    if (group) group.push(row);
    else this.groups.set(key, [row]);
    this.texts.set(row, text!);
  }

  report(rows: RowIndex, add: (type: IssueType, url: string, detail: string) => void): void {
    this.hashes = new Map();
    const [type, what] =
      this.field === 'title'
        ? (['duplicate_title', 'title'] as const)
        : (['duplicate_meta_description', 'meta description'] as const);
    for (const group of this.groups.values()) {
      if (group.length < 2) continue;
      // The first few of the group, one more than shown so each page can leave itself out.
      const head = group.slice(0, NAMED_PAGES + 1).map((i) => rows.url(i));
      for (const i of group) {
        const url = rows.url(i);
        const others = head.filter((other) => other !== url);
        add(type, url, `Same ${what} ${quote(this.texts.get(i) ?? '')} as ${listed(others, group.length - 1)}.`);
      }
    }
  }
}

function duplicateKey(text: string | null): string | undefined {
  return text?.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** FNV-1a over the UTF-16 code units, cut to 30 bits (a small integer: cheap as a Map key). */
function textHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}

// Code-unit order, not localeCompare: the same on every machine.
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isError(status: number | null): boolean {
  return status !== null && status >= 400 && status <= 599;
}

function isRedirect<T extends IndexedRow | CrawledPage>(page: T | undefined): page is T & { redirectTo: string } {
  return page?.state === 'done' && page.status !== null && page.status >= 300 && page.status <= 399 && page.redirectTo !== null;
}

/** "a, b and 3 more pages": a few names, and how many others. */
function listed(names: readonly string[], total: number): string {
  const shown = names.slice(0, NAMED_PAGES);
  const more = Math.max(total, names.length) - shown.length;
  if (more <= 0) return shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
  return `${shown.join(', ')} and ${more} more ${more === 1 ? 'page' : 'pages'}`;
}

/** The crawler's count, or its sample when that is larger: a row never counts as unlinked while it names a linking page. */
function inlinks(page: CrawledPage): number {
  return Math.max(page.inlinks, page.linkedFrom.length);
}

function linkingPages(page: CrawledPage): string {
  const count = inlinks(page);
  return page.linkedFrom.length > 0 ? listed(page.linkedFrom, count) : `${count} crawled ${count === 1 ? 'page' : 'pages'}`;
}

function notIndexableReasons(page: CrawledPage): string[] {
  if (page.robotsDisallowed) return ['robots.txt disallows it'];
  if (page.state === 'failed') return ['it did not answer'];
  // Skipped for another reason (off limits, crawl stopped): nothing is known about it.
  if (page.state !== 'done') return [];
  const reasons: string[] = [];
  if (page.status !== 200) {
    reasons.push(
      isRedirect(page)
        ? `it answers ${page.status} (a redirect to ${page.redirectTo})`
        : `it answers ${page.status ?? 'no status'}`,
    );
  }
  if (page.noindex) reasons.push('it is marked noindex');
  return reasons;
}

/** Why a page's canonical is a bad one, or null. Only crawled targets are judged. */
function canonicalTarget(page: CrawledPage, byUrl: RowLookup): string | null {
  if (page.canonical === null || page.canonical === page.url) return null;
  const target = byUrl.get(page.canonical);
  if (target?.state !== 'done' || target.status === 200) return null;
  const answer = isRedirect(target) ? `answers ${target.status}, a redirect to ${target.redirectTo}` : `answers ${target.status}`;
  return `Its canonical URL ${page.canonical} ${answer}.`;
}

function quote(text: string): string {
  const collapsed = text.trim().replace(/\s+/g, ' ');
  return `"${collapsed.length > QUOTED_TEXT ? `${collapsed.slice(0, QUOTED_TEXT - 1)}…` : collapsed}"`;
}

interface ChainEnd {
  /** Redirects followed from this URL. */
  hops: number;
  /** The first URL that is not a crawled redirect, or null when the chain loops. */
  end: string | null;
}

/**
 * redirect_chain (≥ 2 hops, or any loop) and redirect_to_broken, each reported once from the
 * chain's first URL: a redirect no other redirect points to. Loops nothing leads into have no
 * such URL; each is reported once from its first row in crawl order.
 */
function redirects(
  redirectRows: readonly (IndexedRow & { redirectTo: string })[],
  byUrl: RowLookup,
  add: (type: IssueType, url: string, detail: string) => void,
): Map<string, string | null> {
  const targets = new Set(redirectRows.map((page) => page.redirectTo));
  const ends = chainEnds(redirectRows, byUrl);

  const reported = new Set<string>();
  const report = (first: IndexedRow) => {
    const { hops, end } = ends.get(first.url)!;
    // Mark what this chain covers so that a loop it runs into is not reported again.
    for (let row = byUrl.get(first.url); isRedirect(row) && !reported.has(row.url); row = byUrl.get(row.redirectTo)) {
      reported.add(row.url);
    }
    const path = hopsFrom(first.url, byUrl);
    if (end === null) {
      add('redirect_chain', first.url, `Redirects loop: ${path}.`);
      add('redirect_loop', first.url, `Redirects loop: ${path}.`);
      return;
    }
    const target = byUrl.get(end);
    const outcome = answerOf(target);
    if (hops >= 2) add('redirect_chain', first.url, `${hops} redirects: ${path}, which ${outcome}.`);
    if (target?.state === 'done' && isError(target.status)) {
      add(
        'redirect_to_broken',
        first.url,
        `Redirects to ${end}, which ${outcome}${hops >= 2 ? ` (after ${hops} redirects)` : ''}.`,
      );
    }
  };

  for (const page of redirectRows) if (!targets.has(page.url)) report(page);
  for (const page of redirectRows) if (!reported.has(page.url)) report(page);
  const endOf = new Map<string, string | null>();
  for (const [url, { end }] of ends) endOf.set(url, end);
  return endOf;
}

/** The hops and end of every redirect row, each row visited a bounded number of times. */
function chainEnds(redirectRows: readonly IndexedRow[], byUrl: RowLookup): Map<string, ChainEnd> {
  const ends = new Map<string, ChainEnd>();
  for (const start of redirectRows) {
    if (ends.has(start.url)) continue;
    // Walk to a known row, a non-redirect, or a row already on this walk (a loop).
    const path: string[] = [];
    const onPath = new Map<string, number>();
    let url = start.url;
    let tail: ChainEnd;
    for (;;) {
      const known = ends.get(url);
      if (known) {
        tail = known;
        break;
      }
      const page = byUrl.get(url);
      if (!isRedirect(page)) {
        tail = { hops: 0, end: url };
        break;
      }
      const seenAt = onPath.get(url);
      if (seenAt !== undefined) {
        // Every row of the loop is `loop length` hops from coming back: record them as looping.
        const loopLength = path.length - seenAt;
        for (const looped of path.splice(seenAt)) ends.set(looped, { hops: loopLength, end: null });
        tail = { hops: loopLength, end: null };
        break;
      }
      onPath.set(url, path.length);
      path.push(url);
      url = page.redirectTo;
    }
    // Unwind: each row is one hop more than the row it redirects to.
    for (let i = path.length - 1; i >= 0; i--) {
      tail = { hops: tail.hops + 1, end: tail.end };
      ends.set(path[i], tail);
    }
  }
  return ends;
}

/** "a → b → c", the first NAMED_HOPS hops of the chain from `url`, stopping where it loops. */
function hopsFrom(url: string, byUrl: RowLookup): string {
  const urls = [url];
  const seen = new Set(urls);
  let page = byUrl.get(url);
  while (isRedirect(page)) {
    urls.push(page.redirectTo);
    if (seen.has(page.redirectTo)) break;
    if (urls.length > NAMED_HOPS) {
      urls.push('…');
      break;
    }
    seen.add(page.redirectTo);
    page = byUrl.get(page.redirectTo);
  }
  return urls.join(' → ');
}

function answerOf(page: IndexedRow | undefined): string {
  if (page === undefined) return 'was not crawled';
  if (page.state === 'failed') return 'did not answer';
  if (page.state === 'skipped') return page.robotsDisallowed ? 'robots.txt disallows' : 'was not fetched';
  return `answers ${page.status}`;
}
