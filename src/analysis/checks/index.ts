// The 33 checks in the order of the spec's table (CHECK_NAMES). Adding a check: write its module
// with defineCheck (title.ts is a small one to copy), add its name to CHECK_NAMES in types.ts
// and the check here.

import type { Check } from './define-check.js';
import { charset } from './charset.js';
import { contentKeywords } from './content-keywords.js';
import { contentLength } from './content-length.js';
import { deferJavascript } from './defer-javascript.js';
import { deprecatedHtmlTags } from './deprecated-html-tags.js';
import { domSize } from './dom-size.js';
import { favicon } from './favicon.js';
import { headings } from './headings.js';
import { httpRequests } from './http-requests.js';
import { httpsEncryption } from './https-encryption.js';
import { imageFormat } from './image-format.js';
import { imageKeywords } from './image-keywords.js';
import { inPageLinks } from './in-page-links.js';
import { inlineCss } from './inline-css.js';
import { language } from './language.js';
import { loadTime } from './load-time.js';
import { metaDescription } from './meta-description.js';
import { metaViewport } from './meta-viewport.js';
import { mixedContent } from './mixed-content.js';
import { noindex } from './noindex.js';
import { notFoundPage } from './not-found-page.js';
import { pageSize } from './page-size.js';
import { plaintextEmail } from './plaintext-email.js';
import { robots } from './robots.js';
import { seoFriendlyUrl } from './seo-friendly-url.js';
import { serverSignature } from './server-signature.js';
import { sitemap } from './sitemap.js';
import { social } from './social.js';
import { structuredData } from './structured-data.js';
import { textCompression } from './text-compression.js';
import { textHtmlRatio } from './text-html-ratio.js';
import { title } from './title.js';
import { unsafeCrossOriginLinks } from './unsafe-cross-origin-links.js';

export type { Check, CheckContext } from './define-check.js';

export const CHECKS: readonly Check[] = [
  title,
  metaDescription,
  headings,
  contentKeywords,
  imageKeywords,
  imageFormat,
  inPageLinks,
  loadTime,
  pageSize,
  httpRequests,
  deferJavascript,
  domSize,
  textCompression,
  structuredData,
  metaViewport,
  httpsEncryption,
  seoFriendlyUrl,
  language,
  favicon,
  contentLength,
  textHtmlRatio,
  charset,
  deprecatedHtmlTags,
  notFoundPage,
  noindex,
  robots,
  sitemap,
  mixedContent,
  serverSignature,
  unsafeCrossOriginLinks,
  plaintextEmail,
  social,
  inlineCss,
];

const BY_NAME = new Map<string, Check>(CHECKS.map((check) => [check.name, check]));

/** The check of that name; undefined for names this version does not know (stored reports may hold any). */
export function findCheck(name: string): Check | undefined {
  return BY_NAME.get(name);
}
