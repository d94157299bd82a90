// The crawl's rows as one row's rules look up another (a canonical's target, a redirect's next hop,
// an hreflang alternate, a page linking to a redirect): each row's URL and a few typed arrays, not
// an object per row, so 100,000 rows take a few megabytes (bench/results/crawl.md). A row's own
// rules read the whole row (its facts parsed) in the issue pass's second reading of the rows.

/** What the rules of one row read of another row. */
export interface IndexedRow {
  url: string;
  state: 'done' | 'failed' | 'skipped';
  status: number | null;
  redirectTo: string | null;
  robotsDisallowed: boolean;
  html: boolean;
  noindex: boolean;
  canonical: string | null;
  /** The hrefs of its hreflang alternates; undefined for a row without facts. */
  hreflangHrefs: readonly string[] | undefined;
  /** Its facts hash the site's URLs it links to (link-hashes.ts). */
  hasLinkHashes: boolean;
}

/** What the index reads of a row (a CatalogueRow). */
export interface IndexableRow {
  url: string;
  state: 'done' | 'failed' | 'skipped';
  status: number | null;
  redirectTo: string | null;
  robotsDisallowed: boolean;
  html: boolean;
  noindex: boolean;
  canonical: string | null;
  facts?: { hreflang: readonly { href: string }[]; linkHashes?: string } | null;
}

/** Rows by URL (the first row of a URL), as the rules look them up. */
export interface RowLookup {
  get(url: string): IndexedRow | undefined;
}

const STATES = ['done', 'failed', 'skipped'] as const;
const HTML = 1;
const NOINDEX = 2;
const ROBOTS = 4;
const FACTS = 8;
const LINK_HASHES = 16;
const NO_STATUS = -1;
const NONE: readonly string[] = [];

export class RowIndex implements RowLookup {
  private count = 0;
  private readonly urls: string[] = [];
  private readonly first = new Map<string, number>();
  private state = new Uint8Array(1024);
  private status = new Int32Array(1024);
  private flags = new Uint8Array(1024);
  /** The row's canonical; the row's own URL string when it names itself (the usual case), so nothing more is held. */
  private readonly canonicals: (string | null)[] = [];
  private readonly redirects = new Map<number, string>();
  private readonly hreflang = new Map<number, readonly string[]>();

  get size(): number {
    return this.count;
  }

  /** Adds the next row (rows are numbered from 0 in the order added); its number. */
  add(row: IndexableRow): number {
    const i = this.count++;
    if (i === this.state.length) {
      this.state = grown(this.state, new Uint8Array(i * 2));
      this.status = grown(this.status, new Int32Array(i * 2));
      this.flags = grown(this.flags, new Uint8Array(i * 2));
    }
    this.urls.push(row.url);
    if (!this.first.has(row.url)) this.first.set(row.url, i);
    this.state[i] = STATES.indexOf(row.state);
    this.status[i] = row.status ?? NO_STATUS;
    this.flags[i] =
      (row.html ? HTML : 0) |
      (row.noindex ? NOINDEX : 0) |
      (row.robotsDisallowed ? ROBOTS : 0) |
      (row.facts ? FACTS : 0) |
      (row.facts?.linkHashes !== undefined ? LINK_HASHES : 0);
    this.canonicals.push(row.canonical === row.url ? row.url : row.canonical);
    if (row.redirectTo !== null) this.redirects.set(i, row.redirectTo);
    if (row.facts && row.facts.hreflang.length > 0) {
      this.hreflang.set(
        i,
        row.facts.hreflang.map((a) => a.href),
      );
    }
    return i;
  }

  url(i: number): string {
    return this.urls[i];
  }

  /** The URL as the index holds it (one string for the row and its issues), else `url` itself. */
  shared(url: string): string {
    const i = this.first.get(url);
    return i === undefined ? url : this.urls[i];
  }

  get(url: string): IndexedRow | undefined {
    const i = this.first.get(url);
    return i === undefined ? undefined : this.row(i);
  }

  /** Row i, as a fresh object (the rules hold it for one lookup). */
  row(i: number): IndexedRow {
    const flags = this.flags[i];
    const status = this.status[i];
    return {
      url: this.urls[i],
      state: STATES[this.state[i]],
      status: status === NO_STATUS ? null : status,
      redirectTo: this.redirects.get(i) ?? null,
      robotsDisallowed: (flags & ROBOTS) !== 0,
      html: (flags & HTML) !== 0,
      noindex: (flags & NOINDEX) !== 0,
      canonical: this.canonicals[i],
      hreflangHrefs: (flags & FACTS) === 0 ? undefined : (this.hreflang.get(i) ?? NONE),
      hasLinkHashes: (flags & LINK_HASHES) !== 0,
    };
  }
}

function grown<T extends Uint8Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
