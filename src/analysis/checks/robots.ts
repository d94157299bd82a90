import { blockingPattern } from '../robots.js';
import { defineCheck, fail } from './check.js';

/** robots.txt lets our token fetch the final URL (RFC 9309, §5.1). */
export const robots = defineCheck('robots', 'high', ({ snapshot, config }) => {
  const fetched = snapshot.robots;
  if ('error' in fetched) {
    // Too many redirects counts as "no robots.txt"; anything else leaves us unable to tell.
    return fetched.error === 'too_many_redirects' ? { value: null } : { value: null, failure: fail('failed') };
  }
  if (fetched.status >= 200 && fetched.status < 300) {
    const pattern = blockingPattern(fetched.body, config.request.robotsToken, snapshot.finalUrl);
    return pattern === null ? { value: null } : { value: null, failure: fail('failed', [pattern]) };
  }
  // 3xx (redirects past the limit) and 4xx: everything is allowed; 5xx and others: unknown.
  if (fetched.status >= 300 && fetched.status < 500) return { value: null };
  return { value: null, failure: fail('failed') };
});
