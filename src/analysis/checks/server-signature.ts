import { headerValues } from '../headers.js';
import { defineCheck, fail } from './check.js';

/** No version number in Server and no X-Powered-By (§5.2). */
export const serverSignature = defineCheck('server_signature', 'medium', ({ snapshot }) => {
  const servers = headerValues(snapshot.headers, 'server');
  const poweredBy = headerValues(snapshot.headers, 'x-powered-by');
  const value = [...servers, ...poweredBy];
  const leaks = servers.some((s) => /\d/.test(s)) || poweredBy.some((p) => p.trim() !== '');
  return leaks ? { value, failure: fail('failed') } : { value };
});
