import { defineCheck, fail, grouped } from './check.js';

const LEVELS = [1, 2, 3, 4, 5, 6];

/** Exactly one h1, not the same text as the title, ignoring case (§5.1). */
export const headings = defineCheck('headings', 'high', ({ artifacts }) => {
  const value = grouped(
    LEVELS.map((level) => [`h${level}`, artifacts.headings.filter((h) => h.level === level).map((h) => h.text)]),
  );
  const h1s = artifacts.headings.filter((h) => h.level === 1);
  if (h1s.length === 0) return { value, failure: fail('missing') };
  const title = artifacts.title;
  if (title !== null && h1s[0].text.toLowerCase() === title.toLowerCase()) {
    return { value, failure: fail('duplicate') };
  }
  if (h1s.length > 1) return { value, failure: fail('too_many') };
  return { value };
});
