import { defineCheck, fail, limit } from './check.js';

export const domSize = defineCheck('dom_size', 'low', ({ artifacts, config }) => {
  const value = artifacts.elementCount;
  const max = config.limits.maxDomNodes;
  return value <= max ? { value } : { value, failure: fail('too_many', { max: limit(max) }) };
});
