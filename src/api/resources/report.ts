// The API's Report, written straight to JSON bytes: the stored `results` column already is the
// JSON of the 33 checks, so it is copied in as it is. A list of 100 full reports costs no
// decode and no re-encode of those objects, and the response is one Buffer.
import type { StoredReport } from '../../db/reports-repository.js';
import type { PaginatedBody } from '../pagination.js';

type PageInfo = Omit<PaginatedBody<never>, 'data' | 'status'>;

/** Appends the report's JSON to `parts`. */
function pushReport(row: StoredReport, parts: Buffer[]): void {
  parts.push(
    Buffer.from(`{"id":${row.id},"url":${JSON.stringify(row.url)},"project":${JSON.stringify(row.project)},"result":${row.result},"results":`),
    typeof row.results === 'string' ? Buffer.from(row.results) : row.results,
    Buffer.from(
      `,"privacy":${row.privacy},"password":${row.password_hash !== null},"generated_at":${JSON.stringify(row.generated_at)},` +
        `"created_at":${JSON.stringify(row.created_at)},"updated_at":${JSON.stringify(row.updated_at)}}`,
    ),
  );
}

export function reportEnvelope(row: StoredReport, status: 200 | 201): Buffer {
  const parts = [Buffer.from('{"data":')];
  pushReport(row, parts);
  parts.push(Buffer.from(`,"status":${status}}`));
  return Buffer.concat(parts);
}

/** The paginated list: `data` (the rows' JSON), then `links`, `meta`, the page numbers, `status`. */
export function paginatedReportsJson(page: PageInfo, rows: StoredReport[]): Buffer {
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
  return Buffer.concat(parts);
}
