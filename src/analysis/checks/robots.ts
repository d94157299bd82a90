import { Type } from '@sinclair/typebox';
import { blockingPattern } from '../robots.js';
import { oneLine } from '../wording.js';
import { defineCheck, fail } from './define-check.js';

/** robots.txt lets our token fetch the final URL (RFC 9309, §5.1). */
export const robots = defineCheck({
  name: 'robots',
  position: 260,
  importance: 'high',
  title: 'robots.txt',
  why: 'If robots.txt disallows the page, search engines will not crawl it.',
  fix: 'Remove or narrow the robots.txt rule that blocks this URL, and make sure /robots.txt answers without a server error.',
  value: Type.Null(),
  /** The blocking rule as written; null when robots.txt could not be read. */
  errors: { failed: Type.Union([Type.Array(Type.String()), Type.Null()]) },

  run({ snapshot, config }) {
    const fetched = snapshot.robots;
    if ('error' in fetched) {
      // Too many redirects counts as "no robots.txt"; anything else leaves us unable to tell.
      return fetched.error === 'too_many_redirects' ? { value: null } : { value: null, failure: fail('failed', null) };
    }
    if (fetched.status >= 200 && fetched.status < 300) {
      const pattern = blockingPattern(fetched.body, config.request.robotsToken, snapshot.finalUrl);
      return pattern === null ? { value: null } : { value: null, failure: fail('failed', [pattern]) };
    }
    // 3xx (redirects past the limit) and 4xx: everything is allowed; 5xx and others: unknown.
    if (fetched.status >= 300 && fetched.status < 500) return { value: null };
    return { value: null, failure: fail('failed', null) };
  },

  describe({ passed, failure }) {
    if (failure?.key === 'failed') {
      const rules = failure.payload;
      if (rules && rules.length > 0) return `Blocked by robots.txt rule ${oneLine(rules[0], 60)}.`;
      return 'robots.txt could not be read (server error or no answer), so crawlers stay away.';
    }
    return passed ? 'robots.txt allows crawling this URL.' : null;
  },

  view: {
    value: { kind: 'none' },
    error: { kind: 'list', caption: 'Blocking rule', noun: 'rules', item: { kind: 'code' }, skipIfDescribed: true },
  },
});
