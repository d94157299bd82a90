// The decisions behind the conditional side fetches. The fetcher and the checks both call
// these, so whether a probe is made and how the check reads the page cannot drift apart (§7.1).

import type { Artifacts } from './artifacts/index.js';
import { sitemapUrls } from './robots.js';

/** The first head `<link>` whose rel has `icon` and whose href is not blank, resolved (favicon §5.2). */
export function declaredIconUrl(artifacts: Artifacts): string | null {
  return artifacts.head.icon;
}

/** The `Sitemap:` URLs of a robots.txt body, resolved and deduplicated (sitemap §5.3). */
export function robotsSitemapUrls(robotsBody: string, robotsUrl: string): string[] {
  return sitemapUrls(robotsBody, robotsUrl);
}
