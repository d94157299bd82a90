import { headerValues } from '../headers.js';
import { defineCheck, fail } from './check.js';

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

/** No noindex/none in robots meta tags or X-Robots-Tag headers (§5.1). */
export const noindex = defineCheck('noindex', 'high', ({ snapshot, artifacts, config }) => {
  for (const meta of artifacts.headMetas) {
    if ((meta.name === 'robots' || meta.name === 'googlebot') && meta.content !== null && blocks(meta.content)) {
      return { value: meta.content, failure: fail('missing') };
    }
  }
  for (const value of headerValues(snapshot.headers, 'x-robots-tag')) {
    const directives = headerDirectives(value, config.request.robotsToken);
    if (directives !== null && blocks(directives)) return { value, failure: fail('missing') };
  }
  return { value: null };
});
