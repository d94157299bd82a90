import { defineCheck, fail, grouped, limit } from './check.js';

function nonBlank(value: string | null): value is string {
  return value !== null && value.trim() !== '';
}

/** Resources the markup makes a browser fetch, one per element (§5.2). */
export const httpRequests = defineCheck('http_requests', 'medium', ({ artifacts, config }) => {
  const a = artifacts;
  const groups: [string, string[]][] = [
    ['JavaScripts', a.scripts.map((s) => s.src).filter(nonBlank).map(a.resolve)],
    ['CSS', a.links.filter((l) => l.rel.includes('stylesheet')).map((l) => l.href).filter(nonBlank).map(a.resolve)],
    ['Images', a.images.filter((i) => i.loading?.trim().toLowerCase() !== 'lazy').map((i) => i.src).filter(nonBlank).map(a.resolve)],
    ['Iframes', a.iframes.filter((f) => f.loading !== 'lazy').map((f) => f.src).filter(nonBlank).map(a.resolve)],
  ];
  const total = groups.reduce((n, [, urls]) => n + urls.length, 0);
  const value = grouped(groups);
  const max = config.limits.httpRequests;
  return total <= max ? { value } : { value, failure: fail('too_many', { max: limit(max) }) };
});
