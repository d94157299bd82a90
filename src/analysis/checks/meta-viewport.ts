import { collapse } from '../text.js';
import { defineCheck, fail } from './check.js';
import { lastMetaContent } from './meta.js';

/** A non-blank `<meta name="viewport">` in the head (§5.2). */
export const metaViewport = defineCheck('meta_viewport', 'medium', ({ artifacts }) => {
  const content = lastMetaContent(artifacts, 'viewport');
  const value = content === null ? null : collapse(content);
  return value === null ? { value, failure: fail('missing') } : { value };
});
