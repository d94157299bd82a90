import { domainToUnicode } from 'node:url';
import { parseUrl } from '../urls.js';
import { wordsOf } from '../words.js';
import { defineCheck, fail } from './check.js';

function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Title words in the host or path (keyword rule); a clean path and a short query (format rule) (§5.1). */
export const seoFriendlyUrl = defineCheck('seo_friendly_url', 'high', ({ snapshot, artifacts }) => {
  const value = snapshot.finalUrl;
  const url = parseUrl(value);
  if (url === null) return { value, failure: fail('missing') };
  const path = decoded(url.pathname);
  const titleWords = new Set(artifacts.titleWords);
  const urlWords = [...wordsOf(domainToUnicode(url.hostname)), ...wordsOf(path)];
  if (!urlWords.some((w) => titleWords.has(w))) return { value, failure: fail('missing') };
  const queryParts = url.search.slice(1).split('&').filter((p) => p !== '').length;
  if (/[_ \p{Lu}]/u.test(path) || queryParts > 2) return { value, failure: fail('bad_format') };
  return { value };
});
