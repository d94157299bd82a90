// Analytics storage (src/tracking/): the daily salts, the events, the visitor rows and the rollups
// every stats query reads. One batch of events is one transaction: events, visitor rows and
// rollup increments commit together, so an acknowledged event is counted, and counted once.
import { randomBytes } from 'node:crypto';
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import type { Clock } from '../time.js';
import { nowTimestamp } from '../time.js';
import {
  isCappedDimension,
  OTHER_VALUE,
  PROP_KEY,
  type RollupDimension,
  type RollupIncrement,
  rollUp,
  type StoredEvent,
  type VisitorState,
  visitorKey,
} from '../model/rollup.js';
import type SQLite from 'better-sqlite3';
import { type BatchFailure, writeIsolating, writeIsolatingSync } from './batch-isolation.js';
import { sqliteDatabaseOf } from './connection.js';
import { containsIgnoringCase } from './like.js';
import type { Database, DatabaseEngine } from './schema.js';
import { hasUnstorableText, storableText } from '../model/text.js';

/** Most rows per multi-row statement (well under both engines' bound-parameter limits). */
const CHUNK = 512;
/** The first key of the PostgreSQL advisory locks taken per website while a batch is counted. */
const LOCK_SPACE = 0x5253;
/** ANALYTICS_MAX_VALUES's default: distinct values a dimension keeps per website and UTC day. */
export const DEFAULT_MAX_VALUES = 10_000;

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

/** Where a page of rollup rows ends: the next page starts after this row. */
export interface RollupKey {
  day: string;
  value: string;
}

/**
 * A rollup row, and the database's lower(value) when asked for and different from the value.
 * `day` is absent when the rows asked for are of one day (the range's `from`).
 */
export interface RollupRow {
  day?: string;
  value: string;
  count: number;
  lower?: string | null;
}

export class AnalyticsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: DatabaseEngine,
    private readonly clock: Clock,
    /** Distinct values each dimension keeps per website and UTC day; later ones count under `(other)`. */
    readonly maxValues = DEFAULT_MAX_VALUES,
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

  /**
   * Stores a batch and counts it, in one transaction. Events of a website deleted since they
   * were collected are left out (they would have been deleted with it). Text a database refuses
   * (NUL) is removed first. An event the database still refuses fails alone: the batch is then
   * written again by halves (batch-isolation.ts). Returns the events not stored (none: all were).
   */
  async record(events: StoredEvent[]): Promise<BatchFailure[]> {
    if (events.length === 0) return [];
    const native = this.engine === 'sqlite' ? sqliteDatabaseOf(this.db) : undefined;
    if (native !== undefined) {
      // Holding Kysely's one connection, so no Kysely transaction is open on it meanwhile.
      return this.db.connection().execute(async () => this.recordOnSqlite(native, events));
    }
    return writeIsolating(events.map(storableEvent), (batch) => this.recordBatch(batch));
  }

  private async recordBatch(events: StoredEvent[]): Promise<void> {
    await this.writeTransaction(async (trx) => {
      const websites = [...new Set(events.map((e) => e.websiteId))].sort((a, b) => a - b);
      if (this.engine === 'postgres') {
        // Instances sharing the database count one website's batches one at a time (visitor
        // rows and value counts are read, then written); sorted ids keep two batches from deadlocking.
        for (const id of websites) await sql`select pg_advisory_xact_lock(${LOCK_SPACE}, ${id})`.execute(trx);
      }
      const existing = await trx.selectFrom('websites').select('id').where('id', 'in', websites).execute();
      let stored = events;
      if (existing.length < websites.length) {
        const kept = new Set(existing.map((w) => w.id));
        stored = events.filter((e) => kept.has(e.websiteId));
        if (stored.length === 0) return;
      }
      const storedSeen = new Map<string, { json: string; values: number }>();
      const visitors = await this.loadVisitors(trx, stored, storedSeen);
      const { increments: counted, changed } = rollUp(stored, visitors);

      await this.insertRows(trx, 'events', stored, (e, p) =>
        p.push(
          e.websiteId,
          e.createdAt,
          e.name,
          e.page,
          e.visitor,
          e.referrer,
          e.source,
          e.campaign,
          e.browser,
          e.os,
          e.device,
          e.country,
          e.continent,
          e.city,
          e.language,
          e.resolution,
          e.props,
        ),
      );

      await this.insertRows(trx, 'visitors', [...changed], (key, p) => {
        const [websiteId, day, visitor] = key.split('\u0000');
        const state = visitors.get(key) as VisitorState;
        // `seen` only grows: as many values as were read means the stored JSON is still exact.
        const before = storedSeen.get(key);
        const seen = before !== undefined && before.values === seenCount(state) ? before.json : JSON.stringify(state.seen);
        p.push(Number(websiteId), day, visitor, state.lastSeen, seen);
      });

      const { increments, caps } = await this.capValues(trx, counted);
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
      await this.insertRows(trx, 'rollups', increments, (r, p) => p.push(r.websiteId, r.dimension, r.day, r.value, r.count));
      await this.insertRows(trx, 'caps', caps, (c, p) => p.push(c.websiteId, c.day, c.dimension, c.kept));
    });
  }

  /**
   * The batch's increments with each value a dimension may not keep counted under `(other)`: a
   * value the rollups do not hold yet is kept while its website, day and dimension keep fewer
   * than maxValues, in the order the events came (as on SQLite, sqliteBatch). Also the value
   * counts that changed. Runs under the website's lock, so what it reads stays true until commit.
   */
  private async capValues(
    trx: Kysely<Database>,
    increments: RollupIncrement[],
  ): Promise<{ increments: RollupIncrement[]; caps: ValueCap[] }> {
    const groups = new Map<string, RollupIncrement[]>();
    for (const r of increments) {
      if (!isCappedDimension(r.dimension) || r.value === OTHER_VALUE) continue;
      const key = `${r.websiteId}\u0000${r.day}\u0000${r.dimension}`;
      const group = groups.get(key);
      if (group) group.push(r);
      else groups.set(key, [r]);
    }
    const fresh = new Set<RollupIncrement>();
    for (const group of groups.values()) {
      const { websiteId, day, dimension } = group[0];
      const held = new Set<string>();
      for (let i = 0; i < group.length; i += CHUNK) {
        // Padded to a power of two with its last value, as loadVisitors does.
        const values = group.slice(i, i + CHUNK).map((r) => r.value);
        const size = Math.min(CHUNK, nextPowerOfTwo(values.length));
        while (values.length < size) values.push(values[values.length - 1]);
        const { rows } = await trx.executeQuery<{ value: string }>({
          ...this.compiled('rollupValues', size),
          parameters: [websiteId, dimension, day, ...values],
        });
        for (const row of rows) held.add(row.value);
      }
      for (const r of group) if (!held.has(r.value)) fresh.add(r);
    }
    if (fresh.size === 0) return { increments, caps: [] };

    const caps = new Map<string, ValueCap>();
    for (const key of groups.keys()) {
      const [websiteId, day, dimension] = key.split('\u0000');
      caps.set(key, { websiteId: Number(websiteId), day, dimension, kept: 0 });
    }
    const days = new Set([...fresh].map((r) => `${r.websiteId}\u0000${r.day}`));
    for (const group of days) {
      const [websiteId, day] = group.split('\u0000');
      const rows = await trx
        .selectFrom('analytics_value_caps')
        .select(['dimension', 'kept'])
        .where('website_id', '=', Number(websiteId))
        .where('day', '=', day)
        .execute();
      for (const row of rows) {
        const cap = caps.get(`${group}\u0000${row.dimension}`);
        if (cap) cap.kept = Number(row.kept);
      }
    }
    const changed = new Set<ValueCap>();
    const result: RollupIncrement[] = [];
    const other = new Map<string, RollupIncrement>();
    // The keys counted under `(other)` in this batch: their values are not stored.
    const foldedKeys = new Set<string>();
    for (const r of increments) {
      if (r.propKey !== undefined && foldedKeys.has(`${r.websiteId}\u0000${r.day}\u0000${r.propKey}`)) continue;
      if (!fresh.has(r)) {
        result.push(r);
        continue;
      }
      const key = `${r.websiteId}\u0000${r.day}\u0000${r.dimension}`;
      const cap = caps.get(key) as ValueCap;
      if (cap.kept < this.maxValues) {
        cap.kept += 1;
        changed.add(cap);
        result.push(r);
        continue;
      }
      if (r.dimension === PROP_KEY) foldedKeys.add(`${r.websiteId}\u0000${r.day}\u0000${r.value}`);
      const folded = other.get(key);
      if (folded) folded.count += r.count;
      else {
        const row = { ...r, value: OTHER_VALUE };
        other.set(key, row);
        result.push(row);
      }
    }
    // A batch's own `(other)` increment (a client's literal value) and a folded one are one row.
    return { increments: mergeIncrements(result), caps: [...changed] };
  }

  private sqliteRecord: ((events: StoredEvent[]) => BatchFailure[]) | undefined;

  private recordOnSqlite(native: SQLite.Database, events: StoredEvent[]): BatchFailure[] {
    this.sqliteRecord ??= sqliteRecorder(native, this.maxValues);
    return this.sqliteRecord(events);
  }

  /**
   * A transaction that reads, then writes. On SQLite it begins IMMEDIATE, taking the write lock
   * first (another process's is waited out under busy_timeout): a deferred one reads the visitor
   * rows under a snapshot, and its first write then fails at once (SQLITE_BUSY, or
   * SQLITE_BUSY_SNAPSHOT when another process committed meanwhile): two processes on one file
   * lost about a third of their batches that way. PostgreSQL's locks wait by themselves.
   */
  private async writeTransaction(work: (trx: Kysely<Database>) => Promise<void>): Promise<void> {
    if (this.engine !== 'sqlite') return this.db.transaction().execute(work);
    await this.db.connection().execute(async (connection) => {
      await sql`begin immediate`.execute(connection);
      try {
        await work(connection);
        await sql`commit`.execute(connection);
      } catch (error) {
        await sql`rollback`.execute(connection).catch(() => {});
        throw error;
      }
    });
  }

  /**
   * Inserts `items` with the statement of `kind`, in chunks whose row counts are powers of two
   * (at most CHUNK): each size is built and compiled once, and SQLite's statement cache keeps
   * the few statements any batch needs, where a statement per batch size meant building,
   * compiling and preparing a query for nearly every batch.
   */
  private async insertRows<T>(
    trx: Kysely<Database>,
    kind: 'events' | 'visitors' | 'rollups' | 'caps',
    items: T[],
    parameters: (item: T, into: unknown[]) => void,
  ): Promise<void> {
    for (let i = 0; i < items.length; ) {
      const rows = largestPowerOfTwo(Math.min(CHUNK, items.length - i));
      const values: unknown[] = [];
      for (let j = i; j < i + rows; j++) parameters(items[j], values);
      await trx.executeQuery({ ...this.compiled(kind, rows), parameters: values });
      i += rows;
    }
  }

  private readonly statements = new Map<string, CompiledQuery>();

  /** A statement of `rows` rows of placeholders, compiled once; parameters go row by row, in column order. */
  private compiled(
    kind: 'events' | 'visitors' | 'rollups' | 'caps' | 'visitorRows' | 'rollupValues',
    rows: number,
  ): CompiledQuery {
    const key = `${kind} ${rows}`;
    let statement = this.statements.get(key);
    if (statement === undefined) {
      const placeholders = <Row>(row: Row) => Array.from({ length: rows }, () => ({ ...row }));
      const db = this.db;
      switch (kind) {
        case 'events':
          statement = db
            .insertInto('analytics_events')
            .values(
              placeholders({
                website_id: 0,
                created_at: '',
                name: '',
                page: '',
                visitor: '',
                referrer: '',
                source: '',
                campaign: '',
                browser: '',
                os: '',
                device: '',
                country: '',
                continent: '',
                city: '',
                language: '',
                resolution: '',
                props: '',
              }),
            )
            .compile();
          break;
        case 'visitors':
          statement = db
            .insertInto('analytics_visitors')
            .values(placeholders({ website_id: 0, day: '', visitor: '', last_seen: 0, seen: '' }))
            .onConflict((oc) =>
              oc.columns(['website_id', 'day', 'visitor']).doUpdateSet((eb) => ({
                last_seen: eb.ref('excluded.last_seen'),
                seen: eb.ref('excluded.seen'),
              })),
            )
            .compile();
          break;
        case 'rollups':
          statement = db
            .insertInto('analytics_rollups')
            .values(placeholders({ website_id: 0, dimension: '', day: '', value: '', count: 0 }))
            .onConflict((oc) =>
              oc
                .columns(['website_id', 'dimension', 'day', 'value'])
                .doUpdateSet((eb) => ({ count: eb('analytics_rollups.count', '+', eb.ref('excluded.count')) })),
            )
            .compile();
          break;
        case 'caps':
          // Absolute counts: the website's lock makes this batch the only writer of its rows.
          statement = db
            .insertInto('analytics_value_caps')
            .values(placeholders({ website_id: 0, day: '', dimension: '', kept: 0 }))
            .onConflict((oc) =>
              oc.columns(['website_id', 'day', 'dimension']).doUpdateSet((eb) => ({ kept: eb.ref('excluded.kept') })),
            )
            .compile();
          break;
        case 'rollupValues':
          statement = db
            .selectFrom('analytics_rollups')
            .select('value')
            .where('website_id', '=', 0)
            .where('dimension', '=', '')
            .where('day', '=', '')
            .where(
              'value',
              'in',
              Array.from({ length: rows }, () => ''),
            )
            .compile();
          break;
        case 'visitorRows':
          statement = db
            .selectFrom('analytics_visitors')
            .select(['visitor', 'last_seen', 'seen'])
            .where('website_id', '=', 0)
            .where('day', '=', '')
            .where(
              'visitor',
              'in',
              Array.from({ length: rows }, () => ''),
            )
            .compile();
          break;
      }
      this.statements.set(key, statement);
    }
    return statement;
  }

  /** The batch's visitors' rows, by visitorKey; `storedSeen` gets each one's `seen` JSON as read. */
  private async loadVisitors(
    trx: Kysely<Database>,
    events: StoredEvent[],
    storedSeen: Map<string, { json: string; values: number }>,
  ): Promise<Map<string, VisitorState>> {
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
        // The list padded to a power of two with its last id: a handful of statements for any size.
        const chunk = list.slice(i, i + CHUNK);
        const size = Math.min(CHUNK, nextPowerOfTwo(chunk.length));
        while (chunk.length < size) chunk.push(chunk[chunk.length - 1]);
        const { rows } = await trx.executeQuery<{ visitor: string; last_seen: number | string; seen: string }>({
          ...this.compiled('visitorRows', size),
          parameters: [websiteId, day, ...chunk],
        });
        for (const row of rows) {
          const key = visitorKey(websiteId, day, row.visitor);
          const state = { lastSeen: Number(row.last_seen), seen: JSON.parse(row.seen) };
          visitors.set(key, state);
          storedSeen.set(key, { json: row.seen, values: seenCount(state) });
        }
      }
    }
    return visitors;
  }

  /** Each value's count summed over the days, in the asked order (ties by value), a page of them or all. */
  async totals(
    q: RollupQuery & { sortBy: 'count' | 'value'; sort: 'asc' | 'desc'; limit?: number; offset?: number },
  ): Promise<ValueCount[]> {
    return (await this.totalsCounted(q)).rows;
  }

  /**
   * A page of `totals` and how many values there are, from one pass over the rollups: the count
   * is a window over the groups (a separate count(distinct) cost PostgreSQL twice the time, as
   * it sorts the values). A page past the end has no row to carry it, so it is counted apart.
   */
  async totalsPage(
    q: RollupQuery & { sortBy: 'count' | 'value'; sort: 'asc' | 'desc'; limit: number; offset: number },
  ): Promise<{ total: number; rows: ValueCount[] }> {
    const { total, rows } = await this.totalsCounted(q);
    return { total: total ?? (q.offset > 0 ? await this.countValues(q) : 0), rows };
  }

  /** `totals`, and the number of values when any row came back (else null). */
  private async totalsCounted(
    q: RollupQuery & { sortBy: 'count' | 'value'; sort: 'asc' | 'desc'; limit?: number; offset?: number },
  ): Promise<{ total: number | null; rows: ValueCount[] }> {
    let query = this.rollupsIn(q)
      .select(['value', (eb) => eb.fn.sum<number>('count').as('count'), sql<number>`count(*) over ()`.as('total')])
      .groupBy('value');
    // Values in code point order on both engines: PostgreSQL's default collation is the
    // database's locale (which ignores case and punctuation at first), SQLite's is binary.
    const byValue = this.engine === 'postgres' ? sql`value collate "C"` : sql`value`;
    query =
      q.sortBy === 'count' ? query.orderBy(sql`sum(count)`, q.sort).orderBy(byValue, 'asc') : query.orderBy(byValue, q.sort);
    if (q.limit !== undefined) query = query.limit(q.limit).offset(q.offset ?? 0);
    const rows = await query.execute();
    return {
      total: rows.length > 0 ? Number(rows[0].total) : null,
      rows: rows.map((r) => ({ value: r.value, count: Number(r.count) })),
    };
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

  /**
   * How many rows a caller reading a range should ask `rollupRows` for at once. SQLite runs in
   * this thread, so a page costs the event loop its whole read: 4,096 rows, about 3 ms. A
   * PostgreSQL page costs the event loop only its parsing, which arrives in socket-sized parts,
   * and each statement a round trip: 16,384.
   */
  get rowsPerRead(): number {
    return this.engine === 'sqlite' ? 4096 : 16_384;
  }

  /**
   * A range's rollup rows of one dimension, at most `limit`, in (day, value) order from the row
   * after `after` (keyset paging on the primary key, so each page costs its own rows whatever
   * came before). Values are in the column's order, which on PostgreSQL is the database's
   * collation: callers that need code point order sort each day's rows themselves. `lower`
   * adds the database's lower(value) where it differs, for a search to match as `lower(value)
   * like` does.
   */
  async rollupRows(q: {
    websiteId: number;
    dimension: RollupDimension;
    from: string;
    to: string;
    after: RollupKey | null;
    limit: number;
    lower: boolean;
  }): Promise<RollupRow[]> {
    // One day (today, read for every query): its rows are that day's, so the day is not sent
    // (a quarter of the time of 10,000 rows from PostgreSQL).
    const oneDay = q.from === q.to;
    let query = this.db
      .selectFrom('analytics_rollups')
      .select(['value', 'count'])
      .$if(!oneDay, (qb) => qb.select('day'))
      .where('website_id', '=', q.websiteId)
      .where('dimension', '=', q.dimension)
      .where('day', '<=', q.to);
    // The row after `after` starts the page (its day is in the range): with `day >= from` beside
    // it, SQLite would seek to `from` and filter every row before the key.
    const after = q.after;
    query =
      after === null
        ? query.where('day', '>=', q.from)
        : query.where(({ eb, refTuple, tuple }) => eb(refTuple('day', 'value'), '>', tuple(after.day, after.value)));
    const rows = await query
      .$if(q.lower, (qb) => qb.select(sql<string | null>`nullif(lower(value), value)`.as('lower')))
      .orderBy('day')
      .orderBy('value')
      .limit(q.limit)
      .execute();
    // A count is a bigint (node-postgres gives a string): made a number in place, so a page of
    // rows is not copied (a build reads hundreds of thousands). Rows are not given a day either:
    // adding a property to 10,000 of node-postgres's rows cost as much as reading them.
    for (const row of rows as { count: number | string }[]) if (typeof row.count !== 'number') row.count = Number(row.count);
    return rows as RollupRow[];
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

  /**
   * Salts and visitor rows of days before `day` are deleted: yesterday's visitors cannot be
   * followed. So are those days' value counts: events only arrive for the current day.
   */
  async pruneDays(beforeDay: string): Promise<void> {
    await this.db.deleteFrom('analytics_salts').where('day', '<', beforeDay).execute();
    await this.db.deleteFrom('analytics_visitors').where('day', '<', beforeDay).execute();
    await this.db.deleteFrom('analytics_value_caps').where('day', '<', beforeDay).execute();
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

function largestPowerOfTwo(n: number): number {
  return 2 ** Math.floor(Math.log2(n));
}

function nextPowerOfTwo(n: number): number {
  return 2 ** Math.ceil(Math.log2(n));
}

function seenCount(state: VisitorState): number {
  let n = 0;
  for (const dimension in state.seen) n += state.seen[dimension].length;
  return n;
}

/** How many values a website's dimension keeps on a day. */
interface ValueCap {
  websiteId: number;
  day: string;
  dimension: string;
  kept: number;
}

/** Increments of one row summed into one (a multi-row upsert may not touch a row twice). */
function mergeIncrements(increments: RollupIncrement[]): RollupIncrement[] {
  const rows = new Map<string, RollupIncrement>();
  for (const r of increments) {
    const key = `${r.websiteId}\u0000${r.dimension}\u0000${r.day}\u0000${r.value}`;
    const found = rows.get(key);
    if (found) found.count += r.count;
    else rows.set(key, r);
  }
  return rows.size === increments.length ? increments : [...rows.values()];
}

/** The event's text fields, as stored (StoredEvent's strings: the body's, the URL's, the client's). */
const TEXT_FIELDS = [
  'name',
  'page',
  'visitor',
  'referrer',
  'source',
  'campaign',
  'browser',
  'os',
  'device',
  'country',
  'continent',
  'city',
  'language',
  'resolution',
  'props',
] as const;

/**
 * The event without the characters a database refuses (a NUL, in any field: PostgreSQL fails the
 * whole statement on one). An anonymous event is cleaned, never refused; the event itself when clean.
 */
export function storableEvent(event: StoredEvent): StoredEvent {
  let clean: Record<string, unknown> | undefined;
  for (const field of TEXT_FIELDS) {
    const value = event[field];
    if (typeof value === 'string' && hasUnstorableText(value)) {
      clean ??= { ...event };
      clean[field] = storableText(value);
    }
  }
  return (clean as StoredEvent | undefined) ?? event;
}

interface SqliteStatements {
  websiteExists: SQLite.Statement;
  visitor: SQLite.Statement;
  insertEvent: SQLite.Statement;
  insertVisitor: SQLite.Statement;
  updateVisitor: SQLite.Statement;
  touchVisitor: SQLite.Statement;
  upsertRollup: SQLite.Statement;
  addToRollup: SQLite.Statement;
  insertRollup: SQLite.Statement;
  valueCap: SQLite.Statement;
  saveValueCap: SQLite.Statement;
  maxValues: number;
  batch: SQLite.Transaction<(events: StoredEvent[], s: SqliteStatements) => void>;
}

/**
 * record() on a SQLite connection: the same rows through prepared statements, in one synchronous
 * transaction begun IMMEDIATE (see writeTransaction), where a batch through Kysely cost a promise
 * and a round of query building per statement. The repository runs it on its own connection;
 * the server runs it on the analytics write thread's (analytics-write-thread.ts). Returns the
 * events not stored, as record() does.
 */
export function sqliteRecorder(
  native: SQLite.Database,
  maxValues = DEFAULT_MAX_VALUES,
): (events: StoredEvent[]) => BatchFailure[] {
  const statements = sqliteStatements(native, maxValues);
  return (events) =>
    events.length === 0
      ? []
      : writeIsolatingSync(events.map(storableEvent), (batch) => statements.batch.immediate(batch, statements));
}

function sqliteStatements(native: SQLite.Database, maxValues: number): SqliteStatements {
  return {
    websiteExists: native.prepare('select 1 from websites where id = ?').pluck(),
    visitor: native.prepare('select last_seen, seen from analytics_visitors where website_id = ? and day = ? and visitor = ?'),
    insertEvent: native.prepare(
      'insert into analytics_events (website_id, created_at, name, page, visitor, referrer, source, campaign, browser, os, ' +
        'device, country, continent, city, language, resolution, props) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    insertVisitor: native.prepare(
      'insert into analytics_visitors (website_id, day, visitor, last_seen, seen) values (?, ?, ?, ?, ?)',
    ),
    updateVisitor: native.prepare(
      'update analytics_visitors set last_seen = ?, seen = ? where website_id = ? and day = ? and visitor = ?',
    ),
    touchVisitor: native.prepare('update analytics_visitors set last_seen = ? where website_id = ? and day = ? and visitor = ?'),
    upsertRollup: native.prepare(
      'insert into analytics_rollups (website_id, dimension, day, value, count) values (?, ?, ?, ?, ?) ' +
        'on conflict (website_id, dimension, day, value) do update set count = analytics_rollups.count + excluded.count',
    ),
    addToRollup: native.prepare(
      'update analytics_rollups set count = count + ? where website_id = ? and dimension = ? and day = ? and value = ?',
    ),
    insertRollup: native.prepare(
      'insert into analytics_rollups (website_id, dimension, day, value, count) values (?, ?, ?, ?, ?)',
    ),
    valueCap: native.prepare('select kept from analytics_value_caps where website_id = ? and day = ? and dimension = ?').pluck(),
    saveValueCap: native.prepare(
      'insert into analytics_value_caps (website_id, day, dimension, kept) values (?, ?, ?, ?) ' +
        'on conflict (website_id, day, dimension) do update set kept = excluded.kept',
    ),
    maxValues,
    batch: native.transaction(sqliteBatch),
  };
}

/** One batch on SQLite, inside its transaction: the rows record() writes through Kysely on PostgreSQL. */
function sqliteBatch(events: StoredEvent[], s: SqliteStatements): void {
  // Events of a website deleted since they were collected are left out.
  const websites = new Set<number>();
  for (const e of events) websites.add(e.websiteId);
  let stored = events;
  for (const id of websites) if (s.websiteExists.get(id) === undefined) stored = stored.filter((e) => e.websiteId !== id);
  if (stored.length === 0) return;

  // The batch's visitors as stored: their rows, and each one's `seen` JSON as read.
  const visitors = new Map<string, VisitorState>();
  const owners = new Map<string, StoredEvent>();
  const storedSeen = new Map<string, { json: string; values: number }>();
  for (const e of stored) {
    if (e.name !== 'pageview') continue;
    const key = visitorKey(e.websiteId, e.day, e.visitor);
    if (owners.has(key)) continue;
    owners.set(key, e);
    const row = s.visitor.get(e.websiteId, e.day, e.visitor) as { last_seen: number | bigint; seen: string } | undefined;
    if (row === undefined) continue;
    const state = { lastSeen: Number(row.last_seen), seen: JSON.parse(row.seen) };
    visitors.set(key, state);
    storedSeen.set(key, { json: row.seen, values: seenCount(state) });
  }
  const { increments, changed } = rollUp(stored, visitors);

  for (const e of stored) {
    s.insertEvent.run(
      e.websiteId,
      e.createdAt,
      e.name,
      e.page,
      e.visitor,
      e.referrer,
      e.source,
      e.campaign,
      e.browser,
      e.os,
      e.device,
      e.country,
      e.continent,
      e.city,
      e.language,
      e.resolution,
      e.props,
    );
  }
  for (const key of changed) {
    const e = owners.get(key) as StoredEvent;
    const state = visitors.get(key) as VisitorState;
    const before = storedSeen.get(key);
    // The row was read in this transaction, which holds the write lock: it is there (an update
    // by its key), or it is not (an insert). `seen` only grows: as many values means unchanged.
    if (before === undefined) s.insertVisitor.run(e.websiteId, e.day, e.visitor, state.lastSeen, JSON.stringify(state.seen));
    else if (before.values === seenCount(state)) s.touchVisitor.run(state.lastSeen, e.websiteId, e.day, e.visitor);
    else s.updateVisitor.run(state.lastSeen, JSON.stringify(state.seen), e.websiteId, e.day, e.visitor);
  }
  // A value the rollups hold gets its count; a new one is kept while its website, day and
  // dimension keep fewer than maxValues, else it counts under `(other)` (capValues on PostgreSQL).
  const caps = new Map<string, ValueCap & { changed: boolean }>();
  // The keys counted under `(other)` in this batch: their values are not stored.
  const foldedKeys = new Set<string>();
  for (const r of increments) {
    if (r.propKey !== undefined && foldedKeys.size > 0 && foldedKeys.has(`${r.websiteId}\u0000${r.day}\u0000${r.propKey}`)) {
      continue;
    }
    if (!isCappedDimension(r.dimension) || r.value === OTHER_VALUE) {
      s.upsertRollup.run(r.websiteId, r.dimension, r.day, r.value, r.count);
      continue;
    }
    if (s.addToRollup.run(r.count, r.websiteId, r.dimension, r.day, r.value).changes > 0) continue;
    const key = `${r.websiteId}\u0000${r.day}\u0000${r.dimension}`;
    let cap = caps.get(key);
    if (cap === undefined) {
      const kept = s.valueCap.get(r.websiteId, r.day, r.dimension) as number | bigint | undefined;
      cap = { websiteId: r.websiteId, day: r.day, dimension: r.dimension, kept: Number(kept ?? 0), changed: false };
      caps.set(key, cap);
    }
    if (cap.kept < s.maxValues) {
      s.insertRollup.run(r.websiteId, r.dimension, r.day, r.value, r.count);
      cap.kept += 1;
      cap.changed = true;
    } else {
      s.upsertRollup.run(r.websiteId, r.dimension, r.day, OTHER_VALUE, r.count);
      if (r.dimension === PROP_KEY) foldedKeys.add(`${r.websiteId}\u0000${r.day}\u0000${r.value}`);
    }
  }
  for (const cap of caps.values()) if (cap.changed) s.saveValueCap.run(cap.websiteId, cap.day, cap.dimension, cap.kept);
}
