import { Type } from '@sinclair/typebox';
import { codePointLength } from '../text.js';
import { lengthOf } from '../wording.js';
import { defineCheck, fail, limit } from './define-check.js';
import { headClosedBy } from './head-closed.js';
import { LimitPayload, limitOf } from './shapes.js';

/** Exactly one non-blank head <title>, 1–60 code points (§5.1). */
export const title = defineCheck({
  name: 'title',
  position: 10,
  importance: 'high',
  title: 'Title tag',
  why: 'The title is the headline search engines show for the page and the name of its browser tab.',
  fix: 'Give the page exactly one <title> in the <head>, describing this page in at most 60 characters.',
  value: Type.Union([Type.String(), Type.Null()]),
  errors: { missing: Type.Null(), too_many: Type.Null(), length: LimitPayload },
  headClosedLead: 'No title tag in the head',

  run({ artifacts: { head }, config }) {
    const value = head.title;
    if (value === null) {
      const closedBy = headClosedBy(head, (stray) => stray.titles.some((t) => t !== ''));
      return { value, failure: fail('missing', null, closedBy) };
    }
    if (head.titles.length > 1) return { value, failure: fail('too_many', null) };
    const length = codePointLength(value);
    const { minTitle, maxTitle } = config.limits;
    if (length < minTitle || length > maxTitle) {
      return { value, failure: fail('length', { min: limit(minTitle), max: limit(maxTitle) }) };
    }
    return { value };
  },

  describe({ passed, value, failure, limits }) {
    if (failure?.key === 'missing') return 'No title tag, or it is blank.';
    if (failure?.key === 'too_many') return 'The page has more than one title tag.';
    if (value === undefined || value === null) return null;
    const stored = failure?.key === 'length' ? failure.payload : undefined;
    const min = limitOf(stored, 'min', limits.minTitle);
    const max = limitOf(stored, 'max', limits.maxTitle);
    if (failure?.key === 'length') return `Title is ${lengthOf(value)}; keep it between ${min} and ${max}.`;
    return passed ? `Title is ${lengthOf(value)} (limit ${min}–${max}).` : null;
  },

  view: { value: { kind: 'text' }, error: null },
});
