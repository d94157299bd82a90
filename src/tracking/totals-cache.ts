// The closed days' totals, kept: a UTC day that is over never changes (events are stamped with
// the server's clock when they arrive), so the totals of a range's days before today are read
// once and reused by every query of that range until evicted. Least recently used first, within
// a budget of bytes; one build per range at a time, however many queries want it. A range that
// differs by a few days from one kept (tomorrow's "last 30 days" from today's) can be built
// from it: `nearest` finds it.
import type { ValueTotals } from './value-totals.js';

/** The days a kept total covers: one website's dimension, `from` to `to`, both included. */
export interface TotalsRange {
  websiteId: number;
  dimension: string;
  from: string;
  to: string;
}

interface Entry {
  range: TotalsRange;
  totals: ValueTotals;
}

const keyOf = (r: TotalsRange) => `${r.websiteId}\u0000${r.dimension}\u0000${r.from}\u0000${r.to}`;

export class TotalsCache {
  private readonly entries = new Map<string, Entry>();
  private readonly building = new Map<string, Promise<ValueTotals>>();
  private held = 0;

  /** `budget`: bytes (ValueTotals.bytes) kept at most; 0 keeps nothing. */
  constructor(readonly budget: number) {}

  /** Bytes held now. */
  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The totals of `range`: kept ones, the build already under way, or a new build. */
  get(range: TotalsRange, build: () => Promise<ValueTotals>): Promise<ValueTotals> {
    const key = keyOf(range);
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return Promise.resolve(kept.totals);
    }
    let pending = this.building.get(key);
    if (pending === undefined) {
      pending = build()
        .then((totals) => {
          this.keep(key, { range, totals });
          return totals;
        })
        .finally(() => this.building.delete(key));
      this.building.set(key, pending);
    }
    return pending;
  }

  /**
   * The kept range of the same website and dimension that differs from `range` by the fewest
   * days (added or taken away at either end), if that is at most `maxDays` and fewer than the
   * days they share.
   */
  nearest(range: TotalsRange, maxDays: number): { range: TotalsRange; totals: ValueTotals; days: number } | undefined {
    let best: { range: TotalsRange; totals: ValueTotals; days: number } | undefined;
    for (const { range: kept, totals } of this.entries.values()) {
      if (kept.websiteId !== range.websiteId || kept.dimension !== range.dimension) continue;
      const shared = dayCount(maxDay(kept.from, range.from), minDay(kept.to, range.to));
      if (shared <= 0) continue;
      const days = dayCount(range.from, range.to) + dayCount(kept.from, kept.to) - 2 * shared;
      if (days <= maxDays && days < shared && (best === undefined || days < best.days)) best = { range: kept, totals, days };
    }
    return best;
  }

  private keep(key: string, entry: Entry): void {
    if (entry.totals.bytes > this.budget) return; // used by its queries, then let go
    this.entries.set(key, entry);
    this.held += entry.totals.bytes;
    for (const [oldKey, old] of this.entries) {
      if (this.held <= this.budget) break;
      this.entries.delete(oldKey);
      this.held -= old.totals.bytes;
    }
  }
}

/** Days from `from` to `to`, both included (0 when `to` is before `from`). */
export function dayCount(from: string, to: string): number {
  return to < from ? 0 : Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

const minDay = (a: string, b: string) => (a < b ? a : b);
const maxDay = (a: string, b: string) => (a > b ? a : b);
