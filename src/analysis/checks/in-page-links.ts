import { formatNumber, plural } from '../wording.js';
import { defineCheck, fail, grouped, limit } from './define-check.js';
import { Groups, groupSizes, LimitPayload, limitOf, OpenItem, sum, type LinkItem } from './shapes.js';

const SKIPPED_SCHEMES = new Set(['javascript:', 'mailto:', 'tel:']);

/** At most 150 links (not blank, fragment-only, javascript:, mailto: or tel:), split into internal and external (§5.2). */
export const inPageLinks = defineCheck({
  name: 'in_page_links',
  position: 70,
  importance: 'medium',
  title: 'In-page links',
  why: 'A page with too many links dilutes the value passed to each and is harder for people to use.',
  fix: 'Cut the number of links: drop duplicates and move long link lists (archives, tag clouds) to their own pages.',
  /** {Internals: [{url, text}], Externals: […]}; the items are read one by one. */
  value: Groups(OpenItem),
  errors: { too_many: LimitPayload },

  run({ artifacts, config }) {
    const internals: LinkItem[] = [];
    const externals: LinkItem[] = [];
    for (const anchor of artifacts.links) {
      const href = anchor.href.trim();
      if (href === '' || href.startsWith('#')) continue;
      const { resolved } = anchor;
      if (resolved.scheme !== null && SKIPPED_SCHEMES.has(resolved.scheme)) continue;
      (resolved.internal ? internals : externals).push({ url: resolved.url, text: anchor.text });
    }
    const value = grouped([
      ['Internals', internals],
      ['Externals', externals],
    ]);
    const max = config.limits.maxLinks;
    return internals.length + externals.length <= max ? { value } : { value, failure: fail('too_many', { max: limit(max) }) };
  },

  describe({ passed, value, failure, limits, cuts }) {
    const max = () => formatNumber(limitOf(failure?.key === 'too_many' ? failure.payload : undefined, 'max', limits.maxLinks));
    const groups = value === undefined ? null : groupSizes(value, cuts.value);
    if (groups === null) return failure?.key === 'too_many' ? `Over ${max()} links.` : null;
    const total = sum(groups);
    const count = (g: string) => groups.find(([k]) => k === g)?.[1] ?? 0;
    const split = `${formatNumber(count('Internals'))} internal, ${formatNumber(count('Externals'))} external`;
    if (failure?.key === 'too_many') return `${plural(total, 'link')} (${split}); keep it at most ${max()}.`;
    if (!passed) return null;
    return total === 0 ? 'No links on the page.' : `${plural(total, 'link')}: ${split}.`;
  },

  view: {
    value: {
      kind: 'groups',
      captions: { Internals: ['Internal links', 'links'], Externals: ['External links', 'links'] },
      item: { kind: 'link', emptyText: 'no link text' },
    },
    error: null,
  },
});
