// The stats dimensions, in one table: what an event stores (EVENT_FIELDS: one analytics_events
// column each, and how its value is derived from the parsed event), and what the stats count
// (DIMENSIONS: the `name=` of GET /api/v1/stats and its aliases, the field it reads, its rollup
// key and counting rule, its table on the share page and the dashboard). The collector, the
// rollups, the analytics writer, the stats service, the API's schema and the traffic tables all
// read it, so a dimension is added here (CONTRIBUTING.md, "Adding a stats dimension"). Pure.

/** What an event's stored fields are derived from: the parsed body, the cleaned page, the client. */
export interface EventSources {
  /** `pageview` or a custom event's name. */
  name: string;
  /** The page's address as sent (its query still whole). */
  url: URL;
  /** The page as kept (path and the query left), and where the visit came from (tracking/page-url.ts). */
  page: { page: string; referrer: string | null; source: string | null; campaign: string | null };
  /** What the User-Agent says (tracking/client-info.ts). */
  agent: { browser: string; os: string; device: string };
  /** Where the address is (tracking/client-info.ts). */
  place: { country: string; continent: string; city: string | null };
  /** The body's other fields (tracking/event-input.ts). */
  body: {
    language: string | null;
    screenWidth: number | null;
    screenHeight: number | null;
    props: Readonly<Record<string, string | number>> | null;
  };
}

/** A stored page is cut to this many characters. */
export const MAX_PAGE = 2048;

/**
 * The analytics_events columns an event fills, each a field of StoredEvent of the same name,
 * derived from the event (the others, website_id, created_at and visitor, are the collector's).
 * A field whose function can return null is a nullable column.
 */
export const EVENT_FIELDS = {
  name: (s) => s.name,
  page: (s) => (s.page.page.length > MAX_PAGE ? s.page.page.slice(0, MAX_PAGE) : s.page.page),
  referrer: (s) => s.page.referrer,
  source: (s) => s.page.source,
  campaign: (s) => s.page.campaign,
  browser: (s) => s.agent.browser,
  os: (s) => s.agent.os,
  device: (s) => s.agent.device,
  country: (s) => s.place.country,
  continent: (s) => s.place.continent,
  city: (s) => s.place.city,
  language: (s) => s.body.language,
  resolution: (s) => (s.body.screenWidth && s.body.screenHeight ? `${s.body.screenWidth}x${s.body.screenHeight}` : null),
  props: (s) => (s.body.props ? JSON.stringify(s.body.props) : null),
} satisfies Record<string, (s: EventSources) => string | null>;

export type EventFieldName = keyof typeof EVENT_FIELDS;
/** An event's derived fields, as stored. */
export type EventFields = { [F in EventFieldName]: ReturnType<(typeof EVENT_FIELDS)[F]> };
/** The derived fields, in one order: the writer's column list. */
export const EVENT_FIELD_NAMES = Object.keys(EVENT_FIELDS) as EventFieldName[];

/** A stored event's fields derived from `sources`, in EVENT_FIELD_NAMES order. */
export function deriveFields(sources: EventSources): EventFields {
  const fields: Record<string, string | null> = {};
  for (const field of EVENT_FIELD_NAMES) fields[field] = EVENT_FIELDS[field](sources);
  return fields as EventFields;
}

/**
 * A plain pageview: https://example.test/ from nowhere, by a client nothing is known of. Tests and
 * benchmarks build their events on SAMPLE_FIELDS, so a field added to EVENT_FIELDS needs no edit there.
 */
export const SAMPLE_SOURCES: EventSources = {
  name: 'pageview',
  url: new URL('https://example.test/'),
  page: { page: '/', referrer: null, source: null, campaign: null },
  agent: { browser: 'Unknown', os: 'Unknown', device: 'desktop' },
  place: { country: 'Unknown', continent: 'Unknown', city: null },
  body: { language: null, screenWidth: null, screenHeight: null, props: null },
};
export const SAMPLE_FIELDS: Readonly<EventFields> = deriveFields(SAMPLE_SOURCES);

/**
 * How a dimension counts:
 * - `pageview`: every pageview, once under its value;
 * - `visitor-day`: a visitor, once a day (the first pageview of their day);
 * - `visit`: every visit (a visitor's first pageview of the day, or one VISIT_GAP_MS after their last);
 * - `visitor`: a visitor, once per value per day (remembered in their visitor row);
 * - `event`: every custom event (not a pageview), once under its value;
 * - `prop-key`, `prop`: custom properties, every event's (model/rollup.ts, propDimension).
 */
export type Counting = 'pageview' | 'visitor-day' | 'visit' | 'visitor' | 'event' | 'prop-key' | 'prop';

/** A table of the share page and the dashboard's stats page (its place among them: `order`). */
export interface ListSpec {
  order: number;
  title: string;
  column: string;
  unit: string;
  caption: string;
}

export interface DimensionSpec {
  /** The stats `name=` (and the CSV's file name). */
  name: string;
  /** Other names the API accepts for it. */
  aliases?: readonly string[];
  /** The rollup key: analytics_rollups.dimension (stored: never changes once released). */
  key: string;
  counts: Counting;
  /** The event field its value is (`hour`: the event's UTC hour); none: one row, value ''. */
  field?: EventFieldName | 'hour';
  /** A series: one row per day (zero-filled) or per hour (24 rows); not capped, ordered by value. */
  series?: 'day' | 'hour';
  /** Only for the pages: not a `name=` of the API. */
  internal?: true;
  /** Its table on the share page and the dashboard. */
  list?: ListSpec;
}

/** Every dimension, in the API's order (the `name` enum's). */
export const DIMENSIONS = [
  { name: 'pageviews', aliases: ['pageview'], key: 'pageviews', counts: 'pageview', series: 'day' },
  { name: 'visitors', aliases: ['visitor'], key: 'visitors', counts: 'visitor-day', series: 'day' },
  { name: 'pageviews_hours', key: 'pageviews_hours', counts: 'pageview', field: 'hour', series: 'hour' },
  { name: 'visitors_hours', key: 'visitors_hours', counts: 'visitor', field: 'hour', series: 'hour' },
  {
    name: 'page',
    key: 'page',
    counts: 'pageview',
    field: 'page',
    list: { order: 1, title: 'Top pages', column: 'Page', unit: 'Pageviews', caption: 'Most viewed pages' },
  },
  { name: 'landing_page', key: 'landing_page', counts: 'visit', field: 'page' },
  {
    name: 'referrer',
    key: 'referrer',
    counts: 'visitor',
    field: 'referrer',
    list: { order: 2, title: 'Top referrers', column: 'Referrer', unit: 'Visitors', caption: 'Sites visitors came from' },
  },
  { name: 'campaign', key: 'campaign', counts: 'visitor', field: 'campaign' },
  { name: 'source', key: 'source', counts: 'visitor', field: 'source' },
  {
    name: 'browser',
    key: 'browser',
    counts: 'visitor',
    field: 'browser',
    list: { order: 4, title: 'Browsers', column: 'Browser', unit: 'Visitors', caption: 'Browsers of the visitors' },
  },
  { name: 'os', aliases: ['operating_system'], key: 'os', counts: 'visitor', field: 'os' },
  {
    name: 'device',
    key: 'device',
    counts: 'visitor',
    field: 'device',
    list: { order: 5, title: 'Devices', column: 'Device', unit: 'Visitors', caption: 'Devices of the visitors' },
  },
  {
    name: 'country',
    key: 'country',
    counts: 'visitor',
    field: 'country',
    list: { order: 3, title: 'Countries', column: 'Country', unit: 'Visitors', caption: 'Countries of the visitors' },
  },
  { name: 'continent', key: 'continent', counts: 'visitor', field: 'continent' },
  { name: 'city', key: 'city', counts: 'visitor', field: 'city' },
  { name: 'language', key: 'language', counts: 'visitor', field: 'language' },
  { name: 'resolution', aliases: ['screen_resolution'], key: 'resolution', counts: 'visitor', field: 'resolution' },
  {
    name: 'event',
    key: 'event',
    counts: 'event',
    field: 'name',
    list: { order: 6, title: 'Events', column: 'Event', unit: 'Events', caption: 'Custom events' },
  },
  // A property's values: each key its own rollup keys (`prop:…`, propDimension), under the `prop=` asked for.
  { name: 'prop', key: 'prop', counts: 'prop', field: 'props' },
  // The custom property keys, each counting the events that carried it: what the pages offer to
  // choose a property from.
  { name: 'prop_key', key: 'prop_key', counts: 'prop-key', field: 'props', internal: true },
] as const satisfies readonly DimensionSpec[];

export type Dimension = (typeof DIMENSIONS)[number];
/** A dimension's name: the API's names and the pages' own (prop_key). */
export type DimensionName = Dimension['name'];
/** The stats names of the API, in order. */
export type ApiDimension = Exclude<Dimension, { internal: true }>;
export type ApiDimensionName = ApiDimension['name'];
/** The rollup keys the registry names (besides each property's own, `prop:…`). */
export type DimensionKey = Exclude<Dimension, { counts: 'prop' }>['key'];
export type ListedDimension = Extract<Dimension, { list: ListSpec }>;
export type ListedDimensionName = ListedDimension['name'];

const BY_NAME = new Map<string, Dimension>(DIMENSIONS.map((d) => [d.name, d]));

/** The dimension of a name (not an alias); undefined for anything else. */
export function dimensionNamed(name: string): Dimension | undefined {
  return BY_NAME.get(name);
}

/** The dimensions counted by `counts`, in the registry's order. */
export function dimensionsCounting<C extends Counting>(counts: C): Extract<Dimension, { counts: C }>[] {
  return DIMENSIONS.filter((d): d is Extract<Dimension, { counts: C }> => d.counts === counts);
}

/** The share page's and the dashboard's tables, in their order. */
export const LISTED_DIMENSIONS: readonly ListedDimension[] = DIMENSIONS.filter((d): d is ListedDimension => 'list' in d).sort(
  (a, b) => a.list.order - b.list.order,
);
