import { Type } from '@sinclair/typebox';
import { formatNumber, plural, quote } from '../wording.js';
import { defineCheck, fail, grouped } from './define-check.js';
import { Groups, groupSizes, sum } from './shapes.js';

const LEVELS = [1, 2, 3, 4, 5, 6];

/** Exactly one h1, not the same text as the title, ignoring case (§5.1). */
export const headings = defineCheck({
  name: 'headings',
  position: 30,
  importance: 'high',
  title: 'Headings',
  why: 'One clear h1 tells readers and search engines what the page is about; the other headings outline it.',
  fix: 'Use exactly one <h1> that names the page’s subject in different words from the title, and h2–h6 for sections.',
  // {h1: [texts], h2: …}; texts are read one by one.
  value: Groups(Type.Unknown()),
  errors: { missing: Type.Null(), duplicate: Type.Null(), too_many: Type.Null() },

  run({ artifacts }) {
    const value = grouped(
      LEVELS.map((level) => [`h${level}`, artifacts.headings.filter((h) => h.level === level).map((h) => h.text)]),
    );
    const h1s = artifacts.headings.filter((h) => h.level === 1);
    if (h1s.length === 0) return { value, failure: fail('missing', null) };
    const title = artifacts.head.title;
    if (title !== null && h1s[0].text.toLowerCase() === title.toLowerCase()) return { value, failure: fail('duplicate', null) };
    if (h1s.length > 1) return { value, failure: fail('too_many', null) };
    return { value };
  },

  describe({ passed, value, failure, cuts }) {
    const groups = value === undefined ? null : groupSizes(value, cuts.value);
    const h1 = groups?.find(([level]) => level === 'h1')?.[1] ?? 0;
    const others = groups ? sum(groups) - h1 : 0;
    const rest = others > 0 ? `, and ${plural(others, 'other heading')}` : '';
    if (failure?.key === 'missing')
      return others > 0 ? `No h1 heading (${plural(others, 'other heading')}).` : 'No headings at all.';
    if (failure?.key === 'duplicate') return 'The h1 heading repeats the page title.';
    if (failure?.key === 'too_many')
      return groups ? `${formatNumber(h1)} h1 headings; use exactly one.` : 'More than one h1 heading.';
    if (!passed || groups === null || h1 < 1) return null;
    const first = value !== undefined && !Array.isArray(value) && Object.hasOwn(value, 'h1') ? value.h1[0] : undefined;
    return typeof first === 'string' ? `One h1 heading, ${quote(first, 50)}${rest}.` : `One h1 heading${rest}.`;
  },

  view: { value: { kind: 'outline' }, error: null },
});
