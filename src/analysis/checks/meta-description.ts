import { namedMetaCheck } from './meta.js';

/** A non-blank `<meta name="description">` in the head; the last non-blank one counts (§5.1). */
export const metaDescription = namedMetaCheck('meta_description', 'high', 'description');
