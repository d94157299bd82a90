import { Type } from '@sinclair/typebox';
import type { PageUrl } from '../artifacts/index.js';
import { plural } from '../wording.js';
import { defineCheck, fail, grouped } from './define-check.js';
import { groupBreakdown, REQUEST_CAPTIONS } from './request-groups.js';
import { Groups, groupSizes, sum } from './shapes.js';

function plainHttp(resources: readonly (PageUrl | null)[]): string[] {
  const found: string[] = [];
  for (const r of resources) if (r !== null && r.scheme === 'http:') found.push(r.url);
  return found;
}

/** On an https page, subresources loaded over http (§5.2). */
export const mixedContent = defineCheck({
  name: 'mixed_content',
  position: 280,
  importance: 'medium',
  title: 'Mixed content',
  why: 'Resources loaded over plain HTTP on an HTTPS page are blocked by browsers or weaken the page’s security.',
  fix: 'Load every listed resource over HTTPS.',
  value: Type.Null(),
  /** {JavaScripts: [urls], CSS, Images, Iframes, Media}. */
  errors: { failed: Groups(Type.String()) },

  run({ snapshot, artifacts: { resources, images } }) {
    if (!/^https:/i.test(snapshot.finalUrl)) return { value: null };
    const failed = grouped([
      ['JavaScripts', plainHttp(resources.scripts.map((s) => s.src))],
      ['CSS', plainHttp(resources.stylesheets)],
      ['Images', plainHttp(images.map((i) => i.src))],
      ['Iframes', plainHttp(resources.iframes.map((f) => f.src))],
      ['Media', plainHttp(resources.media)],
    ]);
    return Array.isArray(failed) ? { value: null } : { value: null, failure: fail('failed', failed) };
  },

  describe({ passed, failure, cuts }) {
    if (failure?.key === 'failed') {
      const groups = failure.payload === undefined ? null : groupSizes(failure.payload, cuts.payload);
      if (groups === null || sum(groups) === 0) return 'Some resources are loaded over plain HTTP.';
      return `${plural(sum(groups), 'resource')} loaded over plain HTTP: ${groupBreakdown(groups)}.`;
    }
    return passed ? 'No resources loaded over plain HTTP.' : null;
  },

  view: { value: { kind: 'none' }, error: { kind: 'groups', captions: REQUEST_CAPTIONS, item: { kind: 'url' } } },
});
