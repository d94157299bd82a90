import type { MetaInfo } from '../artifacts.js';
import { charsetParam, headerValues, unquote } from '../headers.js';
import { defineCheck, fail } from './check.js';
import { headClosedBy } from './head-closed.js';

/** The first label of `<meta charset>`, else of the http-equiv Content-Type form; null if none. */
function metaCharset(metas: MetaInfo[]): string | null {
  for (const m of metas) {
    const label = m.charset === null ? null : unquote(m.charset.trim()).trim().toLowerCase() || null;
    if (label !== null) return label;
  }
  for (const m of metas) {
    const label = m.httpEquiv === 'content-type' && m.content !== null ? charsetParam(m.content) : null;
    if (label !== null) return label;
  }
  return null;
}

/** A declared encoding: <meta charset>, then the http-equiv form, then the HTTP header (§5.2). */
export const charset = defineCheck('charset', 'medium', ({ snapshot, artifacts }) => {
  const value =
    metaCharset(artifacts.headMetas) ??
    headerValues(snapshot.headers, 'content-type').map(charsetParam).find((c) => c !== null) ??
    null;
  if (value !== null) return { value };
  const closedBy = headClosedBy(artifacts, (stray) => metaCharset(stray.metas) !== null);
  return { value, failure: fail('missing', null, closedBy) };
});
