// Laravel's resource-collection paginator (docs/laravel.md §1b–1e, §2), used by every list.
import type { FastifyRequest } from 'fastify';
import { listed } from './envelope.js';

export const PER_PAGE_VALUES = [10, 25, 50, 100] as const;
export const DEFAULT_PER_PAGE = 100;

export interface PaginatedBody<T> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    links: { url: string | null; label: string; active: boolean }[];
    path: string;
    per_page: number;
    to: number | null;
    total: number;
  };
  /** Also at the top level, as Laravel's plain paginator has them (Pipedream's phpRank app reads them there). */
  current_page: number;
  last_page: number;
  status: 200;
}

/** `page` that is not a plain positive integer counts as 1 (FILTER_VALIDATE_INT, no leading zeros). */
export function currentPage(query: { page?: unknown }): number {
  const raw = query.page;
  if (typeof raw !== 'string' || !/^[1-9][0-9]*$/.test(raw)) return 1;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : 1;
}

export function offsetOf(page: number, perPage: number): number {
  return (page - 1) * perPage;
}

/** The parameters every list takes, as the validator hands them over (`page`: whatever was sent). */
export interface ListQuery<SortBy extends string> {
  search?: string | null;
  sort_by?: SortBy | null;
  sort?: 'asc' | 'desc' | null;
  per_page?: number | null;
  page?: unknown;
}

/** The parameters every list shares, with their defaults. */
export interface ListParams<SortBy extends string> {
  search: string | null;
  sortBy: SortBy;
  sort: 'asc' | 'desc';
  perPage: number;
  page: number;
  offset: number;
}

export function listParams<SortBy extends string>(query: ListQuery<SortBy>, defaultSortBy: SortBy): ListParams<SortBy> {
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  const page = currentPage(query);
  return {
    search: query.search ?? null,
    sortBy: query.sort_by ?? defaultSortBy,
    sort: query.sort ?? 'desc',
    perPage,
    page,
    offset: offsetOf(page, perPage),
  };
}

/** RFC 3986 percent-encoding, as PHP's rawurlencode: everything but A-Za-z0-9-_.~ */
export function rawUrlEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Laravel's UrlWindow: every page up to 13, else a window with "..." gaps. */
export function windowPages(current: number, last: number, onEachSide = 3): (number | '...')[] {
  const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
  if (last < onEachSide * 2 + 8) return range(1, last);
  const window = onEachSide + 4;
  if (current <= window) return [...range(1, window + onEachSide), '...', last - 1, last];
  if (current > last - window) return [1, 2, '...', ...range(last - (window + onEachSide - 1), last)];
  return [1, 2, '...', ...range(current - onEachSide, current + onEachSide), '...', last - 1, last];
}

/**
 * The list's absolute URL without query: scheme and host from the request (the forwarded
 * ones only when the app trusts its proxy, which Fastify's trustProxy decides).
 */
export function listPath(request: FastifyRequest): string {
  const path = request.url.split('?')[0].replace(/\/+$/, '') || '/';
  return `${request.protocol}://${request.host}${path}`;
}

export interface PageOptions {
  /** How many items the page holds. */
  count: number;
  total: number;
  page: number;
  perPage: number;
  path: string;
  /** The list's parameters in link order; null values are left out (Laravel's appends()). */
  query: [string, string | number | null][];
}

/** `links`, `meta` and the top-level page numbers of a page (everything but `data` and `status`). */
export function pagination({
  count,
  total,
  page,
  perPage,
  path,
  query,
}: PageOptions): Omit<PaginatedBody<never>, 'data' | 'status'> {
  const lastPage = Math.max(Math.ceil(total / perPage), 1);
  const base = query
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${rawUrlEncode(k)}=${rawUrlEncode(String(v))}`)
    .join('&');
  const url = (n: number) => `${path}?${base}${base ? '&' : ''}page=${Math.max(n, 1)}`;
  const prev = page > 1 ? url(page - 1) : null;
  const next = page < lastPage ? url(page + 1) : null;
  const from = count > 0 ? (page - 1) * perPage + 1 : null;
  return {
    links: { first: url(1), last: url(lastPage), prev, next },
    meta: {
      current_page: page,
      from,
      last_page: lastPage,
      links: [
        { url: prev, label: '&laquo; Previous', active: false },
        ...windowPages(page, lastPage).map((p) =>
          p === '...' ? { url: null, label: '...', active: false } : { url: url(p), label: String(p), active: p === page },
        ),
        { url: next, label: 'Next &raquo;', active: false },
      ],
      path,
      per_page: perPage,
      to: from === null ? null : from + count - 1,
      total,
    },
    current_page: page,
    last_page: lastPage,
  };
}

/** A list's whole answer: the items in the envelope, with their page. */
export function paginate<T>(options: Omit<PageOptions, 'count'> & { items: T[] }): PaginatedBody<T> {
  const { items, ...rest } = options;
  return listed(items, pagination({ ...rest, count: items.length }));
}
