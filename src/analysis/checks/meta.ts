import type { MetaInfo } from '../artifacts.js';
import { collapse } from '../text.js';
import type { CheckName, Importance } from '../types.js';
import { defineCheck, fail } from './check.js';
import { headClosedBy } from './head-closed.js';

/** The content of the last `<meta name=…>` whose content is not blank; null if none. */
export function lastMetaContent(metas: MetaInfo[], name: string): string | null {
  let found: string | null = null;
  for (const meta of metas) {
    if (meta.name === name && meta.content !== null && meta.content.trim() !== '') found = meta.content;
  }
  return found;
}

/** A check that a non-blank head `<meta name=…>` is present: meta_description, meta_viewport. */
export function namedMetaCheck(check: CheckName, importance: Importance, name: string) {
  return defineCheck(check, importance, ({ artifacts }) => {
    const content = lastMetaContent(artifacts.headMetas, name);
    if (content !== null) return { value: collapse(content) };
    const closedBy = headClosedBy(artifacts, (stray) => lastMetaContent(stray.metas, name) !== null);
    return { value: null, failure: fail('missing', null, closedBy) };
  });
}
