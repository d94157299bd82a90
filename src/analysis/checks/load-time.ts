import { Type } from '@sinclair/typebox';
import { formatNumber } from '../wording.js';
import { defineCheck, fail, limit } from './define-check.js';
import { LimitPayload, limitOf } from './shapes.js';

/** Seconds from the first request to the last body byte (§5.2). */
export const loadTime = defineCheck({
  name: 'load_time',
  position: 80,
  importance: 'medium',
  title: 'Load time',
  why: 'Slow pages lose visitors, and page speed is a ranking signal.',
  fix: 'Speed up the server’s response: cache pages, use a CDN, and reduce the work done for each request.',
  value: Type.Number(),
  errors: { too_slow: LimitPayload },

  run({ snapshot, config }) {
    const value = snapshot.loadTime;
    const max = config.limits.loadTime;
    return value <= max ? { value } : { value, failure: fail('too_slow', { max: limit(max) }) };
  },

  describe({ passed, value, failure, limits }) {
    if (value === undefined) return null;
    const max = formatNumber(limitOf(failure?.key === 'too_slow' ? failure.payload : undefined, 'max', limits.loadTime));
    if (failure?.key === 'too_slow') return `Load time ${formatNumber(value)} s; keep it at most ${max} s.`;
    return passed ? `Load time ${formatNumber(value)} s (limit ${max} s).` : null;
  },

  view: { value: { kind: 'none' }, error: null },
});
