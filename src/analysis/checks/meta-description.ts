import { lengthOf } from '../wording.js';
import { namedMetaCheck } from './meta.js';

/** A non-blank `<meta name="description">` in the head; the last non-blank one counts (§5.1). */
export const metaDescription = namedMetaCheck({
  check: 'meta_description',
  position: 20,
  importance: 'high',
  meta: 'description',
  title: 'Meta description',
  why: 'Search engines often show the meta description as the snippet under the title in their results.',
  fix: 'Add <meta name="description" content="…"> to the <head> with a one- or two-sentence summary of the page.',
  missing: 'No meta description.',
  headClosedLead: 'No meta description in the head',
  found: (content) => `Meta description is ${lengthOf(content)}.`,
});
