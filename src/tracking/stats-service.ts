// The stats of a website: every name and alias, read from the rollups only. Day series are
// zero-filled, hour series have 24 rows; the other names list values by count.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { AnalyticsRepository, RollupKey } from '../db/analytics-repository.js';
import { DEFAULT_STATS_CACHE_MB } from '../config.js';
import { canMatchStoredText } from '../model/text.js';
import { type Clock, systemClock } from '../time.js';
import { propDimension, type RollupDimension } from '../model/rollup.js';
import {
  type ApiDimension,
  type ApiDimensionName,
  DIMENSIONS,
  type Dimension,
  type DimensionName,
  type DimensionSpec,
  dimensionNamed,
} from '../model/dimensions.js';
import { StatsSlots } from './stats-slots.js';
import { TotalsCache, type TotalsRange } from './totals-cache.js';
import { adjusted, MergedTotals, TotalsBuilder, type ValueCount, ValueTotals } from './value-totals.js';

/** Every `name` of the API, in order (model/dimensions.ts). */
export const STAT_NAMES = DIMENSIONS.filter((d): d is ApiDimension => !('internal' in d)).map((d) => d.name);
export type StatName = ApiDimensionName;
/**
 * The custom property keys, each counting the events that carried it: what the pages offer to
 * choose a property from (`prop` lists one property's values). Not a name of the API.
 */
export type StatsName = DimensionName;

type Alias = Extract<ApiDimension, { aliases: readonly string[] }>['aliases'][number];

/** Other names the API accepts for the same stats. */
export const STAT_ALIASES = Object.fromEntries(
  STAT_NAMES.flatMap((name) => ((dimensionNamed(name) as DimensionSpec).aliases ?? []).map((alias) => [alias, name])),
) as Record<Alias, StatName>;

/** Every `name` the API accepts: the names, then the aliases. */
export const STAT_PARAMETER_NAMES: (StatName | Alias)[] = [...STAT_NAMES, ...(Object.keys(STAT_ALIASES) as Alias[])];

export type StatParameterName = (typeof STAT_PARAMETER_NAMES)[number];

/** The stat an accepted name stands for. */
export function canonicalStatName(name: StatParameterName): StatName {
  return Object.hasOwn(STAT_ALIASES, name) ? STAT_ALIASES[name as Alias] : (name as StatName);
}

/** The longest range a query may cover, in days (both ends included): a leap year. */
export const MAX_RANGE_DAYS = 366;

/** `sort_by` as the stats take it: `count` or `value`; anything else (a client's `domain`, `id`) is the default. */
export function knownSortBy(sortBy: string | null | undefined): 'count' | 'value' | null {
  return sortBy === 'count' || sortBy === 'value' ? sortBy : null;
}

/**
 * The days a query reads. A span of up to MAX_RANGE_DAYS is read (and a day series zero-filled)
 * whole. A longer one (clients of the original poll from 1970-01-01) is cut to the website's
 * life, from its creation day to today: no event lies outside it, so only a day series changes
 * (it is not zero-filled through the years before the website existed, nor into the future), and
 * a long range costs no more than the website's age. A cut range may be empty (`from` > `to`).
 */
export function boundedRange(from: string, to: string, createdDay: string, today: string): { from: string; to: string } {
  if (spanDays(from, to) <= MAX_RANGE_DAYS) return { from, to };
  return { from: maxDay(from, createdDay), to: minDay(to, maxDay(today, createdDay)) };
}

/** Days from `from` to `to`, both included. */
export function spanDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The stat a name or an alias stands for; null for anything else (`constructor` included). */
export function statName(name: string): StatName | null {
  if ((STAT_NAMES as readonly string[]).includes(name)) return name as StatName;
  return Object.hasOwn(STAT_ALIASES, name) ? STAT_ALIASES[name as Alias] : null;
}

/** Days and hours are series: one row per day (zero-filled) or per hour, ordered by value by default. */
export function isSeries(name: StatsName): boolean {
  return seriesOf(name) !== undefined;
}

function seriesOf(name: StatsName): 'day' | 'hour' | undefined {
  return (dimensionNamed(name) as DimensionSpec).series;
}

/**
 * The order a query gets: what was asked, else a series in time order (`value` ascending) and
 * the rest by `count` descending. A series sorted by count without a direction gets the largest
 * counts first, as every other count does.
 */
export function statsOrder(
  name: StatsName,
  sortBy?: 'count' | 'value' | null,
  sort?: 'asc' | 'desc' | null,
): { sortBy: 'count' | 'value'; sort: 'asc' | 'desc' } {
  const by = sortBy ?? (isSeries(name) ? 'value' : 'count');
  return { sortBy: by, sort: sort ?? (isSeries(name) && by === 'value' ? 'asc' : 'desc') };
}

export interface StatsQuery {
  websiteId: number;
  name: StatsName;
  /** `prop`: the property whose values are listed (none: nothing is), and the event name that narrows them. */
  prop?: string | null;
  event?: string | null;
  /** Inclusive UTC days, YYYY-MM-DD. */
  from: string;
  to: string;
  search?: string | null;
  /** Defaults: statsOrder. */
  sortBy?: 'count' | 'value' | null;
  sort?: 'asc' | 'desc' | null;
}

export interface StatsPage {
  total: number;
  rows: ValueCount[];
}

export interface StatsOptions {
  /** Today's UTC day, and so which days are over (default: the system clock). */
  clock?: Clock;
  /** Bytes of closed days' totals kept (TotalsCache); default DEFAULT_STATS_CACHE_MB. */
  cacheBytes?: number;
  /** Stats queries run at once (StatsSlots); default STATS_SLOTS. */
  slots?: number;
}

/**
 * Stats queries at once: enough for a share page's lists to run side by side on PostgreSQL, few
 * enough that a /health waits for little; one website takes at most all but one of them.
 */
export const STATS_SLOTS = 4;
/**
 * Closed totals built at once, one website's at a time: what a build holds in memory (its range's
 * values, kept or not) is bounded by this many builds, and one website's cold ranges queue behind
 * each other rather than in front of another website's.
 */
export const BUILD_SLOTS = 2;
/**
 * A day counts as over (and its totals may be kept) this long after its end: an event stamped
 * just before midnight may commit a little after it (the writer batches), and another instance's
 * clock may run a little behind. Until then it is read live, like today.
 */
export const LIVE_GRACE_MS = 60 * 60 * 1000;
/** Days a kept range may differ by (each read again) and still be the base of another range's totals. */
export const DERIVE_MAX_DAYS = 7;

/**
 * The stats of a website, from the rollups with bounded reads. Day series read one row per day.
 * The other names split the range: the days that are over (before today, give or take
 * LIVE_GRACE_MS) have their totals built once, a bounded page of rows at a time, and kept in a
 * TotalsCache; the days still counting (today) are read for every query and merged in
 * (MergedTotals). So once its closed days are kept, a query reads the live days' rows alone,
 * however long the range; the first query of a range builds them, yielding between pages.
 * Results are those of one SQL query over the whole range (`queryDirect`), row for row.
 */
export class StatsService {
  private readonly clock: Clock;
  private readonly cache: TotalsCache;
  private readonly slots: StatsSlots;
  private readonly builds = new StatsSlots(BUILD_SLOTS, 1);

  constructor(
    private readonly analytics: AnalyticsRepository,
    options: StatsOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.cache = new TotalsCache(options.cacheBytes ?? DEFAULT_STATS_CACHE_MB * 1024 * 1024);
    const slots = options.slots ?? STATS_SLOTS;
    this.slots = new StatsSlots(slots, Math.max(1, slots - 1));
  }

  /** Bytes and entries of closed totals kept now (for the bench and the tests). */
  cacheUse(): { bytes: number; entries: number } {
    return { bytes: this.cache.bytes, entries: this.cache.size };
  }

  /** A page of rows (`limit` omitted: every row). */
  async query(q: StatsQuery, limit?: number, offset = 0): Promise<StatsPage> {
    const order = statsOrder(q.name, q.sortBy, q.sort);
    if (!canMatch(q)) return { total: 0, rows: [] };
    if (isSeries(q.name)) return pageOf(await this.seriesRows(q), q.search, order, limit, offset);
    const merged = await this.totals(q);
    if (limit === undefined) {
      const rows = [...merged.rows(order)];
      return { total: rows.length, rows };
    }
    return { total: merged.total(), rows: merged.page(order, offset, limit) };
  }

  /**
   * Every row, in order, produced as it is consumed (a CSV export writes them as they come and
   * never holds them all): the top lists walk the kept totals, the series are short.
   */
  async rows(q: StatsQuery): Promise<Iterable<ValueCount>> {
    const order = statsOrder(q.name, q.sortBy, q.sort);
    if (!canMatch(q)) return [];
    if (isSeries(q.name)) return pageOf(await this.seriesRows(q), q.search, order).rows;
    return (await this.totals(q)).rows(order);
  }

  private totals(q: StatsQuery, search = q.search ?? null): Promise<MergedTotals> {
    const dimension = dimensionOf(q);
    return this.slots.run(q.websiteId, async () => {
      const liveFrom = dayOf(this.clock.now() - LIVE_GRACE_MS);
      const closedTo = minDay(q.to, addDays(liveFrom, -1));
      const closed =
        q.from <= closedTo
          ? await this.closedTotals({ websiteId: q.websiteId, dimension, from: q.from, to: closedTo })
          : ValueTotals.empty();
      const liveStart = maxDay(q.from, liveFrom);
      const live =
        liveStart <= q.to
          ? await this.read([{ websiteId: q.websiteId, dimension, from: liveStart, to: q.to }], search !== null)
          : ValueTotals.empty();
      return new MergedTotals(closed, live, search);
    });
  }

  /**
   * The kept totals of closed days; else built from a kept range a few days off (the days it
   * lacks read and added, those it has too many read and taken away: tomorrow's "last 30 days"
   * reads two days, not thirty), else read whole.
   */
  private closedTotals(range: DimensionRange): Promise<ValueTotals> {
    return this.cache.get(range, () =>
      this.builds.run(range.websiteId, async () => {
        const base = this.cache.nearest(range, DERIVE_MAX_DAYS);
        if (base === undefined) return this.read([range], true);
        // The same website and dimension (nearest finds no other): the kept range as this one's kind.
        const kept = { ...base.range, dimension: range.dimension };
        const delta = await this.read(
          [...outside(range, kept), ...outside(kept, range).map((r) => ({ ...r, sign: -1 as const }))],
          true,
        );
        return adjusted(base.totals, delta);
      }),
    );
  }

  /**
   * The totals of some ranges of one dimension (`sign` -1: taken away), a bounded page of rows a
   * statement (AnalyticsRepository.rowsPerRead) with a yield between, a day a run; `lower`: with
   * the database's lower-case forms, for searches.
   */
  private async read(ranges: (DimensionRange & { sign?: 1 | -1 })[], lower: boolean): Promise<ValueTotals> {
    const builder = new TotalsBuilder();
    const limit = this.analytics.rowsPerRead;
    for (const { websiteId, dimension, from, to, sign = 1 } of ranges) {
      let after: RollupKey | null = null;
      let day: string | null = null;
      for (;;) {
        const rows = await this.analytics.rollupRows({
          websiteId,
          dimension,
          from,
          to,
          after,
          limit,
          lower: lower && sign === 1,
        });
        let start = 0;
        for (let i = 0; i < rows.length; i++) {
          const rowDay = rows[i].day ?? from; // no day: the rows of a one-day range
          if (rowDay === day) continue;
          builder.add(rows.slice(start, i), sign);
          builder.endRun();
          day = rowDay;
          start = i;
        }
        builder.add(start === 0 ? rows : rows.slice(start), sign);
        if (rows.length < limit) break;
        const last = rows[rows.length - 1];
        after = { day: last.day ?? from, value: last.value };
        await yieldToEventLoop();
      }
      builder.endRun();
    }
    while (builder.mergeStep()) await yieldToEventLoop();
    return builder.finish();
  }

  private seriesRows(q: StatsQuery): Promise<ValueCount[]> {
    if (seriesOf(q.name) === 'day') {
      const dimension = dimensionOf(q);
      return this.slots.run(q.websiteId, async () =>
        zeroFilledDays(q, await this.analytics.perDay(q.websiteId, dimension, q.from, q.to)),
      );
    }
    return this.totals(q, null).then((merged) => allHours([...merged.rows({ sortBy: 'value', sort: 'asc' })]));
  }
}

/**
 * The stats as one SQL query over the whole range computes them: what StatsService answered
 * before it kept closed days, and the reference its tests and the bench compare it to.
 */
export async function queryDirect(analytics: AnalyticsRepository, q: StatsQuery, limit?: number, offset = 0): Promise<StatsPage> {
  const { sortBy, sort } = statsOrder(q.name, q.sortBy, q.sort);
  if (!canMatch(q)) return { total: 0, rows: [] };
  if (!isSeries(q.name)) {
    const where = { websiteId: q.websiteId, dimension: dimensionOf(q), from: q.from, to: q.to, search: q.search };
    if (limit !== undefined) return analytics.totalsPage({ ...where, sortBy, sort, limit, offset });
    const rows = await analytics.totals({ ...where, sortBy, sort });
    return { total: rows.length, rows };
  }
  let rows: ValueCount[];
  if (seriesOf(q.name) === 'day') rows = zeroFilledDays(q, await analytics.perDay(q.websiteId, dimensionOf(q), q.from, q.to));
  else {
    const where = { websiteId: q.websiteId, dimension: dimensionOf(q), from: q.from, to: q.to };
    rows = allHours(await analytics.totals({ ...where, sortBy: 'value', sort: 'asc' }));
  }
  return pageOf(rows, q.search, { sortBy, sort }, limit, offset);
}

/** The rollup dimension a stat reads: its key, or the asked property's. */
function dimensionOf(q: StatsQuery): RollupDimension {
  const d = dimensionNamed(q.name) as Dimension;
  return d.counts === 'prop' ? propDimension(q.prop ?? '', q.event) : d.key;
}

/**
 * Whether the query can have rows: a search term, a property key or an event name holding text
 * nothing stored holds (NUL) matches nothing, and `prop` needs a key.
 */
function canMatch(q: StatsQuery): boolean {
  if (q.search && !canMatchStoredText(q.search)) return false;
  if (dimensionNamed(q.name)?.counts !== 'prop') return true;
  return !!q.prop && canMatchStoredText(q.prop) && (!q.event || canMatchStoredText(q.event));
}

/** A series filtered by a search, ordered, and a page of it (`limit` omitted: all of it). */
function pageOf(
  series: ValueCount[],
  search: string | null | undefined,
  order: { sortBy: 'count' | 'value'; sort: 'asc' | 'desc' },
  limit?: number,
  offset = 0,
): StatsPage {
  let rows = series;
  if (search) {
    const needle = search.toLowerCase();
    rows = rows.filter((r) => r.value.toLowerCase().includes(needle));
  }
  rows.sort((a, b) => {
    const byValue = a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
    const primary = order.sortBy === 'count' ? a.count - b.count : byValue;
    return (order.sort === 'asc' ? primary : -primary) || byValue;
  });
  return { total: rows.length, rows: limit === undefined ? rows : rows.slice(offset, offset + limit) };
}

function zeroFilledDays(q: StatsQuery, found: ValueCount[]): ValueCount[] {
  const byDay = new Map(found.map((r) => [r.value, r.count]));
  return daysBetween(q.from, q.to).map((day) => ({ value: day, count: byDay.get(day) ?? 0 }));
}

function allHours(found: ValueCount[]): ValueCount[] {
  const byHour = new Map(found.map((r) => [r.value, r.count]));
  return Array.from({ length: 24 }, (_, h) => {
    const hour = String(h).padStart(2, '0');
    return { value: hour, count: byHour.get(hour) ?? 0 };
  });
}

const DAY_MS = 86_400_000;

/** The UTC day of a moment, YYYY-MM-DD. */
function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function addDays(day: string, days: number): string {
  return dayOf(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);
}

/** Days of one website's stat (a dimension of the rollups). */
type DimensionRange = TotalsRange & { dimension: RollupDimension };

/** The parts of `a` outside `b` (at most one before it and one after it). */
function outside(a: DimensionRange, b: TotalsRange): DimensionRange[] {
  const parts: DimensionRange[] = [];
  if (a.from < b.from) parts.push({ ...a, to: minDay(a.to, addDays(b.from, -1)) });
  if (a.to > b.to) parts.push({ ...a, from: maxDay(a.from, addDays(b.to, 1)) });
  return parts;
}

const minDay = (a: string, b: string) => (a < b ? a : b);
const maxDay = (a: string, b: string) => (a > b ? a : b);

/** Every UTC day from `from` to `to`, inclusive. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}
