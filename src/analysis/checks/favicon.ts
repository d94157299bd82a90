import { Type } from '@sinclair/typebox';
import { firstIconHref } from '../artifacts/index.js';
import { mediaType } from '../headers.js';
import { originOf } from '../urls.js';
import { oneLine } from '../wording.js';
import { defineCheck, fail } from './define-check.js';
import { headClosedBy } from './head-closed.js';

/** A declared icon link, else a /favicon.ico answering 200 with an image (§5.2). */
export const favicon = defineCheck({
  name: 'favicon',
  position: 190,
  importance: 'medium',
  title: 'Favicon',
  why: 'The favicon identifies the site in browser tabs, bookmarks and some search results.',
  fix: 'Add <link rel="icon" href="/favicon.png"> to the <head>, or serve an icon at /favicon.ico.',
  /** The icon's URL. */
  value: Type.Union([Type.String(), Type.Null()]),
  errors: { missing: Type.Null() },
  headClosedLead: 'No icon link in the head, and no icon at /favicon.ico',

  run({ snapshot, artifacts: { head } }) {
    if (head.icon !== null) return { value: head.icon };
    const probe = snapshot.faviconProbe;
    if (probe !== null && !('error' in probe) && probe.status === 200 && mediaType(probe.contentType).startsWith('image/')) {
      return { value: `${originOf(snapshot.finalUrl)}/favicon.ico` };
    }
    const closedBy = headClosedBy(head, (stray) => firstIconHref(stray.links) !== null);
    return { value: null, failure: fail('missing', null, closedBy) };
  },

  describe({ passed, value, failure }) {
    if (failure?.key === 'missing') return 'No icon link in the head, and no icon at /favicon.ico.';
    if (!passed || typeof value !== 'string') return null;
    return value.length <= 100 ? `Favicon found at ${oneLine(value, 100)}.` : 'Favicon found.';
  },

  view: { value: { kind: 'url' }, error: null },
});
