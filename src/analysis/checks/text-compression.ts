import { Type } from '@sinclair/typebox';
import { headerValues } from '../headers.js';
import { formatBytes } from '../wording.js';
import { defineCheck, fail } from './define-check.js';

const COMPRESSIONS = new Set(['gzip', 'br', 'deflate', 'zstd']);

/** The final response carries a compressing Content-Encoding (§5.1). */
export const textCompression = defineCheck({
  name: 'text_compression',
  position: 130,
  importance: 'high',
  title: 'Text compression',
  why: 'Compressing HTML with gzip or Brotli usually cuts its transfer size by 70% or more.',
  fix: 'Enable gzip or Brotli compression for HTML in the web server or CDN configuration.',
  /** Bytes on the wire. */
  value: Type.Number(),
  errors: { missing: Type.Null() },

  run({ snapshot }) {
    const codings = headerValues(snapshot.headers, 'content-encoding').flatMap((v) => v.toLowerCase().split(/[\s,]+/));
    const value = snapshot.wireBytes;
    return codings.some((c) => COMPRESSIONS.has(c)) ? { value } : { value, failure: fail('missing', null) };
  },

  describe({ passed, value, failure }) {
    const size = value !== undefined ? ` (${formatBytes(value)} transferred)` : '';
    if (failure?.key === 'missing') return `The HTML is sent uncompressed${size}.`;
    return passed ? `The HTML is sent compressed${size}.` : null;
  },

  view: { value: { kind: 'none' }, error: null },
});
