import { Type } from '@sinclair/typebox';
import { formatNumber, plural } from '../wording.js';
import { defineCheck, fail, grouped, limit } from './define-check.js';
import { groupBreakdown, REQUEST_CAPTIONS, urlsOf } from './request-groups.js';
import { Groups, groupSizes, LimitPayload, limitOf, sum } from './shapes.js';

/** Resources the markup makes a browser fetch, one per element (§5.2). */
export const httpRequests = defineCheck({
  name: 'http_requests',
  position: 100,
  importance: 'medium',
  title: 'HTTP requests',
  why: 'Every script, stylesheet, image and frame the page requests adds to its loading time.',
  fix: 'Combine scripts and stylesheets, lazy-load images and iframes below the fold, and remove unused resources.',
  /** {JavaScripts: [urls], CSS, Images, Iframes}. */
  value: Groups(Type.String()),
  errors: { too_many: LimitPayload },

  run({ artifacts: { resources, images }, config }) {
    const groups: [string, string[]][] = [
      ['JavaScripts', urlsOf(resources.scripts.map((s) => s.src))],
      ['CSS', urlsOf(resources.stylesheets)],
      ['Images', urlsOf(images.filter((i) => !i.lazy).map((i) => i.src))],
      ['Iframes', urlsOf(resources.iframes.filter((f) => !f.lazy).map((f) => f.src))],
    ];
    const total = groups.reduce((n, [, urls]) => n + urls.length, 0);
    const value = grouped(groups);
    const max = config.limits.httpRequests;
    return total <= max ? { value } : { value, failure: fail('too_many', { max: limit(max) }) };
  },

  describe({ passed, value, failure, limits, cuts }) {
    const groups = value === undefined ? null : groupSizes(value, cuts.value);
    const max = formatNumber(limitOf(failure?.key === 'too_many' ? failure.payload : undefined, 'max', limits.httpRequests));
    if (groups === null) return failure?.key === 'too_many' ? `Over ${max} requests.` : null;
    const total = sum(groups);
    const detail = total > 0 ? ` (${groupBreakdown(groups)})` : '';
    if (failure?.key === 'too_many') return `${plural(total, 'request')}${detail}; keep it at most ${max}.`;
    if (!passed) return null;
    return total === 0 ? 'No requests for scripts, stylesheets, images or iframes.' : `${plural(total, 'request')}${detail}.`;
  },

  view: { value: { kind: 'groups', captions: REQUEST_CAPTIONS, item: { kind: 'url' } }, error: null },
});
