import { Type } from '@sinclair/typebox';
import { isBlank } from '../text.js';
import { plural } from '../wording.js';
import { defineCheck, fail } from './define-check.js';
import { countOf, LinkItems, type LinkItem } from './shapes.js';

/** Every image (src or srcset) has a non-blank alt (§5.1). */
export const imageKeywords = defineCheck({
  name: 'image_keywords',
  position: 50,
  importance: 'high',
  title: 'Image alt text',
  why: 'Alt text describes images to screen-reader users and to search engines, which cannot see them.',
  fix: 'Add an alt attribute to every listed image describing what it shows.',
  /** The images without alt text (null when there are none): the same list as the error's. */
  value: Type.Union([LinkItems, Type.Null()]),
  errors: { missing: LinkItems },

  run({ artifacts }) {
    const missing: LinkItem[] = [];
    for (const img of artifacts.images) {
      if (img.source !== null && isBlank(img.alt)) missing.push({ url: img.source.url, text: '' });
    }
    return missing.length === 0 ? { value: null } : { value: missing, failure: fail('missing', missing) };
  },

  describe({ passed, failure, cuts }) {
    if (failure?.key === 'missing') {
      return failure.payload
        ? `${plural(countOf(failure.payload, cuts.payload()), 'image')} without alt text.`
        : 'Some images have no alt text.';
    }
    return passed ? 'Every image has alt text.' : null;
  },

  // The value repeats the error's list: it is shown once, with the error.
  view: {
    value: { kind: 'none' },
    error: { kind: 'list', caption: 'Images without alt text', noun: 'images', item: { kind: 'link', emptyText: 'no alt text' } },
  },
});
