// The stats of a website (contract "Stats"): every name and alias, read from the rollups only.
// Day series are zero-filled, hour series have 24 rows; the other names list values by count.
import type { AnalyticsRepository, ValueCount } from '../db/analytics-repository.js';
import type { RollupDimension } from './rollup.js';

export const STAT_NAMES = [
  'pageviews',
  'visitors',
  'pageviews_hours',
  'visitors_hours',
  'page',
  'landing_page',
  'referrer',
  'campaign',
  'source',
  'browser',
  'os',
  'device',
  'country',
  'continent',
  'city',
  'language',
  'resolution',
  'event',
] as const;
export type StatName = (typeof STAT_NAMES)[number];

/** Other names the API accepts for the same stats. */
export const STAT_ALIASES = {
  pageview: 'pageviews',
  visitor: 'visitors',
  operating_system: 'os',
  screen_resolution: 'resolution',
} as const satisfies Record<string, StatName>;

/** Every `name` the API accepts: the names, then the aliases. */
export const STAT_PARAMETER_NAMES = [...STAT_NAMES, ...(Object.keys(STAT_ALIASES) as (keyof typeof STAT_ALIASES)[])];

export type StatParameterName = (typeof STAT_PARAMETER_NAMES)[number];

/** The stat an accepted name stands for. */
export function canonicalStatName(name: StatParameterName): StatName {
  return Object.hasOwn(STAT_ALIASES, name) ? STAT_ALIASES[name as keyof typeof STAT_ALIASES] : (name as StatName);
}

/** The longest range a query may cover, in days (both ends included): a leap year. */
export const MAX_RANGE_DAYS = 366;

/** The stat a name or an alias stands for; null for anything else (`constructor` included). */
export function statName(name: string): StatName | null {
  if ((STAT_NAMES as readonly string[]).includes(name)) return name as StatName;
  return Object.hasOwn(STAT_ALIASES, name) ? STAT_ALIASES[name as keyof typeof STAT_ALIASES] : null;
}

/** Days and hours are series: one row per day (zero-filled) or per hour, ordered by value by default. */
export function isSeries(name: StatName): boolean {
  return name === 'pageviews' || name === 'visitors' || name === 'pageviews_hours' || name === 'visitors_hours';
}

/**
 * The order a query gets: what was asked, else a series in time order (`value` ascending) and
 * the rest by `count` descending. A series sorted by count without a direction gets the largest
 * counts first, as every other count does.
 */
export function statsOrder(
  name: StatName,
  sortBy?: 'count' | 'value' | null,
  sort?: 'asc' | 'desc' | null,
): { sortBy: 'count' | 'value'; sort: 'asc' | 'desc' } {
  const by = sortBy ?? (isSeries(name) ? 'value' : 'count');
  return { sortBy: by, sort: sort ?? (isSeries(name) && by === 'value' ? 'asc' : 'desc') };
}

export interface StatsQuery {
  websiteId: number;
  name: StatName;
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

export class StatsService {
  constructor(private readonly analytics: AnalyticsRepository) {}

  /** A page of rows (`limit` omitted: every row, as CSV wants). */
  async query(q: StatsQuery, limit?: number, offset = 0): Promise<StatsPage> {
    const { sortBy, sort } = statsOrder(q.name, q.sortBy, q.sort);
    if (!isSeries(q.name)) {
      const where = { websiteId: q.websiteId, dimension: q.name as RollupDimension, from: q.from, to: q.to, search: q.search };
      if (limit !== undefined) return this.analytics.totalsPage({ ...where, sortBy, sort, limit, offset });
      const rows = await this.analytics.totals({ ...where, sortBy, sort });
      return { total: rows.length, rows };
    }
    let rows = await this.seriesRows(q);
    if (q.search) {
      const needle = q.search.toLowerCase();
      rows = rows.filter((r) => r.value.toLowerCase().includes(needle));
    }
    rows.sort((a, b) => {
      const byValue = a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
      const primary = sortBy === 'count' ? a.count - b.count : byValue;
      return (sort === 'asc' ? primary : -primary) || byValue;
    });
    return { total: rows.length, rows: limit === undefined ? rows : rows.slice(offset, offset + limit) };
  }

  private async seriesRows(q: StatsQuery): Promise<ValueCount[]> {
    if (q.name === 'pageviews' || q.name === 'visitors') {
      const found = new Map((await this.analytics.perDay(q.websiteId, q.name, q.from, q.to)).map((r) => [r.value, r.count]));
      return daysBetween(q.from, q.to).map((day) => ({ value: day, count: found.get(day) ?? 0 }));
    }
    const where = { websiteId: q.websiteId, dimension: q.name as RollupDimension, from: q.from, to: q.to };
    const found = new Map(
      (await this.analytics.totals({ ...where, sortBy: 'value', sort: 'asc' })).map((r) => [r.value, r.count]),
    );
    return Array.from({ length: 24 }, (_, h) => {
      const hour = String(h).padStart(2, '0');
      return { value: hour, count: found.get(hour) ?? 0 };
    });
  }
}

/** Every UTC day from `from` to `to`, inclusive. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}
