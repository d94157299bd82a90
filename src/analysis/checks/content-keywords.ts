import { defineCheck, fail } from './check.js';

/** At least one title word occurs among the words of the visible text (§5.1). */
export const contentKeywords = defineCheck('content_keywords', 'high', ({ artifacts }) => {
  const titleWords = artifacts.titleWords;
  const found = artifacts.visibleWordsAmong(titleWords);
  return found.length > 0 ? { value: found } : { value: [], failure: fail('missing', titleWords) };
});
