import '../formats.js'; // the formats these schemas name
import { Type } from '@sinclair/typebox';
import { type Counting, DIMENSIONS } from '../../model/dimensions.js';
import { MAX_PROP_KEY } from '../../tracking/event-input.js';
import { MAX_RANGE_DAYS, STAT_ALIASES, STAT_PARAMETER_NAMES } from '../../tracking/stats-service.js';
import { PER_PAGE_VALUES } from '../../http/pagination.js';
import { IntegerEnum, Page, Paginated, Search, Sort, StringEnum } from '../../http/schemas.js';

/** Stats pages are shorter than the other lists (phpAnalytics' default). */
export const STATS_PER_PAGE = 10;

/** What the lists that do not count visitors count, by their counting rule (model/dimensions.ts). */
const COUNTED: Partial<Record<Counting, string>> = { pageview: 'pageviews', visit: 'visits', event: 'custom events' };

/** `page: pageviews; landing_page: visits; …`: the lists that count something else than visitors. */
function countedList(): string {
  return DIMENSIONS.filter((d) => !('series' in d) && COUNTED[d.counts] !== undefined)
    .map((d) => `${d.name}: ${COUNTED[d.counts]}`)
    .join('; ');
}

/** `pageview, …, operating_system (os)`: an alias that is its name's start needs no name beside it. */
function aliasList(): string {
  return Object.entries(STAT_ALIASES)
    .map(([alias, name]) => (name.startsWith(alias) ? alias : `${alias} (${name})`))
    .join(', ');
}

const Day = (description: string) => Type.String({ format: 'date', description });

export const StatsQuery = Type.Object({
  name: StringEnum(STAT_PARAMETER_NAMES, {
    description:
      'pageviews and visitors: one row per day (zero-filled); pageviews_hours and visitors_hours: 24 rows, 00–23 (UTC); ' +
      `${countedList()}; prop: the values of the custom property \`prop\` ` +
      `(events); the others: visitors, counted once per value per day. Aliases: ${aliasList()}.`,
  }),
  from: Day('First day, YYYY-MM-DD (UTC), included'),
  to: Day(
    `Last day, YYYY-MM-DD (UTC), included: on or after from; any span (clients poll from 1970-01-01). A day series over ` +
      `more than ${MAX_RANGE_DAYS} days is zero-filled only from the later of from and the website's creation day, up to today`,
  ),
  search: Type.Optional({ ...Search, description: 'Case-insensitive substring of the value' }),
  search_by: Type.Optional(StringEnum(['value'], { default: 'value' })),
  // Any text: `count` or `value`; anything else (Pipedream's phpAnalytics components send `domain`
  // or `id`) sorts as the default instead of a 422.
  sort_by: Type.Optional(
    Type.String({
      maxLength: 255,
      default: 'count',
      description:
        'count or value. Default: count, except the day and hour series (value); any other value sorts as the default. ' +
        'Equal counts are ordered by value ascending',
    }),
  ),
  sort: Type.Optional({ ...Sort, description: 'Default: desc, except the day and hour series (asc)' }),
  per_page: Type.Optional(IntegerEnum(PER_PAGE_VALUES, { default: STATS_PER_PAGE, description: 'Rows per page' })),
  page: Type.Optional(Page),
  format: Type.Optional(
    StringEnum(['json', 'csv'], { default: 'json', description: 'csv: every row (no paging) as text/csv, header value,count' }),
  ),
  prop: Type.Optional(
    Type.String({
      maxLength: MAX_PROP_KEY,
      description:
        'With name=prop (required there): the custom property key whose values are listed, each counting the events that carried it',
    }),
  ),
  event: Type.Optional(
    Type.String({ maxLength: 120, description: 'With name=prop: only the events of this name (`pageview` included)' }),
  ),
});

export const StatRow = Type.Object({
  value: Type.String({ description: 'The day (YYYY-MM-DD), the hour (00–23) or the value counted' }),
  count: Type.Integer({ minimum: 0 }),
});

export const StatsPage = Paginated(StatRow);
