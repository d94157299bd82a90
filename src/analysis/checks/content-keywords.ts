import { Type } from '@sinclair/typebox';
import { listing } from '../wording.js';
import { defineCheck, fail } from './define-check.js';
import { countOf } from './shapes.js';

/** At least one title word occurs among the words of the visible text (§5.1). */
export const contentKeywords = defineCheck({
  name: 'content_keywords',
  position: 40,
  importance: 'high',
  title: 'Content keywords',
  why: 'Words from the title that also appear in the text confirm to search engines what the page is about.',
  fix: 'Use the main words of the title in the page’s visible text, or retitle the page to match its content.',
  /** The title words found in the text. */
  value: Type.Array(Type.String()),
  /** The title words looked for. */
  errors: { missing: Type.Array(Type.String()) },

  run({ artifacts }) {
    const found = artifacts.text.titleWordsFound;
    return found.length > 0 ? { value: found } : { value: [], failure: fail('missing', artifacts.head.titleWords) };
  },

  describe({ passed, value, failure, cuts }) {
    if (failure?.key === 'missing') {
      const words = failure.payload;
      if (words === undefined) return 'None of the title’s words appear in the page’s text.';
      if (countOf(words, cuts.payload()) === 0) return 'No title words to look for (no title, or only short and common words).';
      return `None of the title’s words appear in the text (looked for ${listing(words, 4, 25, cuts.payload())}).`;
    }
    return passed && value !== undefined && countOf(value, cuts.value()) > 0
      ? `Title words found in the text: ${listing(value, 5, 25, cuts.value())}.`
      : null;
  },

  view: {
    value: { kind: 'chips', caption: 'Title words found in the text', skipIfDescribed: true },
    error: { kind: 'chips', caption: 'Title words looked for', skipIfDescribed: true },
  },
});
