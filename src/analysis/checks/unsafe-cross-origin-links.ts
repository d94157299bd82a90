import { defineCheck, fail } from './check.js';

/** External target=_blank links without noopener or noreferrer (§5.2). */
export const unsafeCrossOriginLinks = defineCheck('unsafe_cross_origin_links', 'medium', ({ artifacts }) => {
  const unsafe: string[] = [];
  for (const anchor of artifacts.anchors) {
    if (anchor.target !== '_blank' || anchor.rel.includes('noopener') || anchor.rel.includes('noreferrer')) continue;
    const target = artifacts.target(anchor.href);
    if ((target.protocol === 'http:' || target.protocol === 'https:') && !target.internal) unsafe.push(target.reported);
  }
  return unsafe.length === 0 ? { value: null } : { value: null, failure: fail('failed', unsafe) };
});
