import { defineCheck, fail, grouped, limit } from './check.js';
import { pageLinks } from './links.js';

/** At most 150 links, split into internal and external (§5.2). */
export const inPageLinks = defineCheck('in_page_links', 'medium', ({ artifacts, config }) => {
  const { internals, externals } = pageLinks(artifacts);
  const value = grouped([
    ['Internals', internals],
    ['Externals', externals],
  ]);
  const max = config.limits.maxLinks;
  return internals.length + externals.length <= max ? { value } : { value, failure: fail('too_many', { max: limit(max) }) };
});
