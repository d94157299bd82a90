// Reads what a website page shows of its traffic from the stats (the rollups): both day series,
// the first rows of each top list, and the values of one custom property, for the range the
// page shows.
import { hasUnstorableText } from '../model/text.js';
import { MAX_PROP_KEY } from '../tracking/event-input.js';
import type { StatsService } from '../tracking/stats-service.js';
import { PROP_KEYS_LIMIT, TOP_LIMIT, TOP_LISTS, type TopList, type TopListName, type WebsiteTraffic } from '../render/index.js';
import type { StatsRange } from '../render/stats-range.js';

/**
 * `prop`: the custom property the page was asked to show (a query value, anything); without a
 * usable one, the property the most events carried in the range.
 */
export async function loadTraffic(
  stats: Pick<StatsService, 'query'>,
  websiteId: number,
  range: StatsRange,
  extra: Pick<WebsiteTraffic, 'today' | 'origin'>,
  prop?: unknown,
): Promise<WebsiteTraffic> {
  const where = { websiteId, from: range.from, to: range.to };
  const top = (name: TopListName) => stats.query({ ...where, name }, TOP_LIMIT);
  const asked = typeof prop === 'string' && prop !== '' && prop.length <= MAX_PROP_KEY && !hasUnstorableText(prop) ? prop : null;
  const values = (key: string | null): Promise<TopList> =>
    key === null ? Promise.resolve({ total: 0, rows: [] }) : stats.query({ ...where, name: 'prop', prop: key }, TOP_LIMIT);
  // Asked for a property: its values are read beside the keys; else the keys tell which to read.
  const props = (async () => {
    const [keys, askedValues] = await Promise.all([stats.query({ ...where, name: 'prop_key' }, PROP_KEYS_LIMIT), values(asked)]);
    const key = asked ?? keys.rows[0]?.value ?? null;
    return { keys, key, asked, values: asked === null ? await values(key) : askedValues };
  })();
  const [visitors, pageviews, propsShown, ...tops] = await Promise.all([
    stats.query({ ...where, name: 'visitors' }),
    stats.query({ ...where, name: 'pageviews' }),
    props,
    ...TOP_LISTS.map(top),
  ]);
  const lists = {} as Record<TopListName, TopList>;
  TOP_LISTS.forEach((name, i) => {
    lists[name] = tops[i];
  });
  const pageviewsOf = new Map(pageviews.rows.map((r) => [r.value, r.count]));
  return {
    from: range.from,
    to: range.to,
    fellBack: range.fellBack,
    // Both series are zero-filled and in day order, so they share their days.
    days: visitors.rows.map((r) => ({ day: r.value, visitors: r.count, pageviews: pageviewsOf.get(r.value) ?? 0 })),
    lists,
    props: propsShown,
    ...extra,
  };
}
