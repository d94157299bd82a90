import { defineCheck, fail } from './check.js';

/** The final URL is https, so an http URL redirecting to https passes (§5.1). */
export const httpsEncryption = defineCheck('https_encryption', 'high', ({ snapshot }) => {
  const value = snapshot.finalUrl;
  return /^https:/i.test(value) ? { value } : { value, failure: fail('missing', 'https') };
});
