import { Type } from '@sinclair/typebox';
import { headerValues } from '../headers.js';
import { listing } from '../wording.js';
import { defineCheck, fail } from './define-check.js';

/** No version number in Server and no X-Powered-By (§5.2). */
export const serverSignature = defineCheck({
  name: 'server_signature',
  position: 290,
  importance: 'medium',
  title: 'Server signature',
  why: 'Headers that reveal server software versions help attackers find known vulnerabilities.',
  fix: 'Hide version numbers in the Server header (e.g. server_tokens off in nginx) and remove the X-Powered-By header.',
  /** The Server and X-Powered-By values. */
  value: Type.Array(Type.String()),
  errors: { failed: Type.Null() },

  run({ snapshot }) {
    const servers = headerValues(snapshot.headers, 'server');
    const poweredBy = headerValues(snapshot.headers, 'x-powered-by');
    const value = [...servers, ...poweredBy];
    const leaks = servers.some((s) => /\d/.test(s)) || poweredBy.some((p) => p.trim() !== '');
    return leaks ? { value, failure: fail('failed', null) } : { value };
  },

  describe({ passed, value, failure, cuts }) {
    const left = cuts.value();
    const named = value !== undefined && value.length > 0 ? listing(value, 2, 40, left) : null;
    if (failure?.key === 'failed')
      return named ? `Headers reveal the server software: ${named}.` : 'Headers reveal the server software.';
    if (!passed) return null;
    return named ? `No version revealed (Server: ${named}).` : 'No Server or X-Powered-By header.';
  },

  view: {
    value: { kind: 'list', caption: 'Headers', noun: 'headers', item: { kind: 'code' }, skipIfDescribed: true },
    error: null,
  },
});
