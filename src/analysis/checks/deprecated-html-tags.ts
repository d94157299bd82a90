import { defineCheck, fail } from './check.js';

/** Elements from the configured deprecated list; a single one fails (§5.3). */
export const deprecatedHtmlTags = defineCheck('deprecated_html_tags', 'low', ({ artifacts, config }) => {
  const found: Record<string, number> = {};
  for (const tag of config.limits.deprecatedTags) {
    const count = artifacts.tagCounts.get(tag.toLowerCase()) ?? 0;
    if (count > 0) found[tag] = count;
  }
  return Object.keys(found).length === 0 ? { value: null } : { value: null, failure: fail('bad_tags', found) };
});
