// The catalogue of site-audit issue types (docs/audit-issues.md): one entry per type with its
// severity, its rule in one line, why it matters for search and how to fix it. The single source
// of the issue pass (severities), the API's `type` filter and the documentation's test.

export type IssueSeverity = 'high' | 'medium' | 'low';

export interface IssueTypeInfo {
  severity: IssueSeverity;
  /** When it is raised, in one line. */
  rule: string;
  /** Why it matters for search. */
  why: string;
  /** How to fix it. */
  fix: string;
}

/** Every issue type, most severe first; within a severity, the ten original types first. */
export const ISSUE_CATALOGUE = {
  // ---- high ----
  broken_link: {
    severity: 'high',
    rule: 'An internal link whose target answers 4xx or 5xx.',
    why: 'Visitors and crawlers hit a dead end, and the link passes its value to nothing.',
    fix: 'Point the link at a page that exists, or bring the target back (or redirect it to its successor).',
  },
  non_indexable_in_sitemap: {
    severity: 'high',
    rule: 'A URL listed in a sitemap that is noindex, answers other than 200, or is disallowed by robots.txt.',
    why: 'A sitemap says "index these"; listing pages that cannot be indexed wastes crawl budget and makes search engines trust the sitemap less.',
    fix: 'List only the canonical, indexable, 200 URLs in sitemaps.',
  },
  redirect_loop: {
    severity: 'high',
    rule: 'Following redirects from a URL comes back to a URL already in the chain.',
    why: 'The URL never leads to a page: browsers show an error and search engines drop it.',
    fix: 'Make the last redirect of the chain point to a page that answers 200.',
  },
  fetch_failed: {
    severity: 'high',
    rule: 'An internal URL got no answer (timeout, refused, reset, too large, blocked by the address guard).',
    why: 'A page that does not answer cannot be crawled or indexed; if it persists, search engines drop it.',
    fix: 'Find why the server does not answer that URL (the detail gives the reason) and fix it, or remove the links to it.',
  },
  server_error: {
    severity: 'high',
    rule: 'An internal URL answered 5xx.',
    why: 'Server errors tell search engines the site is unreliable; repeated ones make them crawl less and drop the page.',
    fix: 'Fix the error on the server (its logs name the cause) so the URL answers 200, or a 404/410 if the page is gone.',
  },
  missing_title: {
    severity: 'high',
    rule: 'A page with no <title> in its head, or an empty one.',
    why: 'The title is the headline of the search result; without one the search engine makes one up.',
    fix: 'Give the page one <title> in its <head> that says what this page is about.',
  },
  duplicate_content: {
    severity: 'high',
    rule: 'Two or more indexable pages with the same visible text (whitespace collapsed, case kept).',
    why: 'Search engines show one of the copies and pick it themselves; links and signals are split between them.',
    fix: 'Keep one page: redirect the others to it, or point their canonical link at it (or noindex them).',
  },
  canonical_changed_by_js: {
    severity: 'high',
    rule: "On a rendered crawl: the page's canonical URL in the rendered DOM differs from the raw HTML's (added, changed or removed by a script).",
    why: 'Search engines read the canonical of the HTML first and may never render the page: two canonicals for one page are a conflict, and the wrong one may be used or both ignored.',
    fix: 'Put the one canonical link in the HTML the server sends, and do not add or change it with scripts.',
  },
  noindex_changed_by_js: {
    severity: 'high',
    rule: "On a rendered crawl: a robots meta tag's noindex is in the rendered DOM but not in the raw HTML, or the other way round.",
    why: 'Google drops a page whose raw HTML says noindex without rendering it, so a script cannot remove it; a noindex added by a script may keep the page out after it was indexed.',
    fix: 'Decide whether the page should be indexed and say so in the HTML the server sends; do not add or remove noindex with scripts.',
  },
  // ---- medium ----
  canonical_to_non_200: {
    severity: 'medium',
    rule: "A page's canonical URL was crawled and answers other than 200.",
    why: 'A canonical pointing to a redirect or an error is ignored, and the search engine picks the canonical itself.',
    fix: 'Point the canonical link at the final URL that answers 200 (usually the page itself).',
  },
  duplicate_title: {
    severity: 'medium',
    rule: 'Two or more indexable pages with the same title (trimmed, whitespace collapsed, case ignored).',
    why: 'Searchers cannot tell the results apart, and the search engine may think the pages duplicate each other.',
    fix: 'Give each page a title of its own that says what sets it apart.',
  },
  orphan_page: {
    severity: 'medium',
    rule: 'A page listed in a sitemap that no crawled page links to.',
    why: 'Pages without internal links are found late, crawled rarely and get no link value.',
    fix: 'Link to the page from a relevant page (navigation, a category, related content), or drop it from the sitemap.',
  },
  redirect_chain: {
    severity: 'medium',
    rule: 'A redirect that takes two or more hops before it reaches a page (or loops).',
    why: 'Each hop costs a request and delays the page; search engines stop following after a few.',
    fix: 'Redirect the first URL straight to the final one, and link to the final URL.',
  },
  redirect_to_broken: {
    severity: 'medium',
    rule: 'A redirect (or chain) that ends at a URL answering 4xx or 5xx.',
    why: 'The redirect leads to an error, so the link value and the visitor are lost.',
    fix: 'Redirect to a page that answers 200, or remove the redirect and the links to it.',
  },
  near_duplicate_content: {
    severity: 'medium',
    rule: 'Two indexable pages of 100+ words whose word 5-shingles have a Jaccard similarity of at least 0.90 (not exact duplicates).',
    why: 'Pages that say almost the same compete with each other; search engines index one and filter the rest.',
    fix: 'Merge the pages, make each distinct, or point the lesser one’s canonical at the main one.',
  },
  broken_external_link: {
    severity: 'medium',
    rule: 'A link to another site that answers 4xx or 5xx, or nothing.',
    why: 'Broken outbound links are a sign of a neglected page and send visitors nowhere.',
    fix: 'Update the link to the resource’s new address, or remove it.',
  },
  broken_image: {
    severity: 'medium',
    rule: 'An <img src> (any site) that answers 4xx or 5xx, or nothing.',
    why: 'The image is missing for visitors and from image search.',
    fix: 'Fix the image URL or restore the file; remove the <img> when the image is gone.',
  },
  canonical_chain: {
    severity: 'medium',
    rule: "The page's canonical URL was crawled and itself declares another canonical URL.",
    why: 'Search engines may not follow a chain of canonicals and pick one themselves.',
    fix: 'Point every canonical straight at the final canonical URL.',
  },
  canonical_to_noindex: {
    severity: 'medium',
    rule: 'The canonical URL was crawled and is not indexable (noindex or disallowed by robots.txt).',
    why: 'A canonical that cannot be indexed is a contradiction: the search engine ignores it, or drops both pages.',
    fix: 'Point the canonical at an indexable page, or make its target indexable.',
  },
  multiple_canonicals: {
    severity: 'medium',
    rule: 'Two or more differing canonical URLs (link tags and the Link header together).',
    why: 'With conflicting canonicals, search engines ignore them all.',
    fix: 'Declare one canonical URL, in one place.',
  },
  canonical_mismatch: {
    severity: 'medium',
    rule: 'The <link rel=canonical> and the Link: rel="canonical" header name different URLs.',
    why: 'The two signals contradict each other, so neither is trusted.',
    fix: 'Make the header and the link tag name the same URL, or keep only one of them.',
  },
  non_canonical_in_sitemap: {
    severity: 'medium',
    rule: 'A sitemap URL whose page declares another canonical URL.',
    why: 'A sitemap should list canonical URLs only; a non-canonical one sends mixed signals.',
    fix: 'List the canonical URL in the sitemap instead.',
  },
  hreflang_no_return: {
    severity: 'medium',
    rule: 'The page lists B as an hreflang alternate, B was crawled and does not list the page back.',
    why: 'Search engines ignore hreflang pairs that are not confirmed from both sides.',
    fix: 'Make every alternate list every other (and itself) with the same set of hreflang links.',
  },
  hreflang_to_non_200: {
    severity: 'medium',
    rule: 'An hreflang target answers other than 200, or nothing (targets on other hosts are checked like external links).',
    why: 'Alternates that redirect or fail are ignored, so searchers may get the wrong language version.',
    fix: 'Point hreflang links at the final URLs that answer 200.',
  },
  hreflang_to_noindex: {
    severity: 'medium',
    rule: 'A crawled hreflang target is not indexable.',
    why: 'An alternate that cannot be indexed cannot be shown to searchers of that language.',
    fix: 'Make the alternate indexable, or remove it from the hreflang set.',
  },
  hreflang_to_non_canonical: {
    severity: 'medium',
    rule: 'A crawled hreflang target declares another canonical URL.',
    why: 'hreflang and canonical then disagree about which URL to show; search engines may ignore the hreflang.',
    fix: 'Point hreflang links at the canonical URLs of the alternates.',
  },
  hreflang_invalid_code: {
    severity: 'medium',
    rule: 'An hreflang that is not x-default or a 2-letter language, optionally -Script (4 letters), optionally -RE (2-letter region).',
    why: 'Search engines ignore an alternate whose code they cannot read.',
    fix: 'Use ISO 639-1 language codes with optional ISO 15924 script and ISO 3166-1 region, such as en, en-GB, zh-Hant-TW.',
  },
  meta_in_body: {
    severity: 'medium',
    rule: 'A <title>, <meta name=description|robots|viewport> or <link rel=canonical|alternate> that stands outside the head.',
    why: 'Browsers and Google end the head at the first element it cannot hold; head tags after it are ignored.',
    fix: 'Move the tag into the head, above whatever closed it (the detail names it: text, an <iframe>, a <div>…).',
  },
  multiple_titles: {
    severity: 'medium',
    rule: 'More than one <title> in the head.',
    why: 'Search engines use one of them, not necessarily the one meant.',
    fix: 'Keep exactly one <title>.',
  },
  multiple_meta_descriptions: {
    severity: 'medium',
    rule: 'More than one <meta name=description> in the head.',
    why: 'Search engines may pick either, or neither, for the snippet.',
    fix: 'Keep exactly one meta description.',
  },
  missing_h1: {
    severity: 'medium',
    rule: 'No <h1> with text on the page.',
    why: 'The main heading tells readers and search engines what the page is about.',
    fix: 'Give the page one <h1> that names its subject.',
  },
  title_changed_by_js: {
    severity: 'medium',
    rule: "On a rendered crawl: the page's title in the rendered DOM differs from the raw HTML's (added, changed or removed by a script).",
    why: 'Search engines and link previews that do not run scripts show the raw title; the two versions also send mixed signals about what the page is about.',
    fix: 'Put the final title in the HTML the server sends (server-side rendering or prerendering), and leave it alone in scripts.',
  },
  meta_description_changed_by_js: {
    severity: 'medium',
    rule: "On a rendered crawl: the page's meta description in the rendered DOM differs from the raw HTML's (added, changed or removed by a script).",
    why: 'Snippets and link previews that come from the raw HTML show the other description, or none.',
    fix: 'Write the meta description into the HTML the server sends, and do not change it in scripts.',
  },
  content_only_rendered: {
    severity: 'medium',
    rule: "On a rendered crawl: the rendered DOM's visible text has at least twice the raw HTML's words, and at least 100 more.",
    why: 'Most of the content exists only after the scripts run: crawlers that do not render see a thin page, and search engines index it later, when they render it at all.',
    fix: 'Send the main content in the HTML (server-side rendering, prerendering or static generation); load only extras with scripts.',
  },
  // ---- low ----
  duplicate_meta_description: {
    severity: 'low',
    rule: 'Two or more indexable pages with the same meta description (trimmed, whitespace collapsed, case ignored).',
    why: 'Search results for the pages look the same, and the search engine may write its own snippets.',
    fix: 'Write a description of its own for each page.',
  },
  missing_from_sitemap: {
    severity: 'low',
    rule: 'A linked, indexable page absent from a sitemap that exists.',
    why: 'The sitemap is incomplete, so search engines may find the page later or not at all.',
    fix: 'Add the page to the sitemap (or generate the sitemap from the site’s pages).',
  },
  mixed_content: {
    severity: 'low',
    rule: 'An https page that loads resources over plain http.',
    why: 'Browsers block or flag insecure resources: the page may break and shows as not secure.',
    fix: 'Load every resource over https.',
  },
  internal_nofollow: {
    severity: 'low',
    rule: "A link to the site's own host whose rel contains nofollow.",
    why: 'Nofollow on internal links keeps link value from your own pages and may keep them from being crawled.',
    fix: 'Remove nofollow from internal links; keep pages out of the index with noindex instead.',
  },
  redirecting_link: {
    severity: 'low',
    rule: "A link to the site's own host whose target answers 3xx.",
    why: 'Every internal redirect costs a request and a little link value.',
    fix: 'Link to the final URL (the detail names where the redirect ends).',
  },
  external_redirect: {
    severity: 'low',
    rule: 'A link to another site that answers 3xx.',
    why: 'The link still works, but the target moved: it may soon break or lead somewhere else.',
    fix: 'Update the link to where the redirect ends.',
  },
  http_link: {
    severity: 'low',
    rule: 'An https page links to an http: URL.',
    why: 'Visitors leave the secure site (or go through a redirect), and browsers may warn them.',
    fix: 'Link to the https address.',
  },
  title_too_long: {
    severity: 'low',
    rule: 'A title of more than 60 characters.',
    why: 'Search results cut long titles, so the end of it is not seen.',
    fix: 'Shorten the title to 60 characters or fewer, the important words first.',
  },
  title_too_short: {
    severity: 'low',
    rule: 'A non-empty title of fewer than 10 characters.',
    why: 'A very short title says little about the page and wastes the result’s headline.',
    fix: 'Write a title that describes the page in a few words.',
  },
  missing_meta_description: {
    severity: 'low',
    rule: 'A page with no meta description, or an empty one.',
    why: 'Search engines write their own snippet from the page, which may not sell it.',
    fix: 'Add a <meta name="description"> that sums up the page in a sentence or two.',
  },
  meta_description_too_long: {
    severity: 'low',
    rule: 'A meta description of more than 160 characters.',
    why: 'Search results cut long descriptions.',
    fix: 'Keep the description to 160 characters or fewer.',
  },
  meta_description_too_short: {
    severity: 'low',
    rule: 'A non-empty meta description of fewer than 50 characters.',
    why: 'A very short description says little, and search engines often replace it.',
    fix: 'Write a description of a sentence or two (50–160 characters).',
  },
  heading_order: {
    severity: 'low',
    rule: 'The first heading is not an h1, or a heading level is skipped going down (h2 → h4).',
    why: 'Headings are the outline of the page for screen readers and search engines; gaps make it harder to follow.',
    fix: 'Start with an h1 and go down one level at a time.',
  },
  thin_content: {
    severity: 'low',
    rule: 'An indexable page of fewer than 200 words.',
    why: 'Pages with little text rarely answer a search well and may be seen as low quality.',
    fix: 'Add useful content, merge the page into a fuller one, or noindex it.',
  },
  deep_page: {
    severity: 'low',
    rule: 'A page more than 4 clicks from the start page (shortest path).',
    why: 'Deep pages are crawled less often and get less link value.',
    fix: 'Link to the page from higher up: navigation, categories, related links.',
  },
  dead_end: {
    severity: 'low',
    rule: 'A page with no <a href> to any http(s) URL.',
    why: 'Visitors and crawlers can go nowhere from the page, and it passes no link value on.',
    fix: 'Add links to related pages and the site’s navigation.',
  },
  too_many_links: {
    severity: 'low',
    rule: 'More than 500 <a href> links on one page.',
    why: 'Each link gets little value, and the page is hard to use.',
    fix: 'Keep the links that matter; split long lists into pages.',
  },
  noindex_page: {
    severity: 'low',
    rule: 'A page that is not indexable because of noindex (meta robots or X-Robots-Tag; not robots.txt).',
    why: 'The page will not appear in search results; make sure that is intended.',
    fix: 'Remove the noindex if the page should be found in search.',
  },
  blocked_by_robots: {
    severity: 'low',
    rule: 'A linked internal URL that robots.txt disallows (never requested).',
    why: 'Search engines cannot read the page; it may still be listed without a description.',
    fix: 'Allow it in robots.txt if it should be crawled, or stop linking to it.',
  },
  hreflang_missing_self: {
    severity: 'low',
    rule: 'The page has hreflang alternates, none pointing to itself.',
    why: 'Search engines expect each page of an hreflang set to list itself too.',
    fix: 'Add an hreflang link to the page itself, with its own language.',
  },
  hreflang_missing_x_default: {
    severity: 'low',
    rule: 'The page has hreflang alternates, none x-default.',
    why: 'Without x-default, searchers whose language matches no alternate get whatever the search engine picks.',
    fix: 'Add hreflang="x-default" pointing at the page for everyone else (a language chooser or the main version).',
  },
  hreflang_lang_mismatch: {
    severity: 'low',
    rule: "The self-referencing hreflang's language differs from <html lang>'s primary language.",
    why: 'The page contradicts itself about its language.',
    fix: 'Make <html lang> and the page’s own hreflang name the same language.',
  },
  invalid_structured_data: {
    severity: 'low',
    rule: 'A <script type="application/ld+json"> that is not valid JSON, or a top-level object (or @graph member) without @type.',
    why: 'Search engines skip structured data they cannot read, so the page loses rich results.',
    fix: 'Fix the JSON (the detail names the fault) and give every top-level object an @type.',
  },
  duplicate_id: {
    severity: 'low',
    rule: 'The same id on two or more elements.',
    why: 'Links to #id, labels and scripts reach only one of them; assistive technology may read the wrong one.',
    fix: 'Give every element a unique id.',
  },
  image_missing_alt: {
    severity: 'low',
    rule: 'An <img> with no alt attribute (an empty alt is fine: decorative).',
    why: 'Screen readers and image search need the text alternative.',
    fix: 'Add alt text that says what the image shows, or alt="" for a decorative image.',
  },
  image_missing_size: {
    severity: 'low',
    rule: 'An <img> without both width and height attributes.',
    why: 'The page jumps as images load (layout shift, a Core Web Vitals measure).',
    fix: 'Give every <img> width and height attributes (CSS can still scale it).',
  },
  large_image: {
    severity: 'low',
    rule: "An image on the site's own host larger than 200,000 bytes (Content-Length, or bytes read).",
    why: 'Heavy images slow the page down, which costs visitors and rankings.',
    fix: 'Resize and compress the image, or serve a modern format (WebP, AVIF).',
  },
  slow_response: {
    severity: 'low',
    rule: 'The response headers came more than 1,000 ms after the request was sent.',
    why: 'A slow server delays everything on the page, and search engines crawl slow sites less.',
    fix: 'Speed the server up: caching, a faster back end, a CDN.',
  },
  url_underscore: {
    severity: 'low',
    rule: 'A crawled URL whose path contains _.',
    why: 'Search engines treat hyphens as word separators but not always underscores.',
    fix: 'Use hyphens in URLs; redirect the old URLs to the new ones.',
  },
  url_uppercase: {
    severity: 'low',
    rule: 'A crawled URL whose path contains an ASCII capital letter outside percent-escapes.',
    why: 'Paths are case-sensitive, so mixed case invites duplicates and broken links.',
    fix: 'Use lower-case URLs; redirect the old URLs to the new ones.',
  },
  url_multiple_slashes: {
    severity: 'low',
    rule: 'A crawled URL whose path contains //.',
    why: 'Double slashes usually come from a broken link template and make duplicate URLs.',
    fix: 'Fix the template that builds the link, and redirect the double-slash URL.',
  },
  url_too_long: {
    severity: 'low',
    rule: 'A crawled URL longer than 115 characters.',
    why: 'Long URLs are cut in search results and hard to read and share.',
    fix: 'Use shorter, readable URLs.',
  },
  h1_changed_by_js: {
    severity: 'low',
    rule: "On a rendered crawl: the page's first <h1> in the rendered DOM differs from the raw HTML's (added, changed or removed by a script).",
    why: 'The main heading is read from the raw HTML by crawlers that do not render; the two versions disagree about the page’s subject.',
    fix: 'Put the page’s <h1> in the HTML the server sends.',
  },
  links_only_rendered: {
    severity: 'low',
    rule: 'On a rendered crawl: <a href> links in the rendered DOM that the raw HTML lacks (the detail names up to 10).',
    why: 'Crawlers that do not run scripts never find those links, so the pages behind them are found late or not at all and get less link value.',
    fix: 'Put navigation and links to important pages in the HTML as <a href> elements; scripts may enhance them.',
  },
} as const satisfies Record<string, IssueTypeInfo>;

export type IssueType = keyof typeof ISSUE_CATALOGUE;

export const ISSUE_TYPES: readonly IssueType[] = Object.freeze(Object.keys(ISSUE_CATALOGUE) as IssueType[]);

/** Every type's severity. */
export const ISSUE_SEVERITIES = Object.freeze(
  Object.fromEntries(ISSUE_TYPES.map((type) => [type, ISSUE_CATALOGUE[type].severity])),
) as { readonly [T in IssueType]: (typeof ISSUE_CATALOGUE)[T]['severity'] };

export function isIssueType(value: string): value is IssueType {
  return Object.hasOwn(ISSUE_CATALOGUE, value);
}
