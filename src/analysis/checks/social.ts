import { defineCheck, fail, grouped } from './check.js';

const GROUPS: [string, string[]][] = [
  ['Twitter', ['twitter.com', 'x.com']],
  ['Facebook', ['facebook.com']],
  ['Instagram', ['instagram.com']],
  ['YouTube', ['youtube.com']],
  ['LinkedIn', ['linkedin.com']],
  ['TikTok', ['tiktok.com']],
  ['Pinterest', ['pinterest.com']],
];

const GROUP_OF_HOST = new Map(GROUPS.flatMap(([group, hosts]) => hosts.map((host): [string, string] => [host, group])));

/** Links to the main social networks (§5.3). */
export const social = defineCheck('social', 'low', ({ artifacts }) => {
  const byGroup = new Map<string, { url: string; text: string }[]>(GROUPS.map(([g]) => [g, []]));
  for (const anchor of artifacts.anchors) {
    const target = artifacts.target(anchor.href);
    const group = GROUP_OF_HOST.get(target.host);
    if (group !== undefined) byGroup.get(group)!.push({ url: target.reported, text: anchor.text });
  }
  const value = grouped([...byGroup]);
  return Array.isArray(value) ? { value, failure: fail('missing') } : { value };
});
