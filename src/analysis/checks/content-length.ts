import { Type } from '@sinclair/typebox';
import { formatNumber, plural } from '../wording.js';
import { defineCheck, fail, limit } from './define-check.js';
import { LimitPayload, limitOf } from './shapes.js';

/** Words of the visible text (§5.3). */
export const contentLength = defineCheck({
  name: 'content_length',
  position: 200,
  importance: 'low',
  title: 'Content length',
  why: 'Pages with substantial text tend to rank better than thin ones for informational searches.',
  fix: 'Expand the page’s text with useful content about its subject.',
  value: Type.Number(),
  errors: { too_few: LimitPayload },

  run({ artifacts, config }) {
    const value = artifacts.text.words;
    const min = config.limits.minWords;
    return value >= min ? { value } : { value, failure: fail('too_few', { min: limit(min) }) };
  },

  describe({ passed, value, failure, limits }) {
    if (value === undefined) return null;
    const min = formatNumber(limitOf(failure?.key === 'too_few' ? failure.payload : undefined, 'min', limits.minWords));
    if (failure?.key === 'too_few') return `${plural(value, 'word')} of text; aim for at least ${min}.`;
    return passed ? `${plural(value, 'word')} of text (minimum ${min}).` : null;
  },

  view: { value: { kind: 'none' }, error: null },
});
