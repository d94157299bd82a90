import { Type } from '@sinclair/typebox';
import { plural } from '../wording.js';
import { defineCheck, fail } from './define-check.js';
import { countOf } from './shapes.js';

/** External target=_blank links without noopener or noreferrer (§5.2). */
export const unsafeCrossOriginLinks = defineCheck({
  name: 'unsafe_cross_origin_links',
  position: 300,
  importance: 'medium',
  title: 'Unsafe cross-origin links',
  why: 'A page opened with target="_blank" can redirect the page that opened it unless the link has rel="noopener".',
  fix: 'Add rel="noopener" (or rel="noreferrer") to the listed links.',
  value: Type.Null(),
  /** The links' URLs. */
  errors: { failed: Type.Array(Type.String()) },

  run({ artifacts }) {
    const unsafe: string[] = [];
    for (const anchor of artifacts.links) {
      if (anchor.target !== '_blank' || anchor.rel.includes('noopener') || anchor.rel.includes('noreferrer')) continue;
      const { scheme, internal, url } = anchor.resolved;
      if ((scheme === 'http:' || scheme === 'https:') && !internal) unsafe.push(url);
    }
    return unsafe.length === 0 ? { value: null } : { value: null, failure: fail('failed', unsafe) };
  },

  describe({ passed, failure, cuts }) {
    if (failure?.key === 'failed') {
      if (failure.payload === undefined) return 'Some external links open a new tab without noopener.';
      const n = countOf(failure.payload, cuts.payload());
      return `${plural(n, 'external link')} ${n === 1 ? 'opens' : 'open'} a new tab without noopener.`;
    }
    return passed ? 'Every link opening a new tab is safe.' : null;
  },

  view: {
    value: { kind: 'none' },
    error: { kind: 'list', caption: 'Links opening a new tab without noopener', noun: 'links', item: { kind: 'url' } },
  },
});
