import { imageSource } from '../images.js';
import { isBlank } from '../text.js';
import { defineCheck, fail } from './check.js';

/** Every image (src or srcset) has a non-blank alt (§5.1). */
export const imageKeywords = defineCheck('image_keywords', 'high', ({ artifacts }) => {
  const missing = [];
  for (const img of artifacts.images) {
    const source = imageSource(img);
    if (source !== null && isBlank(img.alt)) missing.push({ url: artifacts.resolve(source), text: '' });
  }
  return missing.length === 0 ? { value: null } : { value: missing, failure: fail('missing', missing) };
});
