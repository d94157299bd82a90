// How a batch of events changes the rollups (docs/api.md#stats): pure, so the counting rules are
// tested without a database. The repository loads the batch's visitor rows, calls this, and
// writes the events, the visitor rows and the rollup increments in one transaction.

import {
  DIMENSIONS,
  type Dimension,
  type DimensionKey,
  type DimensionSpec,
  dimensionsCounting,
  type EventFieldName,
  type EventFields,
} from './dimensions.js';

/** An event ready to store: every field as the tables keep it (the derived ones: model/dimensions.ts). */
export interface StoredEvent extends EventFields {
  websiteId: number;
  /** Milliseconds since the epoch (the server's clock when the event arrived). */
  at: number;
  createdAt: string;
  /** UTC day YYYY-MM-DD and hour 00–23 of `at`. */
  day: string;
  hour: string;
  visitor: string;
}

/** A visitor's state for one website and day. `seen`: the values they were counted under. */
export interface VisitorState {
  lastSeen: number;
  seen: Record<string, string[]>;
}

export const PAGEVIEW = 'pageview';
/** A pageview 30 minutes or more after the visitor's previous one starts a new visit. */
export const VISIT_GAP_MS = 30 * 60 * 1000;
/** A visitor is counted under at most this many values of one dimension a day (bounds a visitor row). */
export const MAX_SEEN_PER_DIMENSION = 100;

/** The dimensions that count visitors, once per value per day (the order of a visitor row's `seen`). */
export const VISITOR_DIMENSIONS = dimensionsCounting('visitor');

/** A dimension as rollUp reads it: its key and the field it counts (null: one row, value ''). One shape for all. */
interface Counted {
  key: DimensionKey;
  field: EventFieldName | 'hour' | null;
}
const counted = (dimensions: readonly Dimension[]): Counted[] =>
  dimensions.map((d) => ({ key: d.key as DimensionKey, field: (d as DimensionSpec).field ?? null }));
const BY_VISITOR = counted(VISITOR_DIMENSIONS);
const BY_PAGEVIEW = counted(dimensionsCounting('pageview'));
const BY_VISITOR_DAY = counted(dimensionsCounting('visitor-day'));
const BY_VISIT = counted(dimensionsCounting('visit'));
const BY_EVENT = counted(dimensionsCounting('event'));

/** The custom property keys: an event counts once under each key it carries. */
export const PROP_KEY = 'prop_key';
/** One custom property's values, over every event or over one event name's: see propDimension. */
export type PropDimension = `prop:${string}`;

/** A rollup key: a registry dimension's, or a custom property's. */
export type RollupDimension = DimensionKey | PropDimension;

/**
 * The dimension that counts the values of the custom property `key` (an event counts once
 * under the value it carries): over every event, or over the events named `event`. Each
 * property is a dimension of its own, so a stat reads its rows alone, and each keeps its own
 * ANALYTICS_MAX_VALUES values a day. The key's length makes the name unambiguous whatever
 * the key and the event name hold: `prop:4:plan`, `prop:4:plan:Signup`.
 */
export function propDimension(key: string, event?: string | null): PropDimension {
  const dimension = `prop:${key.length}:${key}` as const;
  return event ? `${dimension}:${event}` : dimension;
}

export interface RollupIncrement {
  websiteId: number;
  dimension: RollupDimension;
  day: string;
  value: string;
  count: number;
  /**
   * A property's values count only while its key does: a key past ANALYTICS_MAX_VALUES (it
   * counts under `(other)` in PROP_KEY) stores none of its values, so a sender inventing keys
   * cannot add dimensions without end.
   */
  propKey?: string;
}

/**
 * The value a dimension counts an event under once it keeps ANALYTICS_MAX_VALUES values for the
 * website and day (GA4's "(other)" row): its events still count in every total.
 */
export const OTHER_VALUE = '(other)';

/** The series (one row per day or hour, whatever arrives) are the dimensions the cap leaves alone. */
const SERIES: ReadonlySet<string> = new Set(DIMENSIONS.filter((d) => 'series' in d).map((d) => d.key));

/** Whether `dimension` keeps a bounded number of values per website and day (every one but the series). */
export function isCappedDimension(dimension: RollupDimension): boolean {
  return !SERIES.has(dimension);
}

export const visitorKey = (websiteId: number, day: string, visitor: string) => `${websiteId}\u0000${day}\u0000${visitor}`;

/**
 * Applies `events` (in arrival order) to `visitors` (keyed by visitorKey; updated in place, new
 * visitors added) and returns the rollup increments and the keys of the visitors it changed.
 */
export function rollUp(
  events: StoredEvent[],
  visitors: Map<string, VisitorState>,
): { increments: RollupIncrement[]; changed: Set<string> } {
  const counts = new Map<string, RollupIncrement>();
  const changed = new Set<string>();
  const add = (e: StoredEvent, dimension: RollupDimension, value: string, propKey?: string) => {
    const key = `${e.websiteId}\u0000${dimension}\u0000${e.day}\u0000${value}`;
    const found = counts.get(key);
    if (found) found.count += 1;
    else if (propKey === undefined) counts.set(key, { websiteId: e.websiteId, dimension, day: e.day, value, count: 1 });
    else counts.set(key, { websiteId: e.websiteId, dimension, day: e.day, value, count: 1, propKey });
  };
  const addValue = (e: StoredEvent, d: Counted) => {
    const value = d.field === null ? '' : e[d.field];
    if (value !== null) add(e, d.key, value);
  };

  for (const e of events) {
    // Every event's props, pageviews' too; a key's PROP_KEY row comes before its values' (the
    // order the cap decides them in).
    if (e.props !== null) {
      for (const [key, value] of propEntries(e.props)) {
        add(e, PROP_KEY, key);
        add(e, propDimension(key), value, key);
        add(e, propDimension(key, e.name), value, key);
      }
    }
    if (e.name !== PAGEVIEW) {
      for (const d of BY_EVENT) addValue(e, d);
      continue;
    }
    for (const d of BY_PAGEVIEW) addValue(e, d);

    const key = visitorKey(e.websiteId, e.day, e.visitor);
    let state = visitors.get(key);
    if (!state) {
      state = { lastSeen: e.at, seen: {} };
      visitors.set(key, state);
      for (const d of BY_VISITOR_DAY) addValue(e, d);
      for (const d of BY_VISIT) addValue(e, d);
    } else if (e.at - state.lastSeen >= VISIT_GAP_MS) {
      for (const d of BY_VISIT) addValue(e, d);
    }
    state.lastSeen = Math.max(state.lastSeen, e.at);
    changed.add(key);

    for (const d of BY_VISITOR) {
      const value = d.field === null ? '' : e[d.field];
      if (value === null) continue;
      const seen = state.seen[d.key] ?? [];
      if (seen.includes(value) || seen.length >= MAX_SEEN_PER_DIMENSION) continue;
      seen.push(value);
      state.seen[d.key] = seen;
      add(e, d.key, value);
    }
  }
  return { increments: [...counts.values()], changed };
}

/** The stored props (a JSON object of strings and numbers) as [key, value as text] pairs. */
function propEntries(props: string): [string, string][] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(props);
  } catch {
    return [];
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return [];
  const entries: [string, string][] = [];
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') entries.push([key, String(value)]);
  }
  return entries;
}
