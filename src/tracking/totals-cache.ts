// The closed days' totals, kept: a UTC day that is over never changes (events are stamped with
// the server's clock when they arrive), so the totals of a range's days before today are read
// once and reused by every query of that range until evicted. Least recently used first, within
// a budget of bytes; one build per key at a time, however many queries want it.
import type { ValueTotals } from './value-totals.js';

export class TotalsCache {
  private readonly entries = new Map<string, ValueTotals>();
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

  /** The totals under `key`: kept ones, the build already under way, or a new build. */
  get(key: string, build: () => Promise<ValueTotals>): Promise<ValueTotals> {
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return Promise.resolve(kept);
    }
    let pending = this.building.get(key);
    if (pending === undefined) {
      pending = build()
        .then((totals) => {
          this.keep(key, totals);
          return totals;
        })
        .finally(() => this.building.delete(key));
      this.building.set(key, pending);
    }
    return pending;
  }

  private keep(key: string, totals: ValueTotals): void {
    if (totals.bytes > this.budget) return; // used by its queries, then let go
    this.entries.set(key, totals);
    this.held += totals.bytes;
    for (const [oldKey, old] of this.entries) {
      if (this.held <= this.budget) break;
      this.entries.delete(oldKey);
      this.held -= old.bytes;
    }
  }
}
