import { defineCheck, fail, limit } from './check.js';

/** Words of the visible text (§5.3). */
export const contentLength = defineCheck('content_length', 'low', ({ artifacts, config }) => {
  const value = artifacts.visibleWordCount;
  const min = config.limits.minWords;
  return value >= min ? { value } : { value, failure: fail('too_few', { min: limit(min) }) };
});
