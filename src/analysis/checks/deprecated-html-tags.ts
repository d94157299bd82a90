import { Type } from '@sinclair/typebox';
import { formatNumber, listing, oneLine, plural } from '../wording.js';
import { defineCheck, fail } from './define-check.js';

/** Elements from the configured deprecated list; a single one fails (§5.3). */
export const deprecatedHtmlTags = defineCheck({
  name: 'deprecated_html_tags',
  position: 230,
  importance: 'low',
  title: 'Deprecated HTML tags',
  why: 'Obsolete tags such as <font> and <center> may render inconsistently and mix styling into the content.',
  fix: 'Replace the listed tags with modern markup and CSS.',
  value: Type.Null(),
  /** {tag: count}. */
  errors: { bad_tags: Type.Record(Type.String(), Type.Number()) },

  run({ artifacts, config }) {
    const { tagCounts } = artifacts.document;
    const found: Record<string, number> = {};
    for (const tag of config.limits.deprecatedTags) {
      const name = tag.toLowerCase();
      const count = Object.hasOwn(tagCounts, name) ? tagCounts[name] : 0;
      if (count > 0) found[tag] = count;
    }
    return Object.keys(found).length === 0 ? { value: null } : { value: null, failure: fail('bad_tags', found) };
  },

  describe({ passed, failure, cuts }) {
    if (failure?.key === 'bad_tags') {
      // Tags left out of the report leave the total unknown.
      if (failure.payload === undefined || cuts.payload() > 0) return 'The page uses deprecated HTML tags.';
      const tags = Object.entries(failure.payload);
      const total = tags.reduce((n, [, c]) => n + c, 0);
      const list = tags.map(([tag, n]) => `<${oneLine(tag, 15)}> ×${formatNumber(n)}`);
      return tags.length > 0 ? `${plural(total, 'deprecated tag')}: ${listing(list, 5)}.` : 'The page uses deprecated HTML tags.';
    }
    return passed ? 'No deprecated HTML tags.' : null;
  },

  view: { value: { kind: 'none' }, error: { kind: 'counts' } },
});
