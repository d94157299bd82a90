import { mediaType } from '../headers.js';
import { declaredIconUrl, firstIconHref } from '../probes.js';
import { originOf } from '../urls.js';
import { defineCheck, fail } from './check.js';
import { headClosedBy } from './head-closed.js';

/** A declared icon link, else a /favicon.ico answering 200 with an image (§5.2). */
export const favicon = defineCheck('favicon', 'medium', ({ snapshot, artifacts }) => {
  const declared = declaredIconUrl(artifacts);
  if (declared !== null) return { value: declared };
  const probe = snapshot.faviconProbe;
  if (probe !== null && !('error' in probe) && probe.status === 200 && mediaType(probe.contentType).startsWith('image/')) {
    return { value: `${originOf(snapshot.finalUrl)}/favicon.ico` };
  }
  const closedBy = headClosedBy(artifacts, (stray) => firstIconHref(stray.links) !== null);
  return { value: null, failure: fail('missing', null, closedBy) };
});
