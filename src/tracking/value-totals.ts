// The top lists' arithmetic, without a database: the totals of some days built from each day's
// rows (which come in value order), and a page or every row of a range's totals as the closed
// days' totals (built once and kept) merged with the live days' (read for each query). Pure, so
// the fast path is tested against the plain SQL on the same rows.
//
// Orders are those of the SQL this replaces: by count, equal counts by value ascending, and
// values in code point order (SQLite's binary collation, PostgreSQL's `collate "C"`).

/** A value's count over some days, and the database's lower(value) when read and different from it. */
export interface ValueRow {
  value: string;
  count: number;
  lower?: string | null;
}

export interface ValueCount {
  value: string;
  count: number;
}

export interface TotalsOrder {
  sortBy: 'count' | 'value';
  sort: 'asc' | 'desc';
}

/** Code units at which UTF-16 order and code point order can part (surrogates, U+E000–U+FFFF). */
const HIGH_UNITS = /[\uD800-\uFFFF]/;

/**
 * Code point order. JavaScript compares UTF-16 code units, which agrees except where the first
 * difference sets a surrogate (a character above U+FFFF) against U+E000–U+FFFF.
 */
export function compareValues(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return x >= 0xd800 && y >= 0xd800 ? codePointRank(x) - codePointRank(y) : x - y;
  }
  return a.length - b.length;
}

/** Surrogates after U+E000–U+FFFF: the order of the code points they encode. */
function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/** The engine's own comparison: six times faster, and exact while no value holds a code unit ≥ U+D800. */
function compareUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const orderFor = (highUnits: boolean) => (highUnits ? compareValues : compareUnits);

/** Values in code point order and their counts; `highUnits`: whether a value needs compareValues. */
interface Run {
  values: string[];
  counts: number[];
  highUnits: boolean;
}

const emptyRun = (): Run => ({ values: [], counts: [], highUnits: false });

/**
 * Totals of a set of days, immutable: values in code point order with their counts, the indexes
 * by count (descending, equal counts by value; computed once, when first asked), and the
 * database's lower-case form of the values where it differs, for searches.
 */
export class ValueTotals {
  readonly size: number;
  /** What this holds, roughly, in bytes: for the cache's budget. */
  readonly bytes: number;
  readonly compare: (a: string, b: string) => number;
  private byCountOrder: Int32Array | undefined;

  constructor(
    readonly values: readonly string[],
    readonly counts: Float64Array,
    private readonly lowered: ReadonlyMap<string, string>,
    readonly highUnits: boolean,
  ) {
    this.size = values.length;
    this.compare = orderFor(highUnits);
    let chars = 0;
    for (const v of values) chars += v.length;
    for (const [v, l] of lowered) chars += v.length + l.length;
    // Per value: a string's header and its array slot, the count, its place in the count order;
    // two bytes a character (V8 keeps Latin-1 in one: an upper bound).
    this.bytes = 512 + values.length * (24 + 8 + 8 + 4) + lowered.size * 80 + chars * 2;
  }

  static empty(): ValueTotals {
    return new ValueTotals([], new Float64Array(0), new Map(), false);
  }

  /** How many values have a lower-case form of their own. */
  get loweredCount(): number {
    return this.lowered.size;
  }

  /** The database's lower(value) of `value`, when it differs from it. */
  loweredOf(value: string): string | undefined {
    return this.lowered.get(value);
  }

  /** The database's lower(value) of the value at `i`. */
  lowerAt(i: number): string {
    const value = this.values[i];
    return this.lowered.size === 0 ? value : (this.lowered.get(value) ?? value);
  }

  /** The index of `value` (binary search), or -1. */
  indexOf(value: string, compare = this.compare): number {
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = compare(this.values[mid], value);
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Indexes by count descending, equal counts by value ascending (a counting sort, stable over the value order). */
  byCount(): Int32Array {
    if (this.byCountOrder !== undefined) return this.byCountOrder;
    const n = this.size;
    const counts = this.counts;
    const order = new Int32Array(n);
    let max = 0;
    for (let i = 0; i < n; i++) if (counts[i] > max) max = counts[i];
    if (max <= 4 * n + 1024) {
      // Where each count's run starts, from the largest count down, then each index into its run.
      const starts = new Float64Array(max + 2);
      for (let i = 0; i < n; i++) starts[max - counts[i] + 1]++;
      for (let b = 1; b < starts.length; b++) starts[b] += starts[b - 1];
      for (let i = 0; i < n; i++) order[starts[max - counts[i]]++] = i;
    } else {
      const indexes = Array.from({ length: n }, (_, i) => i);
      indexes.sort((a, b) => counts[b] - counts[a] || a - b);
      order.set(indexes);
    }
    this.byCountOrder = order;
    return order;
  }
}

/**
 * Builds ValueTotals from runs in value order (a day's rows each), merging them as they come like
 * a binary counter (a run merges with the one below it while that one is no larger), so a value
 * is compared about log2(days) times and no merge is larger than the result. The caller reads the
 * rows a bounded page at a time and may yield between pages and between merge steps.
 */
export class TotalsBuilder {
  private readonly stack: Run[] = [];
  private readonly lowered = new Map<string, string>();
  private current: Run = emptyRun();

  /** Rows in value order continuing the current run (one day's); `sign` -1 takes them away. */
  add(rows: readonly ValueRow[], sign: 1 | -1 = 1): void {
    const run = this.current;
    for (const row of rows) {
      run.values.push(row.value);
      run.counts.push(sign * row.count);
      if (!run.highUnits && HIGH_UNITS.test(row.value)) run.highUnits = true;
      if (row.lower != null && row.lower !== row.value) this.lowered.set(row.value, row.lower);
    }
  }

  /** Ends the current run (a day is complete) and makes the merges the binary counter calls for. */
  endRun(): void {
    if (this.current.values.length === 0) return;
    inCodePointOrder(this.current);
    this.stack.push(this.current);
    this.current = emptyRun();
    const s = this.stack;
    while (s.length > 1 && s[s.length - 2].values.length <= s[s.length - 1].values.length) this.mergeTop();
  }

  /** One merge of the two newest runs; false once a single run is left. */
  mergeStep(): boolean {
    this.endRun();
    if (this.stack.length < 2) return false;
    this.mergeTop();
    return this.stack.length > 1;
  }

  finish(): ValueTotals {
    while (this.mergeStep());
    const run = this.stack.pop() ?? emptyRun();
    return new ValueTotals(run.values, Float64Array.from(run.counts), this.lowered, run.highUnits);
  }

  private mergeTop(): void {
    const b = this.stack.pop()!;
    const a = this.stack.pop()!;
    this.stack.push(mergeRuns(a, b));
  }
}

/**
 * `base` with `delta`'s counts added (a delta of some days added and others taken away: negative
 * counts), values whose count comes to zero dropped: the totals of a range from those of a range
 * that differs from it by a few days at its ends, in one pass.
 */
export function adjusted(base: ValueTotals, delta: ValueTotals): ValueTotals {
  const highUnits = base.highUnits || delta.highUnits;
  const compare = orderFor(highUnits);
  const values: string[] = [];
  const counts: number[] = [];
  const [bv, bc, dv, dc] = [base.values, base.counts, delta.values, delta.counts];
  const push = (value: string, count: number) => {
    if (count <= 0) return; // gone (below zero only if a closed day had changed: dropped all the same)
    values.push(value);
    counts.push(count);
  };
  let i = 0;
  let j = 0;
  while (i < bv.length && j < dv.length) {
    const c = compare(bv[i], dv[j]);
    if (c < 0) push(bv[i], bc[i++]);
    else if (c > 0) push(dv[j], dc[j++]);
    else push(bv[i], bc[i++] + dc[j++]);
  }
  for (; i < bv.length; i++) push(bv[i], bc[i]);
  for (; j < dv.length; j++) push(dv[j], dc[j]);
  // The lower-case forms of the values still there (a value's is the same wherever it was read).
  const lowered = new Map<string, string>();
  if (base.loweredCount + delta.loweredCount > 0) {
    for (const value of values) {
      const lower = base.loweredOf(value) ?? delta.loweredOf(value);
      if (lower !== undefined) lowered.set(value, lower);
    }
  }
  return new ValueTotals(values, Float64Array.from(counts), lowered, highUnits);
}

/**
 * Puts a run in code point order unless it is in it already (one look at each neighbour:
 * SQLite's binary collation gives that order; a PostgreSQL database's collation may not).
 */
function inCodePointOrder(run: Run): void {
  const compare = orderFor(run.highUnits);
  const { values, counts } = run;
  let sorted = true;
  for (let i = 1; i < values.length && sorted; i++) sorted = compare(values[i - 1], values[i]) < 0;
  if (sorted) return;
  const order = Array.from({ length: values.length }, (_, i) => i).sort((a, b) => compare(values[a], values[b]));
  run.values = [];
  run.counts = [];
  for (const i of order) {
    // A value twice in one run (never in one day's rows) is counted once, with both counts.
    const last = run.values.length - 1;
    if (last >= 0 && run.values[last] === values[i]) run.counts[last] += counts[i];
    else {
      run.values.push(values[i]);
      run.counts.push(counts[i]);
    }
  }
}

function mergeRuns(a: Run, b: Run): Run {
  const highUnits = a.highUnits || b.highUnits;
  const compare = orderFor(highUnits);
  const values: string[] = [];
  const counts: number[] = [];
  const [av, ac, bv, bc] = [a.values, a.counts, b.values, b.counts];
  let i = 0;
  let j = 0;
  while (i < av.length && j < bv.length) {
    const c = compare(av[i], bv[j]);
    if (c < 0) {
      values.push(av[i]);
      counts.push(ac[i++]);
    } else if (c > 0) {
      values.push(bv[j]);
      counts.push(bc[j++]);
    } else {
      values.push(av[i]);
      counts.push(ac[i++] + bc[j++]);
    }
  }
  for (; i < av.length; i++) {
    values.push(av[i]);
    counts.push(ac[i]);
  }
  for (; j < bv.length; j++) {
    values.push(bv[j]);
    counts.push(bc[j]);
  }
  return { values, counts, highUnits };
}

/**
 * A range's totals: the closed days' with the live days' added, as one query over every day of
 * the range would give them, filtered by a search. The live values are looked up in the closed
 * ones (binary search); a page walks the closed values in the order asked and merges in the
 * live ones, so it costs its offset and length plus the live values, not the closed ones (a
 * search, and a search's total, read every closed value once). Rows become objects only as
 * they are handed out: a query's garbage is its page, not its live values.
 */
export class MergedTotals {
  private readonly needle: string | null;
  private readonly compare: (a: string, b: string) => number;
  /** 1 at each closed index whose count the live days change (it comes with the live rows). */
  private readonly changed: Uint8Array;
  /** Each live value's count with its closed count added. */
  private readonly liveCounts: Float64Array;
  /** The live indexes that match, in value order. */
  private readonly matching: Int32Array;
  private readonly liveOnly: number;

  constructor(
    private readonly closed: ValueTotals,
    private readonly live: ValueTotals,
    search: string | null,
  ) {
    // As the SQL had it: the term lower-cased here, the value by the database, a plain substring.
    this.needle = search ? search.toLowerCase() : null;
    this.compare = orderFor(closed.highUnits || live.highUnits);
    this.changed = new Uint8Array(closed.size);
    this.liveCounts = new Float64Array(live.size);
    const matching = new Int32Array(live.size);
    let matched = 0;
    let liveOnly = 0;
    for (let i = 0; i < live.size; i++) {
      const at = closed.size === 0 ? -1 : closed.indexOf(live.values[i], this.compare);
      if (at >= 0) this.changed[at] = 1;
      else liveOnly++;
      this.liveCounts[i] = live.counts[i] + (at >= 0 ? closed.counts[at] : 0);
      if (this.needle === null || live.lowerAt(i).includes(this.needle)) matching[matched++] = i;
    }
    this.matching = matching.subarray(0, matched);
    this.liveOnly = liveOnly;
  }

  private matches(i: number): boolean {
    return this.needle === null || this.closed.lowerAt(i).includes(this.needle);
  }

  /** How many values there are. */
  total(): number {
    if (this.needle === null) return this.closed.size + this.liveOnly;
    // Whether a value matches does not depend on its count: the live ones that match, and the
    // closed ones that match and are not live.
    let n = this.matching.length;
    for (let i = 0; i < this.closed.size; i++) if (this.changed[i] === 0 && this.matches(i)) n++;
    return n;
  }

  /** `limit` rows from `offset`, in the order asked. */
  page(order: TotalsOrder, offset: number, limit: number): ValueCount[] {
    const rows: ValueCount[] = [];
    if (limit <= 0) return rows;
    let skipped = 0;
    for (const row of this.walk(order, this.liveInOrder(order, offset + limit))) {
      if (skipped < offset) skipped++;
      else if (rows.push(row) >= limit) break;
    }
    return rows;
  }

  /** Every row in the order asked, one at a time: a CSV export writes them as they come. */
  rows(order: TotalsOrder): Generator<ValueCount> {
    return this.walk(order, this.liveInOrder(order, Infinity));
  }

  private *walk(order: TotalsOrder, live: ValueCount[]): Generator<ValueCount> {
    const compare = this.rowOrder(order);
    const { values, counts } = this.closed;
    let l = 0;
    for (const i of this.closedOrder(order)) {
      if (this.changed[i] === 1 || !this.matches(i)) continue;
      const row = { value: values[i], count: counts[i] };
      while (l < live.length && compare(live[l], row) < 0) yield live[l++];
      yield row;
    }
    while (l < live.length) yield live[l++];
  }

  /** The first `k` matching live rows in the order asked (all of them when k is Infinity). */
  private liveInOrder(order: TotalsOrder, k: number): ValueCount[] {
    const matching = this.matching;
    const row = (i: number): ValueCount => ({ value: this.live.values[i], count: this.liveCounts[i] });
    if (order.sortBy === 'value') {
      // Already in value order.
      const n = Math.min(k, matching.length);
      if (order.sort === 'asc') return Array.from(matching.subarray(0, n), row);
      return Array.from(matching.subarray(matching.length - n), row).reverse();
    }
    const byValue = this.compare;
    const values = this.live.values;
    const counts = this.liveCounts;
    const sign = order.sort === 'desc' ? -1 : 1;
    const compare = (a: number, b: number) => sign * (counts[a] - counts[b]) || byValue(values[a], values[b]);
    const first =
      matching.length <= k || k > 4096 ? Array.from(matching).sort(compare).slice(0, k) : smallest(matching, k, compare);
    return first.map(row);
  }

  private rowOrder(order: TotalsOrder): (a: ValueCount, b: ValueCount) => number {
    const byValue = this.compare;
    if (order.sortBy === 'value')
      return order.sort === 'asc' ? (a, b) => byValue(a.value, b.value) : (a, b) => byValue(b.value, a.value);
    return order.sort === 'desc'
      ? (a, b) => b.count - a.count || byValue(a.value, b.value)
      : (a, b) => a.count - b.count || byValue(a.value, b.value);
  }

  /** The closed indexes in the order asked. */
  private *closedOrder(order: TotalsOrder): Generator<number> {
    const n = this.closed.size;
    if (order.sortBy === 'value') {
      if (order.sort === 'asc') for (let i = 0; i < n; i++) yield i;
      else for (let i = n - 1; i >= 0; i--) yield i;
      return;
    }
    const byCount = this.closed.byCount();
    if (order.sort === 'desc') {
      for (let k = 0; k < n; k++) yield byCount[k];
      return;
    }
    // Ascending counts, equal counts still by value ascending: the runs of equal counts from the
    // last one back, each from its start.
    const counts = this.closed.counts;
    let end = n;
    while (end > 0) {
      const count = counts[byCount[end - 1]];
      let start = end - 1;
      while (start > 0 && counts[byCount[start - 1]] === count) start--;
      for (let k = start; k < end; k++) yield byCount[k];
      end = start;
    }
  }
}

/** The `k` first of `items` by `compare`, in order: a bounded max-heap, for a page of many. */
function smallest(items: ArrayLike<number>, k: number, compare: (a: number, b: number) => number): number[] {
  const heap: number[] = [];
  const siftUp = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compare(heap[i], heap[parent]) <= 0) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  };
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < heap.length && compare(heap[l], heap[top]) > 0) top = l;
      if (r < heap.length && compare(heap[r], heap[top]) > 0) top = r;
      if (top === i) return;
      [heap[i], heap[top]] = [heap[top], heap[i]];
      i = top;
    }
  };
  for (let j = 0; j < items.length; j++) {
    const item = items[j];
    if (heap.length < k) {
      heap.push(item);
      siftUp(heap.length - 1);
    } else if (compare(item, heap[0]) < 0) {
      heap[0] = item;
      siftDown(0);
    }
  }
  return heap.sort(compare);
}
