// The catalogue's types beyond the first ten (docs/audit-issues.md), from the crawl's compact
// rows and the link checks' results. Pure and linear: every relation is a Map lookup, and each
// detail names at most DETAIL_NAMED values, then "and N more".
//
// The rows are read twice (site-issues.ts, SiteIssuePass): the first reading keeps what the
// rules of other rows need (issues/row-index.ts; the text groups and near-duplicate signatures
// here), the second runs each row's own rules on the whole row, one row at a time. A rule on a
// page's own facts goes in pageIssues.

import type { PageFacts } from '../../analysis/crawl-facts.js';
import type { Changed, JsChanges } from '../../analysis/render-diff.js';
import { codePointLength } from '../../analysis/text.js';
import type { IssueType } from './catalogue.js';
import { SIGNATURE_SIZE } from '../../analysis/shingles.js';
import type { CheckedTarget } from './checked-target.js';
import {
  type NearDuplicate,
  type NearDuplicateCandidate,
  type NearDuplicatePlan,
  planCandidates,
  planNearDuplicates,
} from './near-duplicates.js';
import { decodeLinkHashes, linkHash } from './link-hashes.js';
import type { RowIndex, RowLookup } from './row-index.js';

/** A page's facts as the issue pass holds them: the signature decoded, the Link header's canonicals beside. */
export type PageIssueFacts = Omit<PageFacts, 'signature'> & {
  signature: Uint32Array | null;
  /** `Link: <…>; rel="canonical"` URLs, normalised like row URLs. */
  headerCanonicals: string[];
  /** On a rendered crawl: what the page's scripts changed against its raw HTML (absent otherwise). */
  js?: JsChanges;
  /** The site's own URLs it links to, hashed (link-hashes.ts); absent on rows stored before them. */
  linkHashes?: string;
};

/** What the catalogue reads of a row (the rest of CrawledPage lives in site-issues.ts). */
export interface CatalogueRow {
  url: string;
  state: 'done' | 'failed' | 'skipped';
  status: number | null;
  redirectTo: string | null;
  robotsDisallowed: boolean;
  html: boolean;
  title: string | null;
  description: string | null;
  noindex: boolean;
  canonical: string | null;
  inSitemap: boolean;
  linkedFrom: string[];
  inlinks: number;
  depth?: number | null;
  responseMs?: number | null;
  error?: string | null;
  facts?: PageIssueFacts | null;
}

export type AddIssue = (type: IssueType, url: string, detail: string) => void;

/** Values named in a detail before "and N more". */
export const DETAIL_NAMED = 10;

export const LIMITS = {
  titleMax: 60,
  titleMin: 10,
  descriptionMax: 160,
  descriptionMin: 50,
  thinWords: 200,
  maxDepth: 4,
  maxLinks: 500,
  largeImageBytes: 200_000,
  slowResponseMs: 1000,
  maxUrlLength: 115,
  /** content_only_rendered: the rendered text has at least this many times the raw text's words… */
  renderedWordsRatio: 2,
  /** …and at least this many more. */
  renderedWordsMore: 100,
} as const;

/** "a, b and c", or "a, …, j and 5 more": the first DETAIL_NAMED of `total` values. */
export function named(names: readonly string[], total = names.length, noun = ''): string {
  const shown = names.slice(0, DETAIL_NAMED);
  const more = Math.max(total, names.length) - shown.length;
  if (shown.length === 0) return `${total}${noun ? ` ${noun}` : ''}`;
  if (more <= 0) return shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
  return `${shown.join(', ')} and ${more} more`;
}

/** A URL search engines get: answered 200 with analysed HTML. */
export function isPage(row: Pick<CatalogueRow, 'state' | 'status' | 'html'>): boolean {
  return row.state === 'done' && row.status === 200 && row.html;
}

/** A row that answered a redirect (3xx with a Location). */
function isRedirectRow(row: Pick<CatalogueRow, 'status' | 'redirectTo'>): boolean {
  return row.status !== null && row.status >= 300 && row.status <= 399 && row.redirectTo !== null;
}

/** A page open to indexing: no noindex, not disallowed by robots.txt (the catalogue's "indexable"). */
export function openToIndex(row: Pick<CatalogueRow, 'state' | 'status' | 'html' | 'noindex' | 'robotsDisallowed'>): boolean {
  return isPage(row) && !row.noindex && !row.robotsDisallowed;
}

const HREFLANG = /^(?:x-default|[a-z]{2}(?:-[a-z]{4})?(?:-[a-z]{2})?)$/i;

export function validHreflang(code: string): boolean {
  return HREFLANG.test(code);
}

function linkedFrom(row: CatalogueRow): string {
  const count = Math.max(row.inlinks, row.linkedFrom.length);
  return named(row.linkedFrom, count, count === 1 ? 'crawled page' : 'crawled pages');
}

/** The candidates of near_duplicate_content: indexable pages with a signature (100+ words). */
export function nearDuplicateCandidates(rows: readonly CatalogueRow[]): NearDuplicateCandidate[] {
  const candidates: NearDuplicateCandidate[] = [];
  for (const row of rows) {
    if (row.facts?.signature && openToIndex(row)) {
      candidates.push({ url: row.url, textHash: row.facts.textHash, signature: row.facts.signature });
    }
  }
  return candidates;
}

/** Which pages' stored text the near-duplicate confirmation needs. */
export function planFor(rows: readonly CatalogueRow[]): NearDuplicatePlan {
  return planNearDuplicates(nearDuplicateCandidates(rows));
}

function answerOf(target: CheckedTarget): string {
  if (target.statusCode === null) return `No answer (${target.error ?? 'no reason given'})`;
  const final = target.finalStatusCode;
  if (final != null && final !== target.statusCode) return `Answers ${target.statusCode}, then ${final} at ${target.finalUrl}`;
  return `Answers ${target.statusCode}`;
}

function isBroken(target: CheckedTarget): boolean {
  const status = target.finalStatusCode ?? target.statusCode;
  return target.statusCode === null || (status !== null && status >= 400);
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
}

function pathOf(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}

function primaryLanguage(code: string): string {
  return code.trim().split(/[-_]/)[0].toLowerCase();
}

/**
 * Every catalogue type beyond the first ten, over two readings of the rows: index() each row in
 * crawl order, then plan() (the near-duplicate candidates' pairs to confirm) and nearDuplicates()
 * (the confirmed ones), checked() each link-check result, check() each row again in the same
 * order, and end().
 */
export class Catalogue {
  // First reading: each distinct text of the rows that may be duplicates, as a number.
  private textIds = new Map<string, number>();
  /** Per text: the first row with words that has it (duplicate_content), or -1. */
  private readonly firstWithText: number[] = [];
  /** Texts of two or more rows with words: their rows. */
  private readonly textGroups = new Map<number, number[]>();
  /** near_duplicate_content's candidates: rows, texts, signatures (SIGNATURE_SIZE values each). */
  private readonly candidateRows: number[] = [];
  private readonly candidateTexts: number[] = [];
  private signatures = new Uint32Array(SIGNATURE_SIZE * 256);
  private near = new Map<string, NearDuplicate>();
  private readonly hreflangChecks = new Map<string, CheckedTarget>();
  /** Second reading: pages linking to each redirect, the redirects they name. */
  private readonly redirectLinks = new Map<string, { names: string[]; count: number }>();
  /** The redirecting rows, by the hash of their URL (link-hashes.ts). */
  private readonly redirectsByHash = new Map<number, number>();

  constructor(private readonly rows: RowIndex) {}

  /** First reading: row `i` of the index. */
  index(i: number, row: CatalogueRow): void {
    if (isRedirectRow(row)) this.redirectsByHash.set(linkHash(row.url), i);
    const facts = row.facts;
    if (!facts || !openToIndex(row)) return;
    const withWords = facts.words !== 0;
    const candidate = facts.signature != null;
    if (!withWords && !candidate) return;
    let text = this.textIds.get(facts.textHash);
    if (text === undefined) {
      text = this.firstWithText.length;
      this.textIds.set(facts.textHash, text);
      this.firstWithText.push(-1);
    }
    if (withWords) {
      const first = this.firstWithText[text];
      if (first === -1) this.firstWithText[text] = i;
      else {
        const group = this.textGroups.get(text);
        if (group) group.push(i);
        else this.textGroups.set(text, [first, i]);
      }
    }
    if (facts.signature) {
      const at = this.candidateRows.length * SIGNATURE_SIZE;
      if (at + SIGNATURE_SIZE > this.signatures.length) {
        const more = new Uint32Array(this.signatures.length * 2);
        more.set(this.signatures);
        this.signatures = more;
      }
      this.signatures.set(facts.signature.subarray(0, SIGNATURE_SIZE), at);
      this.candidateRows.push(i);
      this.candidateTexts.push(text);
    }
  }

  /** After the first reading (once): which near-duplicate candidates to confirm, and so whose text to read. */
  plan(): NearDuplicatePlan {
    this.textIds = new Map();
    const signatures = this.signatures;
    this.signatures = new Uint32Array(0);
    if (this.candidateRows.length < 2) return { tries: new Map(), urls: new Set() };
    return planCandidates({
      length: this.candidateRows.length,
      url: (k) => this.rows.url(this.candidateRows[k]),
      text: (k) => this.candidateTexts[k],
      signatures,
    });
  }

  /** The plan's confirmed pairs (confirmNearDuplicates). */
  nearDuplicates(found: Map<string, NearDuplicate>): void {
    this.near = found;
  }

  /** One link or image check's result: its own issues, and an hreflang target's answer for check(). */
  checked(target: CheckedTarget, siteHost: string, add: AddIssue): void {
    if (target.kind === 'hreflang') this.hreflangChecks.set(target.url, target);
    checkedTarget(target, siteHost, add);
  }

  /** Second reading: the row's own rules. */
  check(row: CatalogueRow, redirectEnds: ReadonlyMap<string, string | null>, add: AddIssue): void {
    urlIssues(row, add);
    if (row.state === 'failed') {
      const count = Math.max(row.inlinks, row.linkedFrom.length);
      add('fetch_failed', row.url, `${row.error ?? 'No answer'}${count > 0 ? ` Linked from ${linkedFrom(row)}.` : ''}`);
      return;
    }
    if (row.state === 'skipped') {
      if (row.robotsDisallowed && Math.max(row.inlinks, row.linkedFrom.length) > 0) {
        add('blocked_by_robots', row.url, `robots.txt disallows it; linked from ${linkedFrom(row)}.`);
      }
      return;
    }
    if (row.responseMs != null && row.responseMs > LIMITS.slowResponseMs) {
      add('slow_response', row.url, `The response headers came after ${row.responseMs} ms.`);
    }
    if (row.status !== null && row.status >= 500 && row.status <= 599) {
      const count = Math.max(row.inlinks, row.linkedFrom.length);
      add('server_error', row.url, `Answers ${row.status}${count > 0 ? `; linked from ${linkedFrom(row)}` : ''}.`);
    }
    const redirectEntry = (target: { url: string; redirectTo: string | null }) => {
      const end = redirectEnds.get(target.url);
      return `${target.url} (${end === null ? 'redirects in a loop' : `redirects to ${end ?? target.redirectTo}`})`;
    };
    const linksTo = (page: string, entry: string) => {
      const links = this.redirectLinks.get(page) ?? { names: [], count: 0 };
      if (links.count++ < DETAIL_NAMED) links.names.push(entry);
      this.redirectLinks.set(page, links);
    };
    // A page names the redirects it links to by its link hashes; a page stored without them is
    // found the old way, among the few linking pages the redirect's row keeps.
    if (isPage(row) && row.facts?.linkHashes !== undefined) {
      for (const hash of decodeLinkHashes(row.facts.linkHashes)) {
        const target = this.redirectsByHash.get(hash);
        if (target !== undefined) linksTo(row.url, redirectEntry(this.rows.row(target)));
      }
    }
    if (isRedirectRow(row)) {
      for (const from of row.linkedFrom) {
        const source = this.rows.get(from);
        if (!source || !isPage(source) || source.hasLinkHashes) continue;
        linksTo(source.url, redirectEntry(row));
      }
    }
    if (isPage(row)) pageIssues(row, this.rows, this.hreflangChecks, add);
  }

  /** After the second reading: what rests on several rows. */
  end(add: AddIssue): void {
    for (const [url, links] of this.redirectLinks) add('redirecting_link', url, `Links to ${named(links.names, links.count)}.`);
    this.contentDuplicates(add);
  }

  /** duplicate_content (same visible text) and near_duplicate_content (MinHash, then exact Jaccard). */
  private contentDuplicates(add: AddIssue): void {
    // A page with no visible text is thin_content's, not a duplicate of every other empty page.
    // Groups in the order of their first row.
    for (const group of [...this.textGroups.values()].sort((a, b) => a[0] - b[0])) {
      const head = group.slice(0, DETAIL_NAMED + 1).map((i) => this.rows.url(i));
      for (const i of group) {
        const url = this.rows.url(i);
        const others = head.filter((other) => other !== url);
        add('duplicate_content', url, `Same visible text as ${named(others, group.length - 1)}.`);
      }
    }

    if (this.candidateRows.length < 2) return;
    // Exact twins of a representative share its partner.
    const byText = new Map<number, string>();
    this.candidateRows.forEach((row, k) => {
      if (!byText.has(this.candidateTexts[k])) byText.set(this.candidateTexts[k], this.rows.url(row));
    });
    this.candidateRows.forEach((row, k) => {
      const near = this.near.get(byText.get(this.candidateTexts[k])!);
      if (near === undefined) return;
      add('near_duplicate_content', this.rows.url(row), `${Math.floor(near.similarity * 100)} % the same as ${near.other}.`);
    });
  }
}

function urlIssues(row: CatalogueRow, add: AddIssue): void {
  if (row.state === 'skipped') return;
  const path = pathOf(row.url);
  if (path === null) return;
  if (path.includes('_')) add('url_underscore', row.url, 'The path contains an underscore.');
  if (/[A-Z]/.test(path.replace(/%[0-9A-Fa-f]{2}/g, ''))) add('url_uppercase', row.url, 'The path contains capital letters.');
  if (path.includes('//')) add('url_multiple_slashes', row.url, 'The path contains "//".');
  const length = codePointLength(row.url);
  if (length > LIMITS.maxUrlLength)
    add('url_too_long', row.url, `The URL is ${length} characters long (at most ${LIMITS.maxUrlLength}).`);
}

/** The rules of one page (answered 200 with analysed HTML) on its own row and facts; `byUrl` finds the rows it names. */
function pageIssues(
  row: CatalogueRow,
  byUrl: RowLookup,
  hreflangChecks: ReadonlyMap<string, CheckedTarget>,
  add: AddIssue,
): void {
  const { url } = row;
  // Title and description: the first non-blank title, the description the meta_description check read.
  if (row.title === null) add('missing_title', url, 'No <title> in the head, or an empty one.');
  else {
    const length = codePointLength(row.title);
    if (length > LIMITS.titleMax)
      add('title_too_long', url, `The title is ${length} characters long (at most ${LIMITS.titleMax}).`);
    if (length < LIMITS.titleMin)
      add('title_too_short', url, `The title is ${length} characters long (at least ${LIMITS.titleMin}).`);
  }
  if (row.description === null) add('missing_meta_description', url, 'No meta description, or an empty one.');
  else {
    const length = codePointLength(row.description);
    if (length > LIMITS.descriptionMax) {
      add(
        'meta_description_too_long',
        url,
        `The meta description is ${length} characters long (at most ${LIMITS.descriptionMax}).`,
      );
    }
    if (length < LIMITS.descriptionMin) {
      add(
        'meta_description_too_short',
        url,
        `The meta description is ${length} characters long (at least ${LIMITS.descriptionMin}).`,
      );
    }
  }
  if (row.noindex) add('noindex_page', url, 'Marked noindex (meta robots or X-Robots-Tag).');
  if (row.depth != null && row.depth > LIMITS.maxDepth) {
    add('deep_page', url, `${row.depth} clicks from the start page (at most ${LIMITS.maxDepth}).`);
  }
  if (row.inSitemap && row.canonical !== null && row.canonical !== url) {
    add('non_canonical_in_sitemap', url, `Listed in a sitemap, but its canonical URL is ${row.canonical}.`);
  }
  canonicalIssues(row, byUrl, add);

  const facts = row.facts;
  if (!facts) return;
  if (facts.titles > 1) add('multiple_titles', url, `${facts.titles} <title> elements in the head.`);
  if (facts.descriptions > 1) add('multiple_meta_descriptions', url, `${facts.descriptions} meta descriptions in the head.`);
  if (facts.metaInBody !== null) add('meta_in_body', url, facts.metaInBody);
  if (!facts.h1) add('missing_h1', url, 'No <h1> with text.');
  if (facts.headingFault !== null) add('heading_order', url, facts.headingFault);
  if (openToIndex(row) && facts.words < LIMITS.thinWords) {
    add('thin_content', url, `${facts.words} ${facts.words === 1 ? 'word' : 'words'} (at least ${LIMITS.thinWords}).`);
  }
  if (!facts.linksOut) add('dead_end', url, 'No <a href> to any http(s) URL.');
  if (facts.links > LIMITS.maxLinks) add('too_many_links', url, `${facts.links} links (at most ${LIMITS.maxLinks}).`);
  if (facts.nofollowLinks.count > 0) {
    add('internal_nofollow', url, `rel=nofollow on links to ${named(facts.nofollowLinks.names, facts.nofollowLinks.count)}.`);
  }
  if (facts.httpLinks.count > 0) add('http_link', url, `Links to ${named(facts.httpLinks.names, facts.httpLinks.count)}.`);
  if (facts.structuredData !== null) add('invalid_structured_data', url, facts.structuredData);
  if (facts.duplicateIds.count > 0) {
    add('duplicate_id', url, `Ids used more than once: ${named(facts.duplicateIds.names, facts.duplicateIds.count)}.`);
  }
  if (facts.imagesWithoutAlt.count > 0) {
    add('image_missing_alt', url, `No alt on ${named(facts.imagesWithoutAlt.names, facts.imagesWithoutAlt.count)}.`);
  }
  if (facts.imagesWithoutSize.count > 0) {
    add(
      'image_missing_size',
      url,
      `No width and height on ${named(facts.imagesWithoutSize.names, facts.imagesWithoutSize.count)}.`,
    );
  }
  hreflangIssues(row, facts, byUrl, hreflangChecks, add);
  if (facts.js) jsIssues(url, facts.js, add);
}

/** A value of the raw HTML or the rendered DOM, quoted, or "none". */
function shown(value: string | null): string {
  return value === null ? 'none' : `"${value}"`;
}

/** The changed-by-JS types of a rendered crawl's page (docs/rendering.md). */
function jsIssues(url: string, js: JsChanges, add: AddIssue): void {
  const changed = (type: IssueType, what: string, change: Changed<string | null> | undefined) => {
    if (change)
      add(type, url, `${what} in the raw HTML: ${shown(change.raw)}; after the scripts ran: ${shown(change.rendered)}.`);
  };
  changed('title_changed_by_js', 'Title', js.title);
  changed('meta_description_changed_by_js', 'Meta description', js.description);
  changed('h1_changed_by_js', 'First <h1>', js.h1);
  changed('canonical_changed_by_js', 'Canonical URL', js.canonical);
  if (js.noindex) {
    add(
      'noindex_changed_by_js',
      url,
      js.noindex.rendered
        ? 'A script added noindex: the raw HTML has none, the rendered page is noindex.'
        : 'A script removed noindex: the raw HTML is noindex, the rendered page is not.',
    );
  }
  if (js.links && js.links.count > 0) {
    const noun = js.links.count === 1 ? 'link' : 'links';
    add(
      'links_only_rendered',
      url,
      `${js.links.count} ${noun} only after the scripts ran: ${named(js.links.names, js.links.count)}.`,
    );
  }
  const { raw, rendered } = js.words;
  if (rendered >= LIMITS.renderedWordsRatio * raw && rendered - raw >= LIMITS.renderedWordsMore) {
    add('content_only_rendered', url, `${rendered} words of visible text after the scripts ran; ${raw} in the raw HTML.`);
  }
}

function canonicalIssues(row: CatalogueRow, byUrl: RowLookup, add: AddIssue): void {
  const facts = row.facts;
  if (facts) {
    const all = [...new Set([...facts.canonicals, ...facts.headerCanonicals])];
    if (all.length > 1) add('multiple_canonicals', row.url, `Declares ${named(all)} as canonical.`);
    const tag = facts.canonicals[0];
    const header = facts.headerCanonicals[0];
    if (tag !== undefined && header !== undefined && !facts.headerCanonicals.includes(tag)) {
      add('canonical_mismatch', row.url, `<link rel=canonical> names ${tag}; the Link header names ${header}.`);
    }
  }
  const canonical = row.canonical;
  if (canonical === null || canonical === row.url) return;
  const target = byUrl.get(canonical);
  if (target === undefined) return;
  if (target.robotsDisallowed || (isPage(target) && target.noindex)) {
    add(
      'canonical_to_noindex',
      row.url,
      `Its canonical URL ${canonical} ${target.robotsDisallowed ? 'is disallowed by robots.txt' : 'is marked noindex'}.`,
    );
  }
  if (isPage(target) && target.canonical !== null && target.canonical !== canonical) {
    add('canonical_chain', row.url, `Its canonical URL ${canonical} declares ${target.canonical} as canonical.`);
  }
}

function hreflangIssues(
  row: CatalogueRow,
  facts: PageIssueFacts,
  byUrl: RowLookup,
  hreflangChecks: ReadonlyMap<string, CheckedTarget>,
  add: AddIssue,
): void {
  const alternates = facts.hreflang;
  if (alternates.length === 0) return;
  const url = row.url;
  const invalid = [...new Set(alternates.map((a) => a.lang).filter((lang) => !validHreflang(lang)))];
  if (invalid.length > 0) add('hreflang_invalid_code', url, `Not a valid hreflang: ${named(invalid.map((l) => `"${l}"`))}.`);
  const self = alternates.find((a) => a.href === url);
  if (self === undefined) add('hreflang_missing_self', url, 'None of its hreflang alternates is the page itself.');
  else if (
    facts.lang !== null &&
    facts.lang.trim() !== '' &&
    validHreflang(self.lang) &&
    self.lang.toLowerCase() !== 'x-default'
  ) {
    if (primaryLanguage(self.lang) !== primaryLanguage(facts.lang)) {
      add('hreflang_lang_mismatch', url, `Its own hreflang is "${self.lang}", its <html lang> "${facts.lang}".`);
    }
  }
  if (!alternates.some((a) => a.lang.toLowerCase() === 'x-default')) {
    add('hreflang_missing_x_default', url, 'None of its hreflang alternates is x-default.');
  }

  const noReturn: string[] = [];
  const non200: string[] = [];
  const noindex: string[] = [];
  const nonCanonical: string[] = [];
  for (const href of new Set(alternates.map((a) => a.href))) {
    if (href === url) continue;
    const target = byUrl.get(href);
    if (target === undefined) {
      const checked = hreflangChecks.get(href);
      if (checked !== undefined && (checked.finalStatusCode ?? checked.statusCode) !== 200) {
        non200.push(`${href} (${answerOf(checked).toLowerCase()})`);
      }
      continue;
    }
    if (target.state === 'failed') non200.push(`${href} (no answer)`);
    else if (target.state === 'done' && target.status !== 200) non200.push(`${href} (answers ${target.status})`);
    if (target.robotsDisallowed || (isPage(target) && target.noindex)) noindex.push(href);
    if (!isPage(target)) continue;
    if (target.canonical !== null && target.canonical !== href) nonCanonical.push(`${href} (canonical ${target.canonical})`);
    const back = target.hreflangHrefs;
    if (back && !back.includes(url)) noReturn.push(href);
  }
  if (noReturn.length > 0) add('hreflang_no_return', url, `Not listed back by ${named(noReturn)}.`);
  if (non200.length > 0) add('hreflang_to_non_200', url, `hreflang targets that do not answer 200: ${named(non200)}.`);
  if (noindex.length > 0) add('hreflang_to_noindex', url, `hreflang targets that are not indexable: ${named(noindex)}.`);
  if (nonCanonical.length > 0) {
    add('hreflang_to_non_canonical', url, `hreflang targets that declare another canonical URL: ${named(nonCanonical)}.`);
  }
}

/** broken_external_link, broken_image, external_redirect and large_image, from the link and image checks. */
function checkedTarget(target: CheckedTarget, siteHost: string, add: AddIssue): void {
  const pages = named(target.linkedFrom, target.pages, target.pages === 1 ? 'crawled page' : 'crawled pages');
  if (target.kind === 'link') {
    if (isBroken(target)) add('broken_external_link', target.url, `${answerOf(target)}; linked from ${pages}.`);
    else if (target.statusCode !== null && target.statusCode >= 300 && target.statusCode <= 399) {
      add(
        'external_redirect',
        target.url,
        `Answers ${target.statusCode}, a redirect to ${target.finalUrl ?? 'nowhere'}; linked from ${pages}.`,
      );
    }
  } else if (target.kind === 'image') {
    if (isBroken(target)) add('broken_image', target.url, `${answerOf(target)}; on ${pages}.`);
    else if (target.bytes !== null && target.bytes > LIMITS.largeImageBytes && hostOf(target.url) === siteHost) {
      add(
        'large_image',
        target.url,
        `${target.bytes.toLocaleString('en-US')} bytes (at most ${LIMITS.largeImageBytes.toLocaleString('en-US')}); on ${pages}.`,
      );
    }
  }
}
