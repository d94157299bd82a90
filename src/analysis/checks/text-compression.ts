import { headerValues } from '../headers.js';
import { defineCheck, fail } from './check.js';

const COMPRESSIONS = new Set(['gzip', 'br', 'deflate', 'zstd']);

/** The final response carries a compressing Content-Encoding (§5.1). */
export const textCompression = defineCheck('text_compression', 'high', ({ snapshot }) => {
  const codings = headerValues(snapshot.headers, 'content-encoding').flatMap((v) => v.toLowerCase().split(/[\s,]+/));
  const value = snapshot.wireBytes;
  return codings.some((c) => COMPRESSIONS.has(c)) ? { value } : { value, failure: fail('missing') };
});
