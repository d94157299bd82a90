// The checks' results as the issue pass reads them (issues/checked-target.ts): one entry per
// checked URL and kind; URLs left unchecked are not among them.
import type { CrawlLinkRow, CrawlLinksRepository } from '../../db/crawl-links-repository.js';
import type { CheckedTarget } from '../issues/checked-target.js';

export function checkedTarget(row: CrawlLinkRow): CheckedTarget {
  return {
    url: row.url,
    kind: row.kind,
    statusCode: row.status_code,
    finalUrl: row.final_url,
    finalStatusCode: row.final_status,
    error: row.error,
    // bigint: PostgreSQL's driver answers a string.
    bytes: row.bytes === null ? null : Number(row.bytes),
    linkedFrom: JSON.parse(row.linked_from) as string[],
    pages: row.pages,
  };
}

/** Every checked target of a crawl, a batch at a time. */
export async function* checkedTargets(links: CrawlLinksRepository, crawlId: number): AsyncGenerator<CheckedTarget[]> {
  for await (const batch of links.all(crawlId)) yield batch.map(checkedTarget);
}
