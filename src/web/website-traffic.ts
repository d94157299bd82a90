// Reads what a website page shows of its traffic from the stats (the rollups): both day series
// and the first rows of each top list, for the range the page shows.
import type { StatsService } from '../tracking/stats-service.js';
import { TOP_LIMIT, type TopListName, type WebsiteTraffic } from './render/index.js';
import type { StatsRange } from './stats-range.js';

export async function loadTraffic(
  stats: Pick<StatsService, 'query'>,
  websiteId: number,
  range: StatsRange,
  extra: Pick<WebsiteTraffic, 'today' | 'origin'>,
): Promise<WebsiteTraffic> {
  const where = { websiteId, from: range.from, to: range.to };
  const top = (name: TopListName) => stats.query({ ...where, name }, TOP_LIMIT);
  const [visitors, pageviews, page, referrer, country, browser, device, event] = await Promise.all([
    stats.query({ ...where, name: 'visitors' }),
    stats.query({ ...where, name: 'pageviews' }),
    top('page'),
    top('referrer'),
    top('country'),
    top('browser'),
    top('device'),
    top('event'),
  ]);
  const pageviewsOf = new Map(pageviews.rows.map((r) => [r.value, r.count]));
  return {
    from: range.from,
    to: range.to,
    fellBack: range.fellBack,
    // Both series are zero-filled and in day order, so they share their days.
    days: visitors.rows.map((r) => ({ day: r.value, visitors: r.count, pageviews: pageviewsOf.get(r.value) ?? 0 })),
    lists: { page, referrer, country, browser, device, event },
    ...extra,
  };
}
