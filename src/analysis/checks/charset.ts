import { charsetParam, headerValues, unquote } from '../headers.js';
import { defineCheck, fail } from './check.js';

/** A declared encoding: <meta charset>, then the http-equiv form, then the HTTP header (§5.2). */
export const charset = defineCheck('charset', 'medium', ({ snapshot, artifacts }) => {
  const candidates = [
    ...artifacts.headMetas.map((m) => (m.charset === null ? null : unquote(m.charset.trim()).trim().toLowerCase() || null)),
    ...artifacts.headMetas.map((m) => (m.httpEquiv === 'content-type' && m.content !== null ? charsetParam(m.content) : null)),
    ...headerValues(snapshot.headers, 'content-type').map(charsetParam),
  ];
  const value = candidates.find((c) => c !== null) ?? null;
  return value === null ? { value, failure: fail('missing') } : { value };
});
