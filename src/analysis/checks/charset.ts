import { Type } from '@sinclair/typebox';
import type { Meta } from '../artifacts/index.js';
import { charsetParam, headerValues, unquote } from '../headers.js';
import { quote } from '../wording.js';
import { defineCheck, fail } from './define-check.js';
import { headClosedBy } from './head-closed.js';

/** The first label of `<meta charset>`, else of the http-equiv Content-Type form; null if none. */
function metaCharset(metas: readonly Meta[]): string | null {
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
export const charset = defineCheck({
  name: 'charset',
  position: 220,
  importance: 'medium',
  title: 'Character encoding',
  why: 'A declared encoding makes browsers display every character of the page correctly.',
  fix: 'Add <meta charset="utf-8"> at the start of the <head>, or a charset parameter to the Content-Type header.',
  value: Type.Union([Type.String(), Type.Null()]),
  errors: { missing: Type.Null() },
  headClosedLead: 'No character encoding declared in the head',

  run({ snapshot, artifacts: { head } }) {
    const value =
      metaCharset(head.metas) ??
      headerValues(snapshot.headers, 'content-type')
        .map(charsetParam)
        .find((c) => c !== null) ??
      null;
    if (value !== null) return { value };
    const closedBy = headClosedBy(head, (stray) => metaCharset(stray.metas) !== null);
    return { value, failure: fail('missing', null, closedBy) };
  },

  describe({ passed, value, failure }) {
    if (failure?.key === 'missing') return 'No character encoding declared.';
    return passed && typeof value === 'string' ? `Character encoding declared as ${quote(value, 35)}.` : null;
  },

  view: { value: { kind: 'text' }, error: null },
});
