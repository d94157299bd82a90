import { Type } from '@sinclair/typebox';
import { listing, plural } from '../wording.js';
import { defineCheck, fail } from './define-check.js';
import { countOf } from './shapes.js';

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
export const plaintextEmail = defineCheck({
  name: 'plaintext_email',
  position: 310,
  importance: 'low',
  title: 'Plain-text e-mail addresses',
  why: 'Addresses visible in the page’s source are harvested by spam bots.',
  fix: 'Replace the listed addresses with a contact form, or obfuscate them.',
  value: Type.Null(),
  /** The addresses, deduplicated ignoring case. */
  errors: { failed: Type.Array(Type.String()) },

  run({ artifacts }) {
    const seen = new Set<string>();
    const found: string[] = [];
    for (const text of [artifacts.text.visible, ...artifacts.document.atAttributeValues]) {
      for (const address of addresses(text)) {
        const key = address.toLowerCase();
        if (!seen.has(key)) {
          seen.add(key);
          found.push(address);
        }
      }
    }
    return found.length === 0 ? { value: null } : { value: null, failure: fail('failed', found) };
  },

  describe({ passed, failure, cuts }) {
    if (failure?.key === 'failed') {
      const found = failure.payload;
      const left = cuts.payload();
      return found && found.length > 0
        ? `${plural(countOf(found, left), 'e-mail address', 'e-mail addresses')} in the page: ${listing(found, 2, 40, left)}.`
        : 'E-mail addresses appear in plain text.';
    }
    return passed ? 'No e-mail addresses in plain text.' : null;
  },

  view: {
    value: { kind: 'none' },
    error: { kind: 'list', caption: 'Addresses found', noun: 'addresses', item: { kind: 'text' }, skipIfDescribed: true },
  },
});
