// The analytics writer: a batch of events is one transaction, in which the events, their
// visitors' rows and the rollup increments commit together, so an acknowledged event is counted,
// and counted once. One column list (EVENT_COLUMNS), one algorithm (batchSteps) and two
// executors for what the engines do differently: SQLite runs prepared statements synchronously
// (on the analytics write thread's connection, or the repository's), PostgreSQL multi-row
// statements through Kysely under a lock per website. The algorithm yields each step it needs
// done; a driver runs it with an executor, waiting for PostgreSQL's answers.
import type SQLite from 'better-sqlite3';
import { type CompiledQuery, type Insertable, type Kysely, sql } from 'kysely';
import { EVENT_FIELD_NAMES } from '../model/dimensions.js';
import {
  isCappedDimension,
  OTHER_VALUE,
  PAGEVIEW,
  PROP_KEY,
  type RollupIncrement,
  rollUp,
  type StoredEvent,
  type VisitorState,
  visitorKey,
} from '../model/rollup.js';
import { hasUnstorableText, storableText } from '../model/text.js';
import { type BatchFailure, writeIsolating, writeIsolatingSync } from './batch-isolation.js';
import type { AnalyticsEventsTable, Database } from './schema.js';

/** ANALYTICS_MAX_VALUES's default: distinct values a dimension keeps per website and UTC day. */
export const DEFAULT_MAX_VALUES = 10_000;
/** Most rows per multi-row statement (well under both engines' bound-parameter limits). */
const CHUNK = 512;
/** The first key of the PostgreSQL advisory locks taken per website while a batch is counted. */
const LOCK_SPACE = 0x5253;

/** The analytics_events columns a batch writes: the collector's, then the event's derived fields (model/dimensions.ts). */
export const EVENT_COLUMNS = ['website_id', 'created_at', 'visitor', ...EVENT_FIELD_NAMES] as const;

/** The StoredEvent field of each of EVENT_COLUMNS. */
const EVENT_FIELDS_BY_COLUMN = [
  'websiteId',
  'createdAt',
  'visitor',
  ...EVENT_FIELD_NAMES,
] as const satisfies readonly (keyof StoredEvent)[];

/** An event's row, in EVENT_COLUMNS order. */
function pushEventRow(e: StoredEvent, into: unknown[]): void {
  for (const field of EVENT_FIELDS_BY_COLUMN) into.push(e[field]);
}

/** The event's text fields, as stored (the body's, the URL's, the client's). */
const TEXT_FIELDS = ['visitor', ...EVENT_FIELD_NAMES] as const;

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

/** The visitors of one website and day whose rows a batch reads. */
interface VisitorGroup {
  websiteId: number;
  day: string;
  visitors: string[];
}

/** A visitor row as stored. */
interface StoredVisitor {
  websiteId: number;
  day: string;
  visitor: string;
  lastSeen: number | string | bigint;
  seen: string;
}

/** A visitor row to write, and how it stood: absent, with the same `seen` (only last_seen moves), or another. */
interface VisitorWrite {
  websiteId: number;
  day: string;
  visitor: string;
  lastSeen: number;
  seen: string;
  was: 'absent' | 'same' | 'changed';
}

/** How many values a website's dimension keeps on a day. */
interface ValueCap {
  websiteId: number;
  day: string;
  dimension: string;
  kept: number;
}

/** The rollup rows to write: rows that exist (`held`), new rows, and rows that may be either. */
interface RollupWrites {
  held: RollupIncrement[];
  inserted: RollupIncrement[];
  upserted: RollupIncrement[];
}

/** What an engine does for the algorithm, inside the batch's transaction. */
interface BatchStore {
  /** The ids (sorted) whose website exists; PostgreSQL first takes each one's lock. */
  websites(ids: number[]): number[];
  visitors(groups: VisitorGroup[]): StoredVisitor[];
  insertEvents(events: StoredEvent[]): void;
  saveVisitors(rows: VisitorWrite[]): void;
  /** The increments whose rollup rows exist. SQLite adds their counts as it finds them. */
  held(increments: RollupIncrement[]): Set<RollupIncrement>;
  /** Fills in how many values each cap keeps now. */
  kept(caps: ValueCap[]): void;
  /** The rows; on SQLite the held ones are counted already. */
  writeRollups(rows: RollupWrites): void;
  /** Absolute counts: the batch is the only writer of its websites' rows (a lock, or SQLite's one writer). */
  saveCaps(caps: ValueCap[]): void;
}

type Async<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never };
type Step = { [K in keyof BatchStore]: { op: K; args: Parameters<BatchStore[K]> } }[keyof BatchStore];

function* step<K extends keyof BatchStore>(
  op: K,
  ...args: Parameters<BatchStore[K]>
): Generator<Step, ReturnType<BatchStore[K]>, unknown> {
  return (yield { op, args } as Step) as ReturnType<BatchStore[K]>;
}

/**
 * One batch: events of a website deleted since they were collected are left out, the batch's
 * visitor rows are read, rollUp counts the batch, then the events, the visitor rows and the
 * rollup increments are written. A value a capped dimension does not hold yet is kept while its
 * website, day and dimension keep fewer than `maxValues`, in the order the events came; later
 * ones count under `(other)`, and a property key counted there stores none of its values.
 */
function* batchSteps(events: StoredEvent[], maxValues: number): Generator<Step, void, unknown> {
  // Sorted: PostgreSQL takes the websites' locks in one order, so two batches never deadlock.
  const ids = [...new Set(events.map((e) => e.websiteId))].sort((a, b) => a - b);
  const existing = yield* step('websites', ids);
  let stored = events;
  if (existing.length < ids.length) {
    const kept = new Set(existing);
    stored = events.filter((e) => kept.has(e.websiteId));
    if (stored.length === 0) return;
  }

  // The batch's visitors as stored: their rows, and each one's `seen` JSON as read.
  const owners = new Map<string, StoredEvent>();
  const groups = new Map<string, VisitorGroup>();
  for (const e of stored) {
    if (e.name !== PAGEVIEW) continue;
    const key = visitorKey(e.websiteId, e.day, e.visitor);
    if (owners.has(key)) continue;
    owners.set(key, e);
    const group = `${e.websiteId}\u0000${e.day}`;
    let entry = groups.get(group);
    if (entry === undefined) {
      entry = { websiteId: e.websiteId, day: e.day, visitors: [] };
      groups.set(group, entry);
    }
    entry.visitors.push(e.visitor);
  }
  const visitors = new Map<string, VisitorState>();
  const storedSeen = new Map<string, { json: string; values: number }>();
  if (groups.size > 0) {
    for (const row of yield* step('visitors', [...groups.values()])) {
      const key = visitorKey(row.websiteId, row.day, row.visitor);
      const state = { lastSeen: Number(row.lastSeen), seen: JSON.parse(row.seen) };
      visitors.set(key, state);
      storedSeen.set(key, { json: row.seen, values: seenCount(state) });
    }
  }
  const { increments, changed } = rollUp(stored, visitors);

  yield* step('insertEvents', stored);
  const visitorRows: VisitorWrite[] = [];
  for (const key of changed) {
    const e = owners.get(key) as StoredEvent;
    const state = visitors.get(key) as VisitorState;
    const before = storedSeen.get(key);
    // `seen` only grows: as many values as were read means the stored JSON is still exact.
    const same = before !== undefined && before.values === seenCount(state);
    visitorRows.push({
      websiteId: e.websiteId,
      day: e.day,
      visitor: e.visitor,
      lastSeen: state.lastSeen,
      seen: same ? before.json : JSON.stringify(state.seen),
      was: before === undefined ? 'absent' : same ? 'same' : 'changed',
    });
  }
  if (visitorRows.length > 0) yield* step('saveVisitors', visitorRows);

  // The capped values; those the rollups hold just add their counts, the others are counted
  // against their website's, day's and dimension's cap.
  const capped = increments.filter((r) => isCappedDimension(r.dimension) && r.value !== OTHER_VALUE);
  const held = capped.length === 0 ? new Set<RollupIncrement>() : yield* step('held', capped);
  const caps = new Map<string, ValueCap>();
  for (const r of capped) {
    if (held.has(r)) continue;
    const key = `${r.websiteId}\u0000${r.day}\u0000${r.dimension}`;
    if (!caps.has(key)) caps.set(key, { websiteId: r.websiteId, day: r.day, dimension: r.dimension, kept: 0 });
  }
  if (caps.size > 0) yield* step('kept', [...caps.values()]);

  const rows: RollupWrites = { held: [], inserted: [], upserted: [] };
  const changedCaps = new Set<ValueCap>();
  const other = new Map<string, RollupIncrement>();
  // The keys counted under `(other)` in this batch: their values are not stored. (A key's values
  // are held only where the key is, so none of them was counted while `held` looked for it.)
  const foldedKeys = new Set<string>();
  for (const r of increments) {
    if (r.propKey !== undefined && foldedKeys.size > 0 && foldedKeys.has(`${r.websiteId}\u0000${r.day}\u0000${r.propKey}`)) {
      continue;
    }
    if (held.has(r)) {
      rows.held.push(r);
      continue;
    }
    if (caps.size === 0 || !isCappedDimension(r.dimension) || r.value === OTHER_VALUE) {
      rows.upserted.push(r);
      continue;
    }
    const key = `${r.websiteId}\u0000${r.day}\u0000${r.dimension}`;
    const cap = caps.get(key) as ValueCap;
    if (cap.kept < maxValues) {
      cap.kept += 1;
      changedCaps.add(cap);
      rows.inserted.push(r);
      continue;
    }
    if (r.dimension === PROP_KEY) foldedKeys.add(`${r.websiteId}\u0000${r.day}\u0000${r.value}`);
    const folded = other.get(key);
    if (folded) folded.count += r.count;
    else {
      const row = { ...r, value: OTHER_VALUE };
      other.set(key, row);
      rows.upserted.push(row);
    }
  }
  // A batch's own `(other)` increment (a client's literal value) and a folded one are one row.
  if (other.size > 0) rows.upserted = mergeIncrements(rows.upserted);
  yield* step('writeRollups', rows);
  if (changedCaps.size > 0) yield* step('saveCaps', [...changedCaps]);
}

function runSync(steps: Generator<Step, void, unknown>, store: BatchStore): void {
  const run = store as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (let next = steps.next(); !next.done; ) next = steps.next(run[next.value.op].apply(store, next.value.args));
}

async function runAsync(steps: Generator<Step, void, unknown>, store: Async<BatchStore>): Promise<void> {
  const run = store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (let next = steps.next(); !next.done; ) next = steps.next(await run[next.value.op].apply(store, next.value.args));
}

function seenCount(state: VisitorState): number {
  let n = 0;
  for (const dimension in state.seen) n += state.seen[dimension].length;
  return n;
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

// ---- SQLite: prepared statements, one synchronous transaction

/**
 * A batch writer on a SQLite connection: prepared statements in one synchronous transaction
 * begun IMMEDIATE, taking the write lock first (another process's is waited out under
 * busy_timeout): a deferred one reads the visitor rows under a snapshot, and its first write
 * then fails at once (SQLITE_BUSY, or SQLITE_BUSY_SNAPSHOT when another process committed
 * meanwhile). The repository runs it on its own connection; the server on the analytics write
 * thread's (analytics-write-thread.ts). Text a database refuses (NUL) is removed first; an event
 * the database still refuses fails alone (batch-isolation.ts). Returns the events not stored.
 */
export function sqliteRecorder(
  native: SQLite.Database,
  maxValues = DEFAULT_MAX_VALUES,
): (events: StoredEvent[]) => BatchFailure[] {
  const store = new SqliteBatchStore(native);
  const batch = native.transaction((events: StoredEvent[]) => runSync(batchSteps(events, maxValues), store));
  return (events) =>
    events.length === 0 ? [] : writeIsolatingSync(events.map(storableEvent), (events) => batch.immediate(events));
}

class SqliteBatchStore implements BatchStore {
  private readonly websiteExists: SQLite.Statement;
  private readonly visitor: SQLite.Statement;
  private readonly insertEvent: SQLite.Statement;
  private readonly insertVisitor: SQLite.Statement;
  private readonly updateVisitor: SQLite.Statement;
  private readonly touchVisitor: SQLite.Statement;
  private readonly addToRollup: SQLite.Statement;
  private readonly insertRollup: SQLite.Statement;
  private readonly upsertRollup: SQLite.Statement;
  private readonly valueCap: SQLite.Statement;
  private readonly saveValueCap: SQLite.Statement;

  constructor(native: SQLite.Database) {
    this.websiteExists = native.prepare('select 1 from websites where id = ?').pluck();
    this.visitor = native.prepare(
      'select last_seen, seen from analytics_visitors where website_id = ? and day = ? and visitor = ?',
    );
    this.insertEvent = native.prepare(
      `insert into analytics_events (${EVENT_COLUMNS.join(', ')}) values (${EVENT_COLUMNS.map(() => '?').join(', ')})`,
    );
    this.insertVisitor = native.prepare(
      'insert into analytics_visitors (website_id, day, visitor, last_seen, seen) values (?, ?, ?, ?, ?)',
    );
    this.updateVisitor = native.prepare(
      'update analytics_visitors set last_seen = ?, seen = ? where website_id = ? and day = ? and visitor = ?',
    );
    this.touchVisitor = native.prepare(
      'update analytics_visitors set last_seen = ? where website_id = ? and day = ? and visitor = ?',
    );
    this.addToRollup = native.prepare(
      'update analytics_rollups set count = count + ? where website_id = ? and dimension = ? and day = ? and value = ?',
    );
    this.insertRollup = native.prepare(
      'insert into analytics_rollups (website_id, dimension, day, value, count) values (?, ?, ?, ?, ?)',
    );
    this.upsertRollup = native.prepare(
      'insert into analytics_rollups (website_id, dimension, day, value, count) values (?, ?, ?, ?, ?) ' +
        'on conflict (website_id, dimension, day, value) do update set count = analytics_rollups.count + excluded.count',
    );
    this.valueCap = native
      .prepare('select kept from analytics_value_caps where website_id = ? and day = ? and dimension = ?')
      .pluck();
    this.saveValueCap = native.prepare(
      'insert into analytics_value_caps (website_id, day, dimension, kept) values (?, ?, ?, ?) ' +
        'on conflict (website_id, day, dimension) do update set kept = excluded.kept',
    );
  }

  websites(ids: number[]): number[] {
    return ids.filter((id) => this.websiteExists.get(id) !== undefined);
  }

  visitors(groups: VisitorGroup[]): StoredVisitor[] {
    const rows: StoredVisitor[] = [];
    for (const { websiteId, day, visitors } of groups) {
      for (const visitor of visitors) {
        const row = this.visitor.get(websiteId, day, visitor) as { last_seen: number | bigint; seen: string } | undefined;
        if (row !== undefined) rows.push({ websiteId, day, visitor, lastSeen: row.last_seen, seen: row.seen });
      }
    }
    return rows;
  }

  insertEvents(events: StoredEvent[]): void {
    const row: unknown[] = [];
    for (const e of events) {
      row.length = 0;
      pushEventRow(e, row);
      this.insertEvent.run(...row);
    }
  }

  saveVisitors(rows: VisitorWrite[]): void {
    // Each row was read in this transaction, which holds the write lock: it is there (an update
    // by its key), or it is not (an insert).
    for (const r of rows) {
      if (r.was === 'absent') this.insertVisitor.run(r.websiteId, r.day, r.visitor, r.lastSeen, r.seen);
      else if (r.was === 'same') this.touchVisitor.run(r.lastSeen, r.websiteId, r.day, r.visitor);
      else this.updateVisitor.run(r.lastSeen, r.seen, r.websiteId, r.day, r.visitor);
    }
  }

  held(increments: RollupIncrement[]): Set<RollupIncrement> {
    // The update is the lookup: a row it changed is held, and counted.
    const held = new Set<RollupIncrement>();
    for (const r of increments) {
      if (this.addToRollup.run(r.count, r.websiteId, r.dimension, r.day, r.value).changes > 0) held.add(r);
    }
    return held;
  }

  kept(caps: ValueCap[]): void {
    for (const cap of caps) cap.kept = Number((this.valueCap.get(cap.websiteId, cap.day, cap.dimension) as number | bigint) ?? 0);
  }

  writeRollups({ inserted, upserted }: RollupWrites): void {
    for (const r of inserted) this.insertRollup.run(r.websiteId, r.dimension, r.day, r.value, r.count);
    for (const r of upserted) this.upsertRollup.run(r.websiteId, r.dimension, r.day, r.value, r.count);
  }

  saveCaps(caps: ValueCap[]): void {
    for (const c of caps) this.saveValueCap.run(c.websiteId, c.day, c.dimension, c.kept);
  }
}

// ---- PostgreSQL: multi-row statements through Kysely, a lock per website

type Kind = 'events' | 'visitors' | 'rollups' | 'caps' | 'visitorRows' | 'rollupValues';

/**
 * A batch writer on PostgreSQL: one transaction a batch, in which the websites' advisory locks
 * make instances sharing the database count one website's batches one at a time (visitor rows
 * and value counts are read, then written). Returns the events not stored, as sqliteRecorder.
 */
export function postgresRecorder(
  db: Kysely<Database>,
  maxValues = DEFAULT_MAX_VALUES,
): (events: StoredEvent[]) => Promise<BatchFailure[]> {
  const statements = new PostgresStatements(db);
  return (events) =>
    writeIsolating(events.map(storableEvent), (batch) =>
      db.transaction().execute((trx) => runAsync(batchSteps(batch, maxValues), new PostgresBatchStore(trx, statements))),
    );
}

/**
 * Statements of a few row counts (powers of two, at most CHUNK), each built and compiled once:
 * a statement per batch size meant building and compiling a query for nearly every batch.
 * Parameters go row by row, in column order.
 */
class PostgresStatements {
  private readonly statements = new Map<string, CompiledQuery>();

  constructor(private readonly db: Kysely<Database>) {}

  get(kind: Kind, rows: number): CompiledQuery {
    const key = `${kind} ${rows}`;
    let statement = this.statements.get(key);
    if (statement === undefined) {
      statement = this.build(kind, rows);
      this.statements.set(key, statement);
    }
    return statement;
  }

  private build(kind: Kind, rows: number): CompiledQuery {
    const placeholders = <Row>(row: Row) => Array.from({ length: rows }, () => ({ ...row }));
    const db = this.db;
    switch (kind) {
      case 'events': {
        const row = Object.fromEntries(
          EVENT_COLUMNS.map((column) => [column, '']),
        ) as unknown as Insertable<AnalyticsEventsTable>;
        return db.insertInto('analytics_events').values(placeholders(row)).compile();
      }
      case 'visitors':
        return db
          .insertInto('analytics_visitors')
          .values(placeholders({ website_id: 0, day: '', visitor: '', last_seen: 0, seen: '' }))
          .onConflict((oc) =>
            oc.columns(['website_id', 'day', 'visitor']).doUpdateSet((eb) => ({
              last_seen: eb.ref('excluded.last_seen'),
              seen: eb.ref('excluded.seen'),
            })),
          )
          .compile();
      case 'rollups':
        return db
          .insertInto('analytics_rollups')
          .values(placeholders({ website_id: 0, dimension: '', day: '', value: '', count: 0 }))
          .onConflict((oc) =>
            oc
              .columns(['website_id', 'dimension', 'day', 'value'])
              .doUpdateSet((eb) => ({ count: eb('analytics_rollups.count', '+', eb.ref('excluded.count')) })),
          )
          .compile();
      case 'caps':
        return db
          .insertInto('analytics_value_caps')
          .values(placeholders({ website_id: 0, day: '', dimension: '', kept: 0 }))
          .onConflict((oc) =>
            oc.columns(['website_id', 'day', 'dimension']).doUpdateSet((eb) => ({ kept: eb.ref('excluded.kept') })),
          )
          .compile();
      case 'rollupValues':
        return db
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
      case 'visitorRows':
        return db
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
    }
  }
}

class PostgresBatchStore implements Async<BatchStore> {
  constructor(
    private readonly trx: Kysely<Database>,
    private readonly statements: PostgresStatements,
  ) {}

  async websites(ids: number[]): Promise<number[]> {
    for (const id of ids) await sql`select pg_advisory_xact_lock(${LOCK_SPACE}, ${id})`.execute(this.trx);
    const rows = await this.trx.selectFrom('websites').select('id').where('id', 'in', ids).execute();
    return rows.map((w) => w.id);
  }

  async visitors(groups: VisitorGroup[]): Promise<StoredVisitor[]> {
    const found: StoredVisitor[] = [];
    for (const { websiteId, day, visitors } of groups) {
      for (const chunk of paddedChunks(visitors)) {
        const { rows } = await this.trx.executeQuery<{ visitor: string; last_seen: number | string; seen: string }>({
          ...this.statements.get('visitorRows', chunk.length),
          parameters: [websiteId, day, ...chunk],
        });
        for (const row of rows) found.push({ websiteId, day, visitor: row.visitor, lastSeen: row.last_seen, seen: row.seen });
      }
    }
    return found;
  }

  insertEvents(events: StoredEvent[]): Promise<void> {
    return this.insertRows('events', events, pushEventRow);
  }

  saveVisitors(rows: VisitorWrite[]): Promise<void> {
    return this.insertRows('visitors', rows, (r, p) => p.push(r.websiteId, r.day, r.visitor, r.lastSeen, r.seen));
  }

  async held(increments: RollupIncrement[]): Promise<Set<RollupIncrement>> {
    // One statement per website, day and dimension (and CHUNK values).
    const groups = new Map<string, RollupIncrement[]>();
    for (const r of increments) {
      const key = `${r.websiteId}\u0000${r.day}\u0000${r.dimension}`;
      const group = groups.get(key);
      if (group) group.push(r);
      else groups.set(key, [r]);
    }
    const held = new Set<RollupIncrement>();
    for (const group of groups.values()) {
      const { websiteId, day, dimension } = group[0];
      const values = new Set<string>();
      for (const chunk of paddedChunks(group.map((r) => r.value))) {
        const { rows } = await this.trx.executeQuery<{ value: string }>({
          ...this.statements.get('rollupValues', chunk.length),
          parameters: [websiteId, dimension, day, ...chunk],
        });
        for (const row of rows) values.add(row.value);
      }
      for (const r of group) if (values.has(r.value)) held.add(r);
    }
    return held;
  }

  async kept(caps: ValueCap[]): Promise<void> {
    const days = new Map<string, Map<string, ValueCap>>();
    for (const cap of caps) {
      const key = `${cap.websiteId}\u0000${cap.day}`;
      const day = days.get(key) ?? new Map<string, ValueCap>();
      day.set(cap.dimension, cap);
      days.set(key, day);
    }
    for (const byDimension of days.values()) {
      const { websiteId, day } = byDimension.values().next().value as ValueCap;
      const rows = await this.trx
        .selectFrom('analytics_value_caps')
        .select(['dimension', 'kept'])
        .where('website_id', '=', websiteId)
        .where('day', '=', day)
        .execute();
      for (const row of rows) {
        const cap = byDimension.get(row.dimension);
        if (cap) cap.kept = Number(row.kept);
      }
    }
  }

  writeRollups({ held, inserted, upserted }: RollupWrites): Promise<void> {
    const rows = [...held, ...inserted, ...upserted];
    // Sorted, so concurrent transactions touching the same rollup rows lock them in one order.
    rows.sort((a, b) =>
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
    return this.insertRows('rollups', rows, (r, p) => p.push(r.websiteId, r.dimension, r.day, r.value, r.count));
  }

  saveCaps(caps: ValueCap[]): Promise<void> {
    return this.insertRows('caps', caps, (c, p) => p.push(c.websiteId, c.day, c.dimension, c.kept));
  }

  /** `items` by the statement of `kind`, in chunks whose row counts are powers of two (at most CHUNK). */
  private async insertRows<T>(kind: Kind, items: T[], parameters: (item: T, into: unknown[]) => void): Promise<void> {
    for (let i = 0; i < items.length; ) {
      const rows = 2 ** Math.floor(Math.log2(Math.min(CHUNK, items.length - i)));
      const values: unknown[] = [];
      for (let j = i; j < i + rows; j++) parameters(items[j], values);
      await this.trx.executeQuery({ ...this.statements.get(kind, rows), parameters: values });
      i += rows;
    }
  }
}

/** `list` in chunks of at most CHUNK, each padded to a power of two with its last item: a handful of statements for any size. */
function paddedChunks(list: string[]): string[][] {
  const chunks: string[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) {
    const chunk = list.slice(i, i + CHUNK);
    const size = Math.min(CHUNK, 2 ** Math.ceil(Math.log2(chunk.length)));
    while (chunk.length < size) chunk.push(chunk[chunk.length - 1]);
    chunks.push(chunk);
  }
  return chunks;
}
