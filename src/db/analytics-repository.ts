// Analytics storage (src/tracking/): the daily salts, the events, the visitor rows and the rollups
// every stats query reads. One batch of events is one transaction: events, visitor rows and
// rollup increments commit together, so an acknowledged event is counted, and counted once.
import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Clock } from '../time.js';
import { nowTimestamp } from '../time.js';
import { type RollupDimension, rollUp, type StoredEvent, type VisitorState, visitorKey } from '../tracking/rollup.js';
import { containsIgnoringCase } from './like.js';
import type { Database, DatabaseEngine } from './schema.js';

/** Rows per multi-row INSERT (well under both engines' bound-parameter limits). */
const CHUNK = 500;
/** The first key of the PostgreSQL advisory locks taken per website while a batch is counted. */
const LOCK_SPACE = 0x5253;

export interface RollupQuery {
  websiteId: number;
  dimension: RollupDimension;
  from: string;
  to: string;
  /** Case-insensitive substring of the value. */
  search?: string | null;
}

export interface ValueCount {
  value: string;
  count: number;
}

export class AnalyticsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: DatabaseEngine,
    private readonly clock: Clock,
  ) {}

  /** The salt of a UTC day: created by the first instance that needs it, read by every other. */
  async saltFor(day: string): Promise<string> {
    await this.db
      .insertInto('analytics_salts')
      .values({ day, salt: randomBytes(32).toString('hex'), created_at: nowTimestamp(this.clock) })
      .onConflict((oc) => oc.column('day').doNothing())
      .execute();
    const row = await this.db.selectFrom('analytics_salts').select('salt').where('day', '=', day).executeTakeFirstOrThrow();
    return row.salt;
  }

  /** Stores a batch and counts it, in one transaction. */
  async record(events: StoredEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      const websites = [...new Set(events.map((e) => e.websiteId))].sort((a, b) => a - b);
      if (this.engine === 'postgres') {
        // Instances sharing the database count one website's batches one at a time (visitor
        // rows are read, then written); sorted ids keep two batches from deadlocking.
        for (const id of websites) await sql`select pg_advisory_xact_lock(${LOCK_SPACE}, ${id})`.execute(trx);
      }
      const visitors = await this.loadVisitors(trx, events);
      const { increments, changed } = rollUp(events, visitors);

      for (let i = 0; i < events.length; i += CHUNK) {
        await trx
          .insertInto('analytics_events')
          .values(
            events.slice(i, i + CHUNK).map((e) => ({
              website_id: e.websiteId,
              created_at: e.createdAt,
              name: e.name,
              page: e.page,
              visitor: e.visitor,
              referrer: e.referrer,
              source: e.source,
              campaign: e.campaign,
              browser: e.browser,
              os: e.os,
              device: e.device,
              country: e.country,
              continent: e.continent,
              city: e.city,
              language: e.language,
              resolution: e.resolution,
              props: e.props,
            })),
          )
          .execute();
      }

      const rows = [...changed].map((key) => {
        const [websiteId, day, visitor] = key.split('\u0000');
        const state = visitors.get(key) as VisitorState;
        return { website_id: Number(websiteId), day, visitor, last_seen: state.lastSeen, seen: JSON.stringify(state.seen) };
      });
      for (let i = 0; i < rows.length; i += CHUNK) {
        await trx
          .insertInto('analytics_visitors')
          .values(rows.slice(i, i + CHUNK))
          .onConflict((oc) =>
            oc.columns(['website_id', 'day', 'visitor']).doUpdateSet((eb) => ({
              last_seen: eb.ref('excluded.last_seen'),
              seen: eb.ref('excluded.seen'),
            })),
          )
          .execute();
      }

      // Sorted, so concurrent transactions touching the same rollup rows lock them in one order.
      increments.sort((a, b) =>
        a.websiteId !== b.websiteId
          ? a.websiteId - b.websiteId
          : a.dimension < b.dimension
            ? -1
            : a.dimension > b.dimension
              ? 1
              : a.day < b.day
                ? -1
                : a.day > b.day
                  ? 1
                  : a.value < b.value
                    ? -1
                    : a.value > b.value
                      ? 1
                      : 0,
      );
      for (let i = 0; i < increments.length; i += CHUNK) {
        await trx
          .insertInto('analytics_rollups')
          .values(
            increments.slice(i, i + CHUNK).map((r) => ({
              website_id: r.websiteId,
              dimension: r.dimension,
              day: r.day,
              value: r.value,
              count: r.count,
            })),
          )
          .onConflict((oc) =>
            oc
              .columns(['website_id', 'dimension', 'day', 'value'])
              .doUpdateSet((eb) => ({ count: eb('analytics_rollups.count', '+', eb.ref('excluded.count')) })),
          )
          .execute();
      }
    });
  }

  private async loadVisitors(trx: Kysely<Database>, events: StoredEvent[]): Promise<Map<string, VisitorState>> {
    const wanted = new Map<string, { websiteId: number; day: string; ids: Set<string> }>();
    for (const e of events) {
      if (e.name !== 'pageview') continue;
      const group = `${e.websiteId}\u0000${e.day}`;
      let entry = wanted.get(group);
      if (!entry) {
        entry = { websiteId: e.websiteId, day: e.day, ids: new Set() };
        wanted.set(group, entry);
      }
      entry.ids.add(e.visitor);
    }
    const visitors = new Map<string, VisitorState>();
    for (const { websiteId, day, ids } of wanted.values()) {
      const list = [...ids];
      for (let i = 0; i < list.length; i += CHUNK) {
        const rows = await trx
          .selectFrom('analytics_visitors')
          .select(['visitor', 'last_seen', 'seen'])
          .where('website_id', '=', websiteId)
          .where('day', '=', day)
          .where('visitor', 'in', list.slice(i, i + CHUNK))
          .execute();
        for (const row of rows) {
          visitors.set(visitorKey(websiteId, day, row.visitor), { lastSeen: Number(row.last_seen), seen: JSON.parse(row.seen) });
        }
      }
    }
    return visitors;
  }

  /** Each value's count summed over the days, in the asked order (ties by value), a page of them or all. */
  async totals(
    q: RollupQuery & { sortBy: 'count' | 'value'; sort: 'asc' | 'desc'; limit?: number; offset?: number },
  ): Promise<ValueCount[]> {
    let query = this.rollupsIn(q)
      .select(['value', (eb) => eb.fn.sum<number>('count').as('count')])
      .groupBy('value');
    // Values in code point order on both engines: PostgreSQL's default collation is the
    // database's locale (which ignores case and punctuation at first), SQLite's is binary.
    const byValue = this.engine === 'postgres' ? sql`value collate "C"` : sql`value`;
    query =
      q.sortBy === 'count' ? query.orderBy(sql`sum(count)`, q.sort).orderBy(byValue, 'asc') : query.orderBy(byValue, q.sort);
    if (q.limit !== undefined) query = query.limit(q.limit).offset(q.offset ?? 0);
    const rows = await query.execute();
    return rows.map((r) => ({ value: r.value, count: Number(r.count) }));
  }

  /** How many distinct values `totals` would list. */
  async countValues(q: RollupQuery): Promise<number> {
    const row = await this.rollupsIn(q)
      .select((eb) => eb.fn.count<number>('value').distinct().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private rollupsIn(q: RollupQuery) {
    let query = this.db
      .selectFrom('analytics_rollups')
      .where('website_id', '=', q.websiteId)
      .where('dimension', '=', q.dimension)
      .where('day', '>=', q.from)
      .where('day', '<=', q.to);
    if (q.search) query = query.where(containsIgnoringCase('value', q.search));
    return query;
  }

  /** Per day: the value's count on each day that has one (pageviews, visitors). */
  async perDay(websiteId: number, dimension: RollupDimension, from: string, to: string): Promise<ValueCount[]> {
    const rows = await this.db
      .selectFrom('analytics_rollups')
      .select(['day', (eb) => eb.fn.sum<number>('count').as('count')])
      .where('website_id', '=', websiteId)
      .where('dimension', '=', dimension)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .groupBy('day')
      .execute();
    return rows.map((r) => ({ value: r.day, count: Number(r.count) }));
  }

  /** Raw events older than `before` (a timestamp) are deleted; rollups stay. */
  async pruneEvents(before: string): Promise<number> {
    const result = await this.db.deleteFrom('analytics_events').where('created_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Salts and visitor rows of days before `day` are deleted: yesterday's visitors cannot be followed. */
  async pruneDays(beforeDay: string): Promise<void> {
    await this.db.deleteFrom('analytics_salts').where('day', '<', beforeDay).execute();
    await this.db.deleteFrom('analytics_visitors').where('day', '<', beforeDay).execute();
  }

  async countEvents(websiteId: number): Promise<number> {
    const row = await this.db
      .selectFrom('analytics_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('website_id', '=', websiteId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
