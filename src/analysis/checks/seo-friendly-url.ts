import { Type } from '@sinclair/typebox';
import { domainToUnicode } from 'node:url';
import { parseUrl } from '../urls.js';
import { listing } from '../wording.js';
import { wordsOf } from '../words.js';
import { defineCheck, fail } from './define-check.js';

function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The parts of a URL that break the format rule, as the summary names them. */
function formatProblems(url: string): string[] {
  const parsed = parseUrl(url);
  if (parsed === null) return [];
  const path = decoded(parsed.pathname);
  const problems: string[] = [];
  if (path.includes('_')) problems.push('underscores');
  if (path.includes(' ')) problems.push('spaces');
  if (/\p{Lu}/u.test(path)) problems.push('capital letters');
  const params = parsed.search
    .slice(1)
    .split('&')
    .filter((p) => p !== '').length;
  if (params > 2) problems.push(`${params} query parameters`);
  return problems;
}

/** Title words in the host or path (keyword rule); a clean path and a short query (format rule) (§5.1). */
export const seoFriendlyUrl = defineCheck({
  name: 'seo_friendly_url',
  position: 170,
  importance: 'high',
  title: 'SEO-friendly URL',
  why: 'Short, readable URLs containing the page’s keywords are easier to share and tell search engines what the page is about.',
  fix: 'Use lower-case words from the title separated by hyphens, with no underscores, spaces or capitals, and at most two query parameters.',
  /** The final URL. */
  value: Type.String(),
  errors: { missing: Type.Null(), bad_format: Type.Null() },

  run({ snapshot, artifacts }) {
    const value = snapshot.finalUrl;
    const url = parseUrl(value);
    if (url === null) return { value, failure: fail('missing', null) };
    const path = decoded(url.pathname);
    const titleWords = new Set(artifacts.head.titleWords);
    const urlWords = [...wordsOf(domainToUnicode(url.hostname)), ...wordsOf(path)];
    if (!urlWords.some((w) => titleWords.has(w))) return { value, failure: fail('missing', null) };
    const queryParts = url.search
      .slice(1)
      .split('&')
      .filter((p) => p !== '').length;
    if (/[_ \p{Lu}]/u.test(path) || queryParts > 2) return { value, failure: fail('bad_format', null) };
    return { value };
  },

  describe({ passed, value, failure }) {
    if (failure?.key === 'missing') return 'No word of the URL’s host or path appears in the title.';
    if (failure?.key === 'bad_format') {
      const problems = value !== undefined ? formatProblems(value) : [];
      return problems.length > 0
        ? `The URL has ${listing(problems, 4)}.`
        : 'The URL has underscores, spaces, capital letters or more than 2 query parameters.';
    }
    return passed ? 'The URL is readable and contains a word from the title.' : null;
  },

  view: { value: { kind: 'url' }, error: null },
});
