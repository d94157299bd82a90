import type { Artifacts } from '../artifacts.js';

export interface PageLink {
  url: string;
  text: string;
}

const SKIPPED_SCHEMES = new Set(['javascript:', 'mailto:', 'tel:']);

/** The `<a href>` links in_page_links counts (not blank, fragment-only, javascript:, mailto: or tel:), split. */
export function pageLinks(artifacts: Artifacts): { internals: PageLink[]; externals: PageLink[] } {
  const internals: PageLink[] = [];
  const externals: PageLink[] = [];
  for (const anchor of artifacts.anchors) {
    const href = anchor.href.trim();
    if (href === '' || href.startsWith('#')) continue;
    const target = artifacts.target(anchor.href);
    if (target.protocol !== null && SKIPPED_SCHEMES.has(target.protocol)) continue;
    (target.internal ? internals : externals).push({ url: target.reported, text: anchor.text });
  }
  return { internals, externals };
}
