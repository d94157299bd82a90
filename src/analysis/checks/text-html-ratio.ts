import { Type } from '@sinclair/typebox';
import { formatNumber } from '../wording.js';
import { defineCheck, fail, limit } from './define-check.js';
import { LimitPayload, limitOf } from './shapes.js';

/** round(100 × a ÷ b), halves up, in integers. */
function percent(a: number, b: number): number {
  const whole = Math.floor((100 * a) / b);
  return 2 * (100 * a - whole * b) >= b ? whole + 1 : whole;
}

/** Visible text as a share of the decoded HTML, in code points (§5.3). */
export const textHtmlRatio = defineCheck({
  name: 'text_html_ratio',
  position: 210,
  importance: 'low',
  title: 'Text-to-HTML ratio',
  why: 'A low share of visible text suggests heavy markup or thin content.',
  fix: 'Add text, or trim markup: inline scripts, styles, SVG and unnecessary wrapper elements.',
  /** A percentage, 0–100. */
  value: Type.Number(),
  errors: { too_small: LimitPayload },

  run({ artifacts, config }) {
    const html = artifacts.document.codePoints;
    const value = html === 0 ? 0 : percent(artifacts.text.codePoints, html);
    const min = config.limits.minTextRatio;
    return value >= min ? { value } : { value, failure: fail('too_small', { min: limit(min) }) };
  },

  describe({ passed, value, failure, limits }) {
    if (value === undefined) return null;
    const min = formatNumber(limitOf(failure?.key === 'too_small' ? failure.payload : undefined, 'min', limits.minTextRatio));
    if (failure?.key === 'too_small') return `Text is ${formatNumber(value)}% of the HTML; aim for at least ${min}%.`;
    return passed ? `Text is ${formatNumber(value)}% of the HTML (minimum ${min}%).` : null;
  },

  view: { value: { kind: 'none' }, error: null },
});
