import { Type } from '@sinclair/typebox';
import { plural } from '../wording.js';
import { defineCheck, fail } from './define-check.js';
import { countOf } from './shapes.js';

/** At most one element with a style attribute, SVG markup aside (§5.3); the first 50 are listed, the rest counted in `omitted`. */
export const inlineCss = defineCheck({
  name: 'inline_css',
  position: 330,
  importance: 'low',
  title: 'Inline CSS',
  why: 'Style attributes mix presentation into the content, bloat the HTML and cannot be cached.',
  fix: 'Move the listed style attributes into a stylesheet and use classes instead.',
  value: Type.Null(),
  /** The style attributes, trimmed. */
  errors: { failed: Type.Array(Type.String()) },

  run({ artifacts, config }) {
    const styles = artifacts.document.inlineStyles;
    if (styles.length <= 1) return { value: null };
    return { value: null, failure: fail('failed', styles), maxItems: config.limits.inlineCssSample };
  },

  describe({ passed, failure, cuts }) {
    if (failure?.key === 'failed') {
      if (failure.payload === undefined) return 'Elements use inline style attributes.';
      // The styles beyond the sample are counted in `omitted` (reports before it said "at least").
      const n = countOf(failure.payload, cuts.payload());
      return `${plural(n, 'element')} ${n === 1 ? 'has' : 'have'} a style attribute.`;
    }
    return passed ? 'At most one element has a style attribute.' : null;
  },

  view: {
    value: { kind: 'none' },
    error: { kind: 'list', caption: 'Style attributes', noun: 'style attributes', item: { kind: 'code' } },
  },
});
