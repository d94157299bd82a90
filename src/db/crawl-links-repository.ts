// A crawl's links to other hosts, images and hreflang targets (docs/external-links.md): found as
// pages complete (in the page's own transaction), then checked once per URL by the crawl's link
// workers under a lease, at most CRAWL_MAX_EXTERNAL URLs a crawl and 2 at once per host.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { CrawlLinkKind, CrawlLinksTable, Database, DatabaseEngine } from './schema.js';
import { systemClock, type Clock } from '../time.js';
import { storableOrNull } from '../model/text.js';

export type CrawlLinkRow = Selectable<CrawlLinksTable>;

/** A URL a page refers to that the crawl checks. */
export interface LinkTarget {
  url: string;
  kind: CrawlLinkKind;
}

/** What a check found, written to every row of its URL. */
export interface LinkCheckResult {
  status_code: number | null;
  final_status: number | null;
  final_url: string | null;
  error: string | null;
  bytes: number | null;
}

/** What `take` found: a URL to check now, URLs that must wait (their hosts busy, or checks under way), or nothing left. */
export type LinkTake = { url: string } | 'wait' | 'none';

/** A row keeps the first few pages referring to it (issue details name up to 10). */
export const LINK_LINKED_FROM_KEPT = 10;
const IN_CHUNK = 400;
/** What the rows of one URL share: its check's state and result. */
const SHARED = ['state', 'lease_ms', 'status_code', 'final_status', 'final_url', 'error', 'bytes'] as const;

const clip = (value: string | null, max: number) => (value === null ? null : value.slice(0, max));

export class CrawlLinksRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: DatabaseEngine,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * Records what one crawled page refers to (`targets`: distinct by URL and kind), inside the
   * transaction that completes the page, so a page counts once in `pages` whoever completes it.
   */
  async discoverIn(trx: Transaction<Database>, crawlId: number, from: string, targets: readonly LinkTarget[]): Promise<void> {
    for (let i = 0; i < targets.length; i += IN_CHUNK) {
      const chunk = targets.slice(i, i + IN_CHUNK);
      const key = (t: { url: string; kind: string }) => `${t.kind} ${t.url}`;
      const known = async (among: readonly LinkTarget[]) =>
        trx
          .selectFrom('crawl_links')
          .select(['id', 'url', 'kind', 'linked_from', ...SHARED])
          .where('crawl_id', '=', crawlId)
          .where(
            'url',
            'in',
            among.map((t) => t.url),
          )
          .execute();
      const wanted = new Set(chunk.map(key));
      const found = await known(chunk);
      const rows = new Map(found.filter((row) => wanted.has(key(row))).map((row) => [key(row), row]));
      const fresh = chunk.filter((t) => !rows.has(key(t)));
      if (fresh.length > 0) {
        // A URL known under another kind shares that row's check: its result, or its lease (the
        // check under way writes to every row of the URL), so a URL is requested once.
        const byUrl = new Map(found.map((row) => [row.url, row]));
        const inserted = await trx
          .insertInto('crawl_links')
          .values(
            fresh.map((t) => {
              const sibling = byUrl.get(t.url);
              return {
                crawl_id: crawlId,
                url: t.url,
                kind: t.kind,
                host: new URL(t.url).hostname.toLowerCase(),
                state: sibling?.state ?? ('queued' as const),
                lease_ms: sibling?.lease_ms ?? null,
                status_code: sibling?.status_code ?? null,
                final_status: sibling?.final_status ?? null,
                final_url: sibling?.final_url ?? null,
                error: sibling?.error ?? null,
                bytes: sibling?.bytes ?? null,
                pages: 1,
                linked_from: JSON.stringify([from]),
              };
            }),
          )
          .onConflict((oc) => oc.doNothing())
          .returning(['url', 'kind'])
          .execute();
        // Another page's transaction inserted some meanwhile (PostgreSQL): they count this page as known ones do.
        if (inserted.length < fresh.length) {
          const mine = new Set(inserted.map(key));
          const theirs = new Set(fresh.filter((t) => !mine.has(key(t))).map(key));
          for (const row of await known(fresh.filter((t) => theirs.has(key(t))))) {
            if (theirs.has(key(row))) rows.set(key(row), row);
          }
        }
      }
      const again: number[] = [];
      for (const row of rows.values()) {
        again.push(row.id);
        const linked = JSON.parse(row.linked_from) as string[];
        if (linked.length >= LINK_LINKED_FROM_KEPT || linked.includes(from)) continue;
        linked.push(from);
        await trx
          .updateTable('crawl_links')
          .set({ linked_from: JSON.stringify(linked) })
          .where('id', '=', row.id)
          .execute();
      }
      if (again.length > 0) {
        await trx
          .updateTable('crawl_links')
          .set((eb) => ({ pages: eb('pages', '+', 1) }))
          .where('id', 'in', again)
          .execute();
      }
    }
  }

  /**
   * Takes the next URL to check, leased until `leaseUntilMs` (all its rows): a URL whose worker
   * died (its lease passed) first, then the oldest queued URL whose host has fewer than `perHost`
   * checks under way, while the crawl has begun fewer than `cap` checks. The takes of one crawl
   * are serialised (its row locked on PostgreSQL; SQLite's writer lock), so neither the cap nor a
   * host's limit is passed by instances together.
   */
  async take(crawlId: number, leaseUntilMs: number, { cap, perHost }: { cap: number; perHost: number }): Promise<LinkTake> {
    const now = Math.floor(this.clock.now());
    return this.db.transaction().execute(async (trx) => {
      const query = trx.selectFrom('crawls').select(['status', 'external_checks']).where('id', '=', crawlId);
      const crawl = await (this.engine === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
      if (crawl?.status !== 'running') return 'none';
      const claim = async (url: string) => {
        await trx
          .updateTable('crawl_links')
          .set({ state: 'checking', lease_ms: leaseUntilMs })
          .where('crawl_id', '=', crawlId)
          .where('url', '=', url)
          .where('state', '!=', 'done')
          .execute();
        return { url };
      };
      const lost = await trx
        .selectFrom('crawl_links')
        .select('url')
        .where('crawl_id', '=', crawlId)
        .where('state', '=', 'checking')
        .where('lease_ms', '<', now)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (lost) return claim(lost.url);
      const busy = await trx
        .selectFrom('crawl_links')
        .select(['host', (eb) => eb.fn.count<number>('url').distinct().as('n')])
        .where('crawl_id', '=', crawlId)
        .where('state', '=', 'checking')
        .groupBy('host')
        .execute();
      const inFlight = busy.reduce((sum, row) => sum + Number(row.n), 0);
      if (crawl.external_checks >= cap) return inFlight > 0 ? 'wait' : 'none';
      const full = busy.filter((row) => Number(row.n) >= perHost).map((row) => row.host);
      let next = trx
        .selectFrom('crawl_links')
        .select('url')
        .where('crawl_id', '=', crawlId)
        .where('state', '=', 'queued')
        .orderBy('id')
        .limit(1);
      if (full.length > 0) next = next.where('host', 'not in', full);
      const found = await next.executeTakeFirst();
      if (!found) {
        if (inFlight > 0) return 'wait';
        const queued = await trx
          .selectFrom('crawl_links')
          .select('id')
          .where('crawl_id', '=', crawlId)
          .where('state', '=', 'queued')
          .limit(1)
          .executeTakeFirst();
        return queued ? 'wait' : 'none';
      }
      await trx
        .updateTable('crawls')
        .set((eb) => ({ external_checks: eb('external_checks', '+', 1) }))
        .where('id', '=', crawlId)
        .execute();
      return claim(found.url);
    });
  }

  /** Writes a check's result to its URL's rows; false when the URL is no longer this worker's (its lease passed and it was taken again). */
  async record(crawlId: number, url: string, leaseUntilMs: number, result: LinkCheckResult): Promise<boolean> {
    const written = await this.db
      .updateTable('crawl_links')
      .set({
        state: 'done',
        lease_ms: null,
        status_code: result.status_code,
        final_status: result.final_status,
        final_url: clip(result.final_url, 2048),
        error: clip(storableOrNull(result.error), 1000),
        bytes: result.bytes,
      })
      .where('crawl_id', '=', crawlId)
      .where('url', '=', url)
      .where('state', '=', 'checking')
      .where('lease_ms', '=', leaseUntilMs)
      .executeTakeFirst();
    return Number(written.numUpdatedRows) > 0;
  }

  /** At the crawl's end: the distinct URLs left unchecked, stored on the crawl (`external_unchecked`). */
  async settle(crawlId: number): Promise<number> {
    const row = await this.db
      .selectFrom('crawl_links')
      .select((eb) => eb.fn.count<number>('url').distinct().as('n'))
      .where('crawl_id', '=', crawlId)
      .where('state', '!=', 'done')
      .executeTakeFirstOrThrow();
    const unchecked = Number(row.n);
    await this.db.updateTable('crawls').set({ external_unchecked: unchecked }).where('id', '=', crawlId).execute();
    return unchecked;
  }

  /** A page of the crawl's checked rows, in discovery order (the API's /links). */
  async list(crawlId: number, limit: number, offset: number): Promise<{ total: number; rows: CrawlLinkRow[] }> {
    const base = this.db.selectFrom('crawl_links').where('crawl_id', '=', crawlId).where('state', '=', 'done');
    const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const total = Number(counted.n);
    if (total === 0 || offset >= total) return { total, rows: [] };
    return { total, rows: await base.selectAll().orderBy('id').limit(limit).offset(offset).execute() };
  }

  /** Every checked row of a crawl, in discovery order, a batch at a time (issues, CSV). */
  async *all(crawlId: number, batch = 1000): AsyncGenerator<CrawlLinkRow[]> {
    for (let after = 0; ; ) {
      const rows = await this.db
        .selectFrom('crawl_links')
        .selectAll()
        .where('crawl_id', '=', crawlId)
        .where('state', '=', 'done')
        .where('id', '>', after)
        .orderBy('id')
        .limit(batch)
        .execute();
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1].id;
    }
  }
}
