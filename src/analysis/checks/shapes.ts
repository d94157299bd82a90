// Schemas and readers several checks share: limits in error payloads, grouped values, lists.

import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * A limit payload, e.g. {"max": "150"}: the check sends strings (§1); stored reports may hold
 * numbers. A value that does not read as a number falls back to the configured limit.
 */
export const LimitPayload = Type.Object({
  min: Type.Optional(Type.Union([Type.String(), Type.Number()])),
  max: Type.Optional(Type.Union([Type.String(), Type.Number()])),
});

/** {group: [...]}, only the non-empty groups; `[]` when there are none. */
export const Groups = <T extends TSchema>(item: T) => Type.Union([Type.Tuple([]), Type.Record(Type.String(), Type.Array(item))]);

/**
 * A `{url, text}` item. Lists of them are read only as lists: the summary counts them and the view
 * shows each item on its own (a malformed one as JSON), so the items themselves are left open.
 */
export const OpenItem = Type.Unknown();

/** A list of `{url, text}` items (see OpenItem). */
export const LinkItems = Type.Array(OpenItem);

export interface LinkItem {
  url: string;
  text: string;
}

/** A limit from a stored payload ({"max": "150"}), else the configured one. */
export function limitOf(payload: Static<typeof LimitPayload> | undefined, key: 'min' | 'max', fallback: number): number {
  const raw = payload?.[key];
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  return typeof n === 'number' && Number.isFinite(n) ? n : fallback;
}

/** A list's exact length: listed plus left out. */
export function countOf(items: readonly unknown[], left: number): number {
  return items.length + left;
}

/**
 * Exact entries per group of a grouped value, counting what each group left out; null when whole
 * groups were left out (the counts are then unknown).
 */
export function groupSizes(
  v: Record<string, readonly unknown[]> | readonly [],
  left: (...path: string[]) => number,
): Array<[string, number]> | null {
  if (left() > 0) return null;
  if (Array.isArray(v)) return [];
  return Object.entries(v).map(([k, items]) => [k, countOf(items, left(k))]);
}

export function sum(groups: Array<[string, number]>): number {
  return groups.reduce((n, [, c]) => n + c, 0);
}
