import type { HeadLink } from './types.js';

/**
 * The href of the first `<link>` whose rel has `icon` and whose href is not blank; null if none
 * (favicon §5.2). The fetcher's /favicon.ico probe and the check read the same answer.
 */
export function firstIconHref(links: readonly HeadLink[]): string | null {
  for (const link of links) {
    if (link.rel.includes('icon') && link.href !== null && link.href.trim() !== '') return link.href;
  }
  return null;
}
