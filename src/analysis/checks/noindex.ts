import { Type } from '@sinclair/typebox';
import type { Meta } from '../artifacts/index.js';
import { headerValues } from '../headers.js';
import { quote } from '../wording.js';
import { defineCheck, fail } from './define-check.js';

const BLOCKING = new Set(['noindex', 'none']);
/** X-Robots-Tag directives that take a value, so `name:` is not a crawler prefix. */
const VALUED_DIRECTIVES = new Set(['unavailable_after', 'max-snippet', 'max-image-preview', 'max-video-preview']);

function blocks(directives: string): boolean {
  return directives.split(',').some((d) => BLOCKING.has(d.trim().toLowerCase()));
}

/** Directives of an X-Robots-Tag value that apply to us: unprefixed, or prefixed with googlebot or our token. */
function headerDirectives(value: string, token: string): string | null {
  const m = /^\s*([A-Za-z0-9_-]+)\s*:(.*)$/s.exec(value);
  if (m === null || VALUED_DIRECTIVES.has(m[1].toLowerCase())) return value;
  const crawler = m[1].toLowerCase();
  return crawler === 'googlebot' || crawler === token.toLowerCase() ? m[2] : null;
}

/** The content of the first robots (or googlebot) meta tag that says noindex or none; null when none does. */
export function blockingMeta(metas: readonly Meta[]): string | null {
  for (const meta of metas) {
    if ((meta.name === 'robots' || meta.name === 'googlebot') && meta.content !== null && blocks(meta.content))
      return meta.content;
  }
  return null;
}

/** No noindex/none in robots meta tags or X-Robots-Tag headers (§5.1). */
export const noindex = defineCheck({
  name: 'noindex',
  position: 250,
  importance: 'high',
  title: 'Indexing allowed',
  why: 'A noindex directive keeps the page out of search results entirely.',
  fix: 'Remove noindex (and none) from the robots meta tags and the X-Robots-Tag header if the page should appear in search results.',
  /** The blocking directive as written (meta content or header value); null when none. */
  value: Type.Union([Type.String(), Type.Null()]),
  errors: { missing: Type.Null() },

  run({ snapshot, artifacts, config }) {
    const meta = blockingMeta(artifacts.head.metas);
    if (meta !== null) return { value: meta, failure: fail('missing', null) };
    for (const value of headerValues(snapshot.headers, 'x-robots-tag')) {
      const directives = headerDirectives(value, config.request.robotsToken);
      if (directives !== null && blocks(directives)) return { value, failure: fail('missing', null) };
    }
    return { value: null };
  },

  describe({ passed, value, failure }) {
    if (failure?.key === 'missing') {
      return typeof value === 'string'
        ? `Indexing blocked by ${quote(value, 50)}.`
        : 'The page tells search engines not to index it.';
    }
    return passed ? 'No noindex directive: search engines may index the page.' : null;
  },

  view: { value: { kind: 'text' }, error: null },
});
