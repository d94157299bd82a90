// The resource groups of http_requests and mixed_content, as their values name them.

import type { PageUrl } from '../artifacts/index.js';
import { formatNumber, oneLine, plural } from '../wording.js';

/** Group → [caption, noun] on the share page. */
export const REQUEST_CAPTIONS: Record<string, readonly [string, string]> = {
  JavaScripts: ['Scripts', 'scripts'],
  CSS: ['Stylesheets', 'stylesheets'],
  Images: ['Images', 'images'],
  Iframes: ['Iframes', 'iframes'],
  Media: ['Audio, video and embeds', 'media'],
};

const GROUP_WORDS: Record<string, [string, string]> = {
  JavaScripts: ['script', 'scripts'],
  CSS: ['stylesheet', 'stylesheets'],
  Images: ['image', 'images'],
  Iframes: ['iframe', 'iframes'],
  Media: ['media file', 'media files'],
};

/** "1 script, 2 images" (groups this version does not know by their names). */
export function groupBreakdown(groups: Array<[string, number]>): string {
  return groups
    .filter(([, n]) => n > 0)
    .map(([g, n]) => {
      const words = Object.hasOwn(GROUP_WORDS, g) ? GROUP_WORDS[g] : null;
      return words ? plural(n, words[0], words[1]) : `${formatNumber(n)} ${oneLine(g, 30)}`;
    })
    .join(', ');
}

/** The reported URLs of the resources that have one. */
export function urlsOf(resources: readonly (PageUrl | null)[]): string[] {
  const urls: string[] = [];
  for (const r of resources) if (r !== null) urls.push(r.url);
  return urls;
}
