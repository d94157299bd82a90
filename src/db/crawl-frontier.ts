// What crawled pages (or a sitemap) add to one crawl's frontier, merged in memory and written
// once per transaction: every URL looked up in one reading, each known row written once however
// many of the batch's pages link to it (the home page and the menu are linked from every page),
// the new rows in one insert. The result is the one the pages' links, taken one after another,
// would give: a new URL becomes a queued row while the crawl has room (max_pages), at the depth
// of its first link; a known one gains an inlink for each page linking to it, keeps the first
// LINKED_FROM_KEPT of those pages, and takes a shallower depth.
import type { Kysely, Transaction } from 'kysely';
import type { Database, Toggle } from './schema.js';
import { preparedWriteOn } from './prepared.js';

/** A URL a page links to (or a sitemap lists), for the frontier. */
export interface Discovered {
  url: string;
  /** Link depth; null for a URL only a sitemap lists. */
  depth: number | null;
  /** The crawled page linking to it; null for a sitemap URL. */
  from: string | null;
}

/** Sitemap URLs never compete with linked pages for the frontier's front. */
export const UNLINKED_PRIORITY = 1_000_000;
/** A page row keeps the first few pages linking to it (issue details name them). */
export const LINKED_FROM_KEPT = 2;
/** Values a batch's statement names at most (a power of two: see inLists). */
const BATCH_CHUNK = 256;

/**
 * `values` cut into lists for `IN (…)`, each padded to a power of two with its last value (which
 * changes nothing an IN matches): a batch's lists come in every length, and each length is a
 * statement of its own in the connection's statement cache (connection.ts), so unpadded they
 * filled it with hundreds of large prepared statements, tens of MB of the crawl's memory.
 */
export function* inLists<T>(values: readonly T[]): Generator<T[]> {
  for (let i = 0; i < values.length; i += BATCH_CHUNK) {
    const list = values.slice(i, i + BATCH_CHUNK);
    let size = 1;
    while (size < list.length) size *= 2;
    while (list.length < size) list.push(list[list.length - 1]);
    yield list;
  }
}

/** `rows` cut into runs whose lengths are powers of two (256, 128, …, 1), for multi-row inserts: a few statement shapes. */
function* insertRuns<T>(rows: readonly T[]): Generator<T[]> {
  let i = 0;
  for (let size = BATCH_CHUNK; size >= 1; size /= 2) {
    while (rows.length - i >= size) {
      yield rows.slice(i, i + size);
      i += size;
    }
  }
}

/** A known row's kept fields and new inlinks (about one a crawled page), compiled once per database (keepLinksOn). */
export type KeepLinks = ReturnType<typeof keepLinksOn>;

/** Parameters: linked_from, depth, priority, the inlinks gained, the row's id. */
export function keepLinksOn(db: Kysely<Database>) {
  return preparedWriteOn(
    db
      .updateTable('crawl_pages')
      .set((eb) => ({ linked_from: '', depth: 0, priority: 0, inlinks: eb('inlinks', '+', 0) }))
      .where('id', '=', 0),
  );
}

interface Entry {
  /** The row's id; undefined for a URL new in this batch. */
  id: number | undefined;
  depth: number | null;
  priority: number;
  linked: string[];
  /** Inlinks gained in this batch (a new row: all of them). */
  inlinks: number;
  /** linked_from, depth or priority changed (a known row). */
  changed: boolean;
  /** The last page counted as linking here: a page counts once, however often it names the URL. */
  countedFrom: string | null;
}

/**
 * Adds `lists` (each page's links, in the order the pages were crawled) to the crawl's frontier
 * within `trx`, whose caller holds the crawl's row (locked on PostgreSQL); `room` is how many rows
 * the crawl may still add; `keepLinks` is keepLinksOn() of the database. Returns how many rows it added.
 */
export async function addToFrontier(
  trx: Transaction<Database>,
  keepLinks: KeepLinks,
  crawlId: number,
  room: number,
  lists: readonly (readonly Discovered[])[],
): Promise<number> {
  const entries = new Map<string, Entry>();
  const urls = [...new Set(lists.flatMap((list) => list.map((d) => d.url)))];
  if (urls.length === 0) return 0;
  for (const list of inLists(urls)) {
    const rows = await trx
      .selectFrom('crawl_pages')
      .select(['id', 'url', 'depth', 'priority', 'linked_from'])
      .where('crawl_id', '=', crawlId)
      .where('url', 'in', list)
      .execute();
    for (const row of rows) {
      entries.set(row.url, {
        id: row.id,
        depth: row.depth,
        priority: row.priority,
        linked: JSON.parse(row.linked_from) as string[],
        inlinks: 0,
        changed: false,
        countedFrom: null,
      });
    }
  }
  // New URLs in the order their first link came, as many as the crawl has room for.
  const fresh: [string, Entry][] = [];
  for (const list of lists) {
    for (const d of list) {
      const entry = entries.get(d.url);
      if (entry === undefined) {
        if (fresh.length >= room) continue;
        const added: Entry = {
          id: undefined,
          depth: d.depth,
          priority: d.depth ?? UNLINKED_PRIORITY,
          linked: d.from === null ? [] : [d.from],
          inlinks: d.from === null ? 0 : 1,
          changed: false,
          countedFrom: d.from,
        };
        entries.set(d.url, added);
        fresh.push([d.url, added]);
        continue;
      }
      const newLink = d.from !== null && d.from !== entry.countedFrom && !entry.linked.includes(d.from);
      if (newLink) {
        entry.inlinks++;
        entry.countedFrom = d.from;
        if (entry.linked.length < LINKED_FROM_KEPT) {
          entry.linked.push(d.from!);
          entry.changed = true;
        }
      }
      if (d.depth !== null && (entry.depth === null || d.depth < entry.depth)) {
        entry.depth = d.depth;
        entry.priority = d.depth;
        entry.changed = true;
      }
    }
  }
  // Known rows: one statement for each whose kept fields changed, and one for each number of
  // inlinks gained by the rest (most gain one).
  const byGain = new Map<number, number[]>();
  for (const entry of entries.values()) {
    if (entry.id === undefined) continue;
    if (entry.changed) {
      await keepLinks(trx, JSON.stringify(entry.linked), entry.depth, entry.priority, entry.inlinks, entry.id);
    } else if (entry.inlinks > 0) {
      const ids = byGain.get(entry.inlinks) ?? [];
      ids.push(entry.id);
      byGain.set(entry.inlinks, ids);
    }
  }
  for (const [gain, ids] of byGain) {
    for (const list of inLists(ids)) {
      await trx
        .updateTable('crawl_pages')
        .set((eb) => ({ inlinks: eb('inlinks', '+', gain) }))
        .where('id', 'in', list)
        .execute();
    }
  }
  let added = 0;
  const listed = new Set<string>();
  for (const list of inLists(fresh.map(([url]) => url))) {
    const rows = await trx
      .selectFrom('crawl_sitemap_urls')
      .select('url')
      .where('crawl_id', '=', crawlId)
      .where('url', 'in', list)
      .execute();
    for (const row of rows) listed.add(row.url);
  }
  for (const chunk of insertRuns(fresh)) {
    const inserted = await trx
      .insertInto('crawl_pages')
      .values(
        chunk.map(([url, entry]) => ({
          crawl_id: crawlId,
          url,
          state: 'queued' as const,
          priority: entry.priority,
          depth: entry.depth,
          lease_ms: null,
          status_code: null,
          redirect_to: null,
          report_id: null,
          result: null,
          in_sitemap: (listed.has(url) ? 1 : 0) as Toggle,
          indexable: 0 as Toggle,
          robots_disallowed: 0 as Toggle,
          html: 0 as Toggle,
          noindex: 0 as Toggle,
          mixed_content: 0 as Toggle,
          title: null,
          description: null,
          canonical: null,
          inlinks: entry.inlinks,
          linked_from: JSON.stringify(entry.linked),
          error: null,
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .execute();
    added += inserted.length;
  }
  return added;
}
