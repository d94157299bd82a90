import { codePointLength } from '../text.js';
import { defineCheck, fail, limit } from './check.js';

/** round(100 × a ÷ b), halves up, in integers. */
function percent(a: number, b: number): number {
  const whole = Math.floor((100 * a) / b);
  return 2 * (100 * a - whole * b) >= b ? whole + 1 : whole;
}

/** Visible text as a share of the decoded HTML, in code points (§5.3). */
export const textHtmlRatio = defineCheck('text_html_ratio', 'low', ({ artifacts, config }) => {
  const html = artifacts.htmlCodePoints;
  const value = html === 0 ? 0 : percent(codePointLength(artifacts.visibleText), html);
  const min = config.limits.minTextRatio;
  return value >= min ? { value } : { value, failure: fail('too_small', { min: limit(min) }) };
});
