import { collapse } from '../text.js';
import { defineCheck, fail } from './check.js';
import { lastMetaContent } from './meta.js';

/** A non-blank `<meta name="description">` in the head; the last non-blank one counts (§5.1). */
export const metaDescription = defineCheck('meta_description', 'high', ({ artifacts }) => {
  const content = lastMetaContent(artifacts, 'description');
  const value = content === null ? null : collapse(content);
  return value === null ? { value, failure: fail('missing') } : { value };
});
