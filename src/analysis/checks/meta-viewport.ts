import { namedMetaCheck } from './meta.js';

/** A non-blank `<meta name="viewport">` in the head (§5.2). */
export const metaViewport = namedMetaCheck('meta_viewport', 'medium', 'viewport');
