import { defineCheck, fail } from './check.js';

/** External scripts that block parsing: no defer, no async, not a module (§5.3). */
export const deferJavascript = defineCheck('defer_javascript', 'low', ({ artifacts }) => {
  const blocking = artifacts.scripts
    .filter((s) => s.src !== null && s.src.trim() !== '' && !s.defer && !s.async && s.type !== 'module')
    .map((s) => artifacts.resolve(s.src!));
  return blocking.length === 0 ? { value: null } : { value: null, failure: fail('missing', blocking) };
});
