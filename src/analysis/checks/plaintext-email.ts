import { defineCheck, fail } from './check.js';

// The look-behind starts a match only where a run of local-part characters starts, so a long
// run without `@` (a data: URI) costs linear time, not quadratic.
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@(?:[A-Za-z0-9-]+\.)+([A-Za-z]{2,})(?![A-Za-z0-9-])/g;
const FILE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'avif', 'css', 'js']);

function* addresses(text: string): Generator<string> {
  if (!text.includes('@')) return;
  for (const m of text.matchAll(EMAIL)) {
    if (!FILE_EXTENSIONS.has(m[1].toLowerCase())) yield m[0];
  }
}

/** E-mail addresses in visible text and attribute values (§5.3). */
export const plaintextEmail = defineCheck('plaintext_email', 'low', ({ artifacts }) => {
  const seen = new Set<string>();
  const found: string[] = [];
  for (const text of [artifacts.visibleText, ...artifacts.atAttributeValues]) {
    for (const address of addresses(text)) {
      const key = address.toLowerCase();
      if (!seen.has(key)) {
        seen.add(key);
        found.push(address);
      }
    }
  }
  return found.length === 0 ? { value: null } : { value: null, failure: fail('failed', found) };
});
