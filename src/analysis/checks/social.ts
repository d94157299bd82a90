import { Type } from '@sinclair/typebox';
import { listing } from '../wording.js';
import { defineCheck, fail, grouped } from './define-check.js';
import { Groups, OpenItem, type LinkItem } from './shapes.js';

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
export const social = defineCheck({
  name: 'social',
  position: 320,
  importance: 'low',
  title: 'Social links',
  why: 'Links to the site’s social profiles help visitors follow it and connect its presence across platforms.',
  fix: 'Link to the site’s profiles on social networks, for example in the footer.',
  /** {network: [{url, text}]}; the items are read one by one. */
  value: Groups(OpenItem),
  errors: { missing: Type.Null() },

  run({ artifacts }) {
    const byGroup = new Map<string, LinkItem[]>(GROUPS.map(([g]) => [g, []]));
    for (const anchor of artifacts.links) {
      const group = GROUP_OF_HOST.get(anchor.resolved.host);
      if (group !== undefined) byGroup.get(group)!.push({ url: anchor.resolved.url, text: anchor.text });
    }
    const value = grouped([...byGroup]);
    return Array.isArray(value) ? { value, failure: fail('missing', null) } : { value };
  },

  describe({ passed, value, failure, cuts }) {
    if (failure?.key === 'missing') return 'No links to social network profiles.';
    if (!passed || value === undefined || Array.isArray(value)) return null;
    const networks = Object.keys(value);
    return networks.length > 0 ? `Links to ${listing(networks, 8, 20, cuts.value())}.` : null;
  },

  view: { value: { kind: 'groups', captions: {}, item: { kind: 'link', emptyText: 'no link text' } }, error: null },
});
