import { quote } from '../wording.js';
import { namedMetaCheck } from './meta.js';

/** A non-blank `<meta name="viewport">` in the head (§5.2). */
export const metaViewport = namedMetaCheck({
  check: 'meta_viewport',
  position: 150,
  importance: 'medium',
  meta: 'viewport',
  title: 'Meta viewport',
  why: 'Without a viewport tag, phones render the page at desktop width and shrink it, and search engines rank it lower on mobile.',
  fix: 'Add <meta name="viewport" content="width=device-width, initial-scale=1"> to the <head>.',
  missing: 'No meta viewport tag.',
  headClosedLead: 'No meta viewport tag in the head',
  found: (content) => `Viewport set to ${quote(content)}.`,
});
