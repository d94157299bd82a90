import { defineCheck, fail, limit } from './check.js';

/** Body bytes on the wire of the final response (§5.2). */
export const pageSize = defineCheck('page_size', 'medium', ({ snapshot, config }) => {
  const value = snapshot.wireBytes;
  const max = config.limits.pageSize;
  return value <= max ? { value } : { value, failure: fail('too_large', { max: limit(max) }) };
});
