import { Type } from '@sinclair/typebox';
import { plural } from '../wording.js';
import { defineCheck, fail } from './define-check.js';
import { countOf } from './shapes.js';

/** External scripts that block parsing: no defer, no async, not a module (§5.3). */
export const deferJavascript = defineCheck({
  name: 'defer_javascript',
  position: 110,
  importance: 'low',
  title: 'Deferred JavaScript',
  why: 'Scripts without defer or async stop the browser from rendering the page until they have loaded and run.',
  fix: 'Add defer (or async, for independent scripts) to the listed <script> tags, or load them as modules.',
  value: Type.Null(),
  /** The blocking scripts' URLs. */
  errors: { missing: Type.Array(Type.String()) },

  run({ artifacts }) {
    const blocking: string[] = [];
    for (const s of artifacts.resources.scripts) {
      if (s.src !== null && !s.defer && !s.async && s.type !== 'module') blocking.push(s.src.url);
    }
    return blocking.length === 0 ? { value: null } : { value: null, failure: fail('missing', blocking) };
  },

  describe({ passed, failure, cuts }) {
    if (failure?.key === 'missing') {
      if (failure.payload === undefined) return 'Some scripts block rendering.';
      const n = countOf(failure.payload, cuts.payload());
      return `${plural(n, 'script')} without defer or async ${n === 1 ? 'blocks' : 'block'} rendering.`;
    }
    return passed ? 'No render-blocking scripts.' : null;
  },

  view: {
    value: { kind: 'none' },
    error: { kind: 'list', caption: 'Render-blocking scripts', noun: 'scripts', item: { kind: 'url' } },
  },
});
