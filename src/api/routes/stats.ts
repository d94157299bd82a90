// /api/v1/stats/{website}: a website's analytics (phpAnalytics' parameters), as a page of
// {value, count} rows or, with format=csv, every row as CSV. 404 for another account's website
// comes before any 422; the date range's own rules answer in the schema's 422.
import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { WebsitesRepository } from '../../db/websites-repository.js';
import { type Clock, utcDay } from '../../time.js';
import { type StatsService, boundedRange, canonicalStatName, statsOrder, knownSortBy } from '../../tracking/stats-service.js';
import { CSV_TYPE, csvParts } from '../../http/csv.js';
import { type FieldErrors, notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/openapi-responses.js';
import { currentPage, listPath, offsetOf, paginate } from '../../http/pagination.js';
import { addError, withRules } from '../../http/rules.js';
import { IdParams } from '../../http/schemas.js';
import { STATS_PER_PAGE, StatsPage, StatsQuery } from '../schemas/stats.js';
import type { Api } from '../../http/type-provider.js';

export interface StatsDeps {
  websites: WebsitesRepository;
  stats: StatsService;
  clock: Clock;
}

/** after_or_equal:from (only when both dates are valid); any span is allowed. */
function rangeRule(from: string | null | undefined, to: string | null | undefined, errors: FieldErrors): void {
  if (from && to && to < from) addError(errors, 'to', 'The to must be a date after or equal to from.');
}

/** The range's rules, and prop's required_if:name,prop (no alias of name means prop). */
function queryRules(
  valid: { from?: string | null; to?: string | null; name?: string; prop?: string | null },
  errors: FieldErrors,
): void {
  rangeRule(valid.from, valid.to, errors);
  if (valid.name === 'prop' && !valid.prop) addError(errors, 'prop', 'The prop field is required when name is prop.');
}

/** The links of a `prop` page carry its key and event name. */
function propLinks(name: string, query: { prop?: string | null; event?: string | null }): [string, string | null][] {
  return name === 'prop'
    ? [
        ['prop', query.prop ?? null],
        ['event', query.event ?? null],
      ]
    : [];
}

export function statsRoutes(app: Api, { websites, stats, clock }: StatsDeps): void {
  app.get(
    '/stats/:id',
    {
      schema: {
        tags: ['stats'],
        summary: "A website's stats: a page of {value, count} rows, or with format=csv every row in CSV",
        params: IdParams('Website'),
        querystring: StatsQuery,
        response: {
          200: {
            description: 'A page of rows (the paginator); with format=csv, every row in CSV (header value,count; CRLF)',
            content: {
              'application/json': { schema: StatsPage },
              // Sent as a stream of text (the document shows a string).
              'text/csv': { schema: Type.Unsafe<Readable>({ type: 'string' }) },
            },
          },
          ...errorResponses(401, 404, 422, 429),
        },
      },
      attachValidation: true, // 404 before any 422; the range rules answer in the schema's 422
    },
    async (request, reply) => {
      const website = await websites.find(request.user!.id, request.params.id);
      if (!website) throw notFound('Website');
      const query = await withRules(request, queryRules, 'querystring');
      const name = canonicalStatName(query.name);
      const { sortBy, sort } = statsOrder(name, knownSortBy(query.sort_by), query.sort);
      const search = query.search ?? null;
      // A long span reads (and zero-fills) no more than the website's life.
      const { from, to } = boundedRange(query.from, query.to, website.created_at.slice(0, 10), utcDay(clock.now()));
      const prop = name === 'prop' ? { prop: query.prop ?? null, event: query.event ?? null } : {};
      const q = { websiteId: website.id, name, from, to, search, sortBy, sort, ...prop };

      if (query.format === 'csv') {
        // Streamed: rows become text as the client reads them (bounded memory per export).
        const rows = await stats.rows(q);
        return reply
          .type(CSV_TYPE)
          .header('Content-Disposition', `attachment; filename="stats-${name}-${query.from}-${query.to}.csv"`)
          .send(
            Readable.from(
              csvParts(
                ['value', 'count'],
                mapRows(rows, (r) => [r.value, r.count]),
              ),
              { highWaterMark: 1 },
            ),
          );
      }

      const perPage = query.per_page ?? STATS_PER_PAGE;
      const page = currentPage(query);
      const { total, rows } = await stats.query(q, perPage, offsetOf(page, perPage));
      return paginate({
        items: rows,
        total,
        page,
        perPage,
        path: listPath(request),
        query: [
          ['name', query.name],
          ['from', query.from],
          ['to', query.to],
          ['search', search],
          ['search_by', query.search_by ?? 'value'],
          ['sort_by', sortBy],
          ['sort', sort],
          ['per_page', perPage],
          ...propLinks(name, query),
        ],
      });
    },
  );
}

function* mapRows<T, U>(rows: Iterable<T>, map: (row: T) => U): Generator<U> {
  for (const row of rows) yield map(row);
}
