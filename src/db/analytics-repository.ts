// Analytics storage (src/tracking/): the daily salts, the events, the visitor rows and the rollups
// every stats query reads. The batch write (events, visitor rows and rollup increments in one
// transaction) is analytics-batch.ts's; this is its entry and the reads.
import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Clock } from '../time.js';
import { nowTimestamp } from '../time.js';
import type { RollupDimension, StoredEvent } from '../model/rollup.js';
import { DEFAULT_MAX_VALUES, postgresRecorder, sqliteRecorder } from './analytics-batch.js';
import type { BatchFailure } from './batch-isolation.js';
import { sqliteDatabaseOf } from './connection.js';
import { containsIgnoringCase } from './like.js';
import type { Database, DatabaseEngine } from './schema.js';

export { DEFAULT_MAX_VALUES, sqliteRecorder } from './analytics-batch.js';

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
    if (this.engine === 'sqlite') {
      const native = sqliteDatabaseOf(this.db);
      if (native === undefined) throw new Error('Analytics on SQLite need a database opened by openDatabase.');
      this.sqliteRecord ??= sqliteRecorder(native, this.maxValues);
      const record = this.sqliteRecord;
      // Holding Kysely's one connection, so no Kysely transaction is open on it meanwhile.
      return this.db.connection().execute(async () => record(events));
    }
    this.postgresRecord ??= postgresRecorder(this.db, this.maxValues);
    return this.postgresRecord(events);
  }

  private sqliteRecord: ((events: StoredEvent[]) => BatchFailure[]) | undefined;
  private postgresRecord: ((events: StoredEvent[]) => Promise<BatchFailure[]>) | undefined;

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
