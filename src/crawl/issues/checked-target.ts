// What a link or image check on another host (and an image on the site's own host) found, as the
// issue pass reads it: one entry per distinct URL checked in a crawl. The checker fills these; the
// pure issue pass turns them into broken_external_link, broken_image, external_redirect,
// large_image and the other-host part of hreflang_to_non_200.

export type CheckedTargetKind = 'link' | 'image' | 'hreflang';

export interface CheckedTarget {
  /** The URL as linked (absolute, fragment stripped). */
  url: string;
  /** How the pages refer to it: an `<a href>`, an `<img src>`, or an hreflang alternate. */
  kind: CheckedTargetKind;
  /** The first answer's status (a 301 for a redirected link); null when nothing answered. */
  statusCode: number | null;
  /** Where the redirects end (the URL itself when none); null when nothing answered. */
  finalUrl: string | null;
  /** The last answer's status when redirects were followed (a 301 that ends at a 404: 404); absent or null: unknown. */
  finalStatusCode?: number | null;
  /** Why nothing answered (timeout, refused, blocked by the address guard…); null when something did. */
  error: string | null;
  /** The body's size: Content-Length of the final answer, else the bytes read; null when unknown. */
  bytes: number | null;
  /** A few of the crawled pages referring to it (at most 10 are named). */
  linkedFrom: string[];
  /** How many crawled pages refer to it; may exceed linkedFrom.length. */
  pages: number;
}
