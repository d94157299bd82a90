import { imageFormat, imageSource, sourceFormat } from '../images.js';
import { collapse } from '../text.js';
import { defineCheck, fail } from './check.js';

/** Every image is in a listed format, SVG, or inside a <picture> offering a listed format (§5.2). */
export const imageFormatCheck = defineCheck('image_format', 'medium', ({ artifacts, config }) => {
  const listed = new Set(config.limits.imageFormats.map((f) => f.toLowerCase()));
  const bad = [];
  for (const img of artifacts.images) {
    const source = imageSource(img);
    if (source === null) continue;
    const format = imageFormat(source, img.type, artifacts);
    const modern =
      format === 'svg' ||
      listed.has(format) ||
      (img.pictureSources !== null && img.pictureSources.some((s) => listed.has(sourceFormat(s, artifacts))));
    if (!modern) bad.push({ url: artifacts.resolve(source), text: collapse(img.alt ?? '') });
  }
  const value = config.limits.imageFormats;
  return bad.length === 0 ? { value } : { value, failure: fail('bad_format', bad) };
});
