import { Type } from '@sinclair/typebox';
import { collapse } from '../text.js';
import { oneLine, plural } from '../wording.js';
import { defineCheck, fail } from './define-check.js';
import { countOf, LinkItems, type LinkItem } from './shapes.js';

/** Every image is in a listed format, SVG, or inside a <picture> offering a listed format (§5.2). */
export const imageFormat = defineCheck({
  name: 'image_format',
  position: 60,
  importance: 'medium',
  title: 'Modern image formats',
  why: 'AVIF and WebP images are much smaller than JPEG, PNG or GIF at the same quality, so pages load faster.',
  fix: 'Convert the listed images to AVIF or WebP, or offer those formats through <picture> and <source>.',
  /** The accepted formats, as configured. */
  value: Type.Array(Type.String()),
  errors: { bad_format: LinkItems },

  run({ artifacts, config }) {
    const listed = new Set(config.limits.imageFormats.map((f) => f.toLowerCase()));
    const bad: LinkItem[] = [];
    for (const img of artifacts.images) {
      if (img.source === null) continue;
      const modern = img.format === 'svg' || listed.has(img.format) || (img.pictureFormats?.some((f) => listed.has(f)) ?? false);
      if (!modern) bad.push({ url: img.source.url, text: collapse(img.alt ?? '') });
    }
    const value = config.limits.imageFormats;
    return bad.length === 0 ? { value } : { value, failure: fail('bad_format', bad) };
  },

  describe({ passed, value, failure, cuts }) {
    const formats = value?.slice(0, 5).map((f) => oneLine(f, 12)) ?? [];
    const allowed = formats.length > 0 ? `${formats.join(', ')} or SVG` : 'a modern format';
    if (failure?.key === 'bad_format') {
      return failure.payload
        ? `${plural(countOf(failure.payload, cuts.payload()), 'image')} not in ${allowed}.`
        : `Some images are not in ${allowed}.`;
    }
    return passed ? `Every image is in ${allowed}.` : null;
  },

  view: {
    value: { kind: 'chips', caption: 'Accepted formats', skipIfDescribed: true },
    error: { kind: 'list', caption: 'Images in older formats', noun: 'images', item: { kind: 'link', emptyText: 'no alt text' } },
  },
});
