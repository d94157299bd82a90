import { Type } from '@sinclair/typebox';
import { formatBytes } from '../wording.js';
import { defineCheck, fail, limit } from './define-check.js';
import { LimitPayload, limitOf } from './shapes.js';

/** Body bytes on the wire of the final response (§5.2). */
export const pageSize = defineCheck({
  name: 'page_size',
  position: 90,
  importance: 'medium',
  title: 'Page size',
  why: 'A large HTML document takes longer to download, especially on mobile connections.',
  fix: 'Shrink the HTML: enable compression, remove inline scripts, styles and data, and paginate long content.',
  value: Type.Number(),
  errors: { too_large: LimitPayload },

  run({ snapshot, config }) {
    const value = snapshot.wireBytes;
    const max = config.limits.pageSize;
    return value <= max ? { value } : { value, failure: fail('too_large', { max: limit(max) }) };
  },

  describe({ passed, value, failure, limits }) {
    if (value === undefined) return null;
    const max = formatBytes(limitOf(failure?.key === 'too_large' ? failure.payload : undefined, 'max', limits.pageSize));
    if (failure?.key === 'too_large') return `Page size ${formatBytes(value)}; keep it at most ${max}.`;
    return passed ? `Page size ${formatBytes(value)} (limit ${max}).` : null;
  },

  view: { value: { kind: 'none' }, error: null },
});
