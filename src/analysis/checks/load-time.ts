import { defineCheck, fail, limit } from './check.js';

export const loadTime = defineCheck('load_time', 'medium', ({ snapshot, config }) => {
  const value = snapshot.loadTime;
  const max = config.limits.loadTime;
  return value <= max ? { value } : { value, failure: fail('too_slow', { max: limit(max) }) };
});
