import { codePointLength } from '../text.js';
import { defineCheck, fail, limit } from './check.js';
import { headClosedBy } from './head-closed.js';

/** Exactly one non-blank head <title>, 1–60 code points (§5.1). */
export const title = defineCheck('title', 'high', ({ artifacts, config }) => {
  const value = artifacts.title;
  if (value === null) {
    const closedBy = headClosedBy(artifacts, (stray) => stray.titles.some((t) => t !== ''));
    return { value, failure: fail('missing', null, closedBy) };
  }
  if (artifacts.titles.length > 1) return { value, failure: fail('too_many') };
  const length = codePointLength(value);
  const { minTitle, maxTitle } = config.limits;
  if (length < minTitle || length > maxTitle) {
    return { value, failure: fail('length', { min: limit(minTitle), max: limit(maxTitle) }) };
  }
  return { value };
});
