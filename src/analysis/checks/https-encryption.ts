import { Type } from '@sinclair/typebox';
import { defineCheck, fail } from './define-check.js';

/** The final URL is https, so an http URL redirecting to https passes (§5.1). */
export const httpsEncryption = defineCheck({
  name: 'https_encryption',
  position: 160,
  importance: 'high',
  title: 'HTTPS encryption',
  why: 'HTTPS protects visitors’ data, browsers mark plain HTTP pages as not secure, and search engines prefer HTTPS.',
  fix: 'Install a TLS certificate (Let’s Encrypt issues them free) and redirect every HTTP URL to HTTPS.',
  /** The final URL. */
  value: Type.String(),
  /** The scheme it should have had. */
  errors: { missing: Type.Literal('https') },

  run({ snapshot }) {
    const value = snapshot.finalUrl;
    return /^https:/i.test(value) ? { value } : { value, failure: fail('missing', 'https' as const) };
  },

  describe({ passed, failure }) {
    if (failure?.key === 'missing') return 'Served over plain HTTP, not HTTPS.';
    return passed ? 'Served over HTTPS.' : null;
  },

  view: { value: { kind: 'url' }, error: null },
});
