import { defineCheck, fail } from './check.js';

/** At most one element with a style attribute, SVG markup aside (§5.3); the first 50 are listed, the rest counted in `omitted`. */
export const inlineCss = defineCheck('inline_css', 'low', ({ artifacts, config }) => {
  const styles = artifacts.inlineStyles;
  if (styles.length <= 1) return { value: null };
  return { value: null, failure: fail('failed', styles), maxItems: config.limits.inlineCssSample };
});
