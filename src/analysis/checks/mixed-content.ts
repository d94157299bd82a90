import type { Artifacts } from '../artifacts.js';
import { defineCheck, fail, grouped } from './check.js';

function plainHttp(artifacts: Artifacts, raws: (string | null)[]): string[] {
  const found: string[] = [];
  for (const raw of raws) {
    if (raw === null || raw.trim() === '') continue;
    const target = artifacts.target(raw);
    if (target.protocol === 'http:') found.push(target.reported);
  }
  return found;
}

/** On an https page, subresources loaded over http (§5.2). */
export const mixedContent = defineCheck('mixed_content', 'medium', ({ snapshot, artifacts: a }) => {
  if (!/^https:/i.test(snapshot.finalUrl)) return { value: null };
  const failed = grouped([
    ['JavaScripts', plainHttp(a, a.scripts.map((s) => s.src))],
    ['CSS', plainHttp(a, a.links.filter((l) => l.rel.includes('stylesheet')).map((l) => l.href))],
    ['Images', plainHttp(a, a.images.map((i) => i.src))],
    ['Iframes', plainHttp(a, a.iframes.map((f) => f.src))],
    ['Media', plainHttp(a, a.media)],
  ]);
  return Array.isArray(failed) ? { value: null } : { value: null, failure: fail('failed', failed) };
});
