// The API's Report, written straight to JSON bytes: a fast path that Fastify's serializer
// does not take. The stored `results` column already is the JSON of every check, so it is
// copied in as it is: a list of 100 full reports costs no decode and no re-encode of those
// objects, and the response is one Buffer. The shapes are the schemas' (ReportShown,
// ReportCreated, ReportPage): the OpenAPI document shows them and test/helpers/contract.ts
// checks every response of the suite against it.
import type { Static } from '@sinclair/typebox';
import type { StoredReport } from '../db/reports-repository.js';
import type { PaginatedBody } from '../http/pagination.js';
import type { EncodedJson } from '../http/schemas.js';
import type { Report, ReportCreated, ReportPage, ReportShown } from './schemas.js';

export const JSON_UTF8 = 'application/json; charset=utf-8';

type PageInfo = Omit<PaginatedBody<never>, 'data' | 'status'>;

/** Appends the report's JSON to `parts`. */
function pushReport(row: StoredReport, parts: Buffer[]): void {
  parts.push(
    Buffer.from(
      `{"id":${row.id},"url":${JSON.stringify(row.url)},"project":${JSON.stringify(row.project)},"result":${row.result},"results":`,
    ),
    typeof row.results === 'string' ? Buffer.from(row.results) : row.results,
    Buffer.from(
      `,"privacy":${row.privacy},"password":${row.password_hash !== null},"rendered":${Number(row.rendered) === 1},"generated_at":${JSON.stringify(row.generated_at)},` +
        `"created_at":${JSON.stringify(row.created_at)},"updated_at":${JSON.stringify(row.updated_at)}}`,
    ),
  );
}

/** The Report as a value (event payloads: webhooks): the very JSON the API writes, read back. */
export function reportResource(row: StoredReport): Static<typeof Report> {
  const parts: Buffer[] = [];
  pushReport(row, parts);
  return JSON.parse(Buffer.concat(parts).toString('utf8'));
}

/** `{"data": <report>, "status": …}`, the envelope of envelope.ts in bytes. */
function envelopeBytes(row: StoredReport, status: 200 | 201): Buffer {
  const parts = [Buffer.from('{"data":')];
  pushReport(row, parts);
  parts.push(Buffer.from(`,"status":${status}}`));
  return Buffer.concat(parts);
}

// The casts below name what the bytes hold; nothing else may make an EncodedJson.
export const shownReportJson = (row: StoredReport) => envelopeBytes(row, 200) as EncodedJson<Static<typeof ReportShown>>;
export const createdReportJson = (row: StoredReport) => envelopeBytes(row, 201) as EncodedJson<Static<typeof ReportCreated>>;

/**
 * The API's Report as a plain object (the same bytes, parsed): the `data` of events about a
 * report, so a webhook receiver gets exactly what GET /api/v1/reports/{id} shows.
 */
export function reportObject(row: StoredReport): Record<string, unknown> {
  const parts: Buffer[] = [];
  pushReport(row, parts);
  return JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
}

/** The paginated list: `data` (the rows' JSON), then `links`, `meta`, the page numbers, `status`. */
export function reportPageJson(page: PageInfo, rows: StoredReport[]): EncodedJson<Static<typeof ReportPage>> {
  const parts = [Buffer.from('{"data":[')];
  rows.forEach((row, i) => {
    if (i > 0) parts.push(Buffer.from(','));
    pushReport(row, parts);
  });
  parts.push(
    Buffer.from(
      `],"links":${JSON.stringify(page.links)},"meta":${JSON.stringify(page.meta)},` +
        `"current_page":${page.current_page},"last_page":${page.last_page},"status":200}`,
    ),
  );
  return Buffer.concat(parts) as EncodedJson<Static<typeof ReportPage>>;
}
