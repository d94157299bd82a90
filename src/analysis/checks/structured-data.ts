import { Type } from '@sinclair/typebox';
import type { SchemaSource } from '../artifacts/index.js';
import { listing, oneLine, plural } from '../wording.js';
import { defineCheck, fail } from './define-check.js';

const SCHEMA_ORG = /^https?:\/\/schema\.org\/?$/i;

/** Whether a JSON-LD `@context` (string, array or object) names schema.org. */
function mentionsSchemaOrg(context: unknown): boolean {
  if (typeof context === 'string') return SCHEMA_ORG.test(context.trim());
  if (Array.isArray(context)) return context.some(mentionsSchemaOrg);
  if (context !== null && typeof context === 'object') return Object.values(context).some(mentionsSchemaOrg);
  return false;
}

/** JSON-LD nested deeper than this is skipped like invalid JSON: a report holding it could not be serialised. */
const MAX_DEPTH = 100;

/** Whether `value` nests at most `max` arrays/objects deep (iterative: the input is hostile). */
function nestsWithin(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return false;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `https://schema.org/NewsArticle` → `NewsArticle`; null when the type is not on schema.org. */
function microdataType(itemtype: string): string | null {
  const first = itemtype.trim().split(/\s+/)[0];
  let url: URL;
  try {
    url = new URL(first);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname !== 'schema.org') return null;
  const segments = url.pathname.split('/').filter(Boolean);
  return segments.length > 0 ? segments[segments.length - 1] : null;
}

function schemaOrgItems(sources: readonly SchemaSource[]): unknown[] {
  const items: unknown[] = [];
  for (const source of sources) {
    if (source.kind === 'microdata') {
      const type = microdataType(source.itemtype);
      if (type !== null) items.push({ '@context': 'https://schema.org', '@type': type });
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(source.text);
    } catch {
      continue; // invalid JSON-LD is skipped
    }
    if (!nestsWithin(parsed, MAX_DEPTH)) continue;
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
      if (isRecord(item) && mentionsSchemaOrg(item['@context'])) items.push(item);
    }
  }
  return items;
}

/** Open Graph, Twitter card and schema.org data anywhere in the document (§5.2). */
export const structuredData = defineCheck({
  name: 'structured_data',
  position: 140,
  importance: 'medium',
  title: 'Structured data',
  why: 'Open Graph, Twitter card and Schema.org data control how the page appears in search results and when shared.',
  fix: 'Add Open Graph meta tags and a Schema.org JSON-LD block describing the page.',
  /** {"Open Graph": {property: content}, Twitter: {name: content}, "Schema.org": [items]}; `[]` when none. */
  value: Type.Union([Type.Tuple([]), Type.Record(Type.String(), Type.Unknown())]),
  errors: { missing: Type.Null() },

  run({ artifacts }) {
    const openGraph: Record<string, string> = {};
    const twitter: Record<string, string> = {};
    for (const meta of artifacts.structuredData.metas) {
      if (meta.content === null) continue;
      if (meta.property?.trim().toLowerCase().startsWith('og:')) {
        openGraph[meta.property] = meta.content;
      }
      if (meta.rawName !== null && meta.name.startsWith('twitter:')) twitter[meta.rawName] = meta.content;
    }
    const schema = schemaOrgItems(artifacts.structuredData.sources);
    const value: Record<string, unknown> = {};
    if (Object.keys(openGraph).length > 0) value['Open Graph'] = openGraph;
    if (Object.keys(twitter).length > 0) value.Twitter = twitter;
    if (schema.length > 0) value['Schema.org'] = schema;
    return Object.keys(value).length > 0 ? { value } : { value: [] as [], failure: fail('missing', null) };
  },

  describe({ passed, value, failure, cuts }) {
    if (failure?.key === 'missing') return 'No Open Graph, Twitter card or Schema.org data.';
    if (!passed || value === undefined || Array.isArray(value) || cuts.value() > 0) return null;
    const parts: string[] = [];
    for (const [group, data] of Object.entries(value)) {
      const n = (Array.isArray(data) ? data.length : isRecord(data) ? Object.keys(data).length : 0) + cuts.value(group);
      if (group === 'Schema.org') parts.push(plural(n, 'Schema.org item'));
      else if (group === 'Open Graph' || group === 'Twitter') parts.push(`${plural(n, `${group} tag`)}`);
      else parts.push(oneLine(group, 30));
    }
    return parts.length > 0 ? `Found ${listing(parts, 3, 40)}.` : null;
  },

  view: { value: { kind: 'properties' }, error: null },
});
