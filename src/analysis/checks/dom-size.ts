import { Type } from '@sinclair/typebox';
import { formatNumber, plural } from '../wording.js';
import { defineCheck, fail, limit } from './define-check.js';
import { LimitPayload, limitOf } from './shapes.js';

/** Elements in the parsed document (§5.3). */
export const domSize = defineCheck({
  name: 'dom_size',
  position: 120,
  importance: 'low',
  title: 'DOM size',
  why: 'A page with very many elements uses more memory and takes longer to lay out and update.',
  fix: 'Simplify the markup: remove wrapper elements, and paginate or lazy-render long lists.',
  value: Type.Number(),
  errors: { too_many: LimitPayload },

  run({ artifacts, config }) {
    const value = artifacts.document.elements;
    const max = config.limits.maxDomNodes;
    return value <= max ? { value } : { value, failure: fail('too_many', { max: limit(max) }) };
  },

  describe({ passed, value, failure, limits }) {
    if (value === undefined) return null;
    const max = formatNumber(limitOf(failure?.key === 'too_many' ? failure.payload : undefined, 'max', limits.maxDomNodes));
    if (failure?.key === 'too_many') return `${plural(value, 'element')}; keep it at most ${max}.`;
    return passed ? `${plural(value, 'element')} (limit ${max}).` : null;
  },

  view: { value: { kind: 'none' }, error: null },
});
