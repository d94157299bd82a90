import { Type } from '@sinclair/typebox';
import { defineCheck, fail } from './define-check.js';

/** A made-up URL answers 404 or 410 (§5.1). */
export const notFoundPage = defineCheck({
  name: '404_page',
  position: 240,
  importance: 'high',
  title: '404 page',
  why: 'A missing page must answer with a 404 status, or search engines may index error pages as real content.',
  fix: 'Configure the server to answer unknown URLs with status 404 (or 410), not a redirect or a 200.',
  /** The made-up URL that was asked for. */
  value: Type.String(),
  errors: { missing: Type.Null() },

  run({ snapshot }) {
    const probe = snapshot.notFoundProbe;
    const value = probe.url;
    const ok = 'status' in probe && (probe.status === 404 || probe.status === 410);
    return ok ? { value } : { value, failure: fail('missing', null) };
  },

  describe({ passed, failure }) {
    if (failure?.key === 'missing') return 'A URL that does not exist did not answer 404 or 410.';
    return passed ? 'A URL that does not exist answers 404 as it should.' : null;
  },

  view: { value: { kind: 'url' }, error: null },
});
