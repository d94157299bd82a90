import { defineCheck, fail } from './check.js';

/** A made-up URL answers 404 or 410 (§5.1). */
export const notFoundPage = defineCheck('404_page', 'high', ({ snapshot }) => {
  const probe = snapshot.notFoundProbe;
  const value = probe.url;
  const ok = 'status' in probe && (probe.status === 404 || probe.status === 410);
  return ok ? { value } : { value, failure: fail('missing') };
});
