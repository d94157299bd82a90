// The checks' results as the issue pass reads them: one entry per checked URL and kind.
import type { CrawlLinkRow, CrawlLinksRepository } from '../../db/crawl-links-repository.js';

// The shape of src/crawl/issues/checked-target.ts (the issue pass's); kept here until both meet.
export interface CheckedTarget {
  url: string;
  kind: 'link' | 'image' | 'hreflang';
  /** The first answer's status (a 301 for a redirected link); null when nothing answered. */
  statusCode: number | null;
  /** Where the redirects end (the URL itself when none); null when nothing answered. */
  finalUrl: string | null;
  /** Why nothing answered; null when something did. */
  error: string | null;
  /** Content-Length of the final answer, else the bytes read; null when unknown. */
  bytes: number | null;
  /** A few of the crawled pages referring to it (at most 10). */
  linkedFrom: string[];
  /** How many crawled pages refer to it. */
  pages: number;
}

export function checkedTarget(row: CrawlLinkRow): CheckedTarget {
  return {
    url: row.url,
    kind: row.kind,
    statusCode: row.status_code,
    finalUrl: row.final_url,
    error: row.error,
    // bigint: PostgreSQL's driver answers a string.
    bytes: row.bytes === null ? null : Number(row.bytes),
    linkedFrom: JSON.parse(row.linked_from) as string[],
    pages: row.pages,
  };
}

/** Every checked target of a crawl, a batch at a time (URLs left unchecked are not among them). */
export async function* checkedTargets(links: CrawlLinksRepository, crawlId: number): AsyncGenerator<CheckedTarget[]> {
  for await (const batch of links.all(crawlId)) yield batch.map(checkedTarget);
}
