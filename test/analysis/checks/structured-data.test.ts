import { page, table } from './helpers.js';

const medium = 'medium' as const;
const ld = (json: string) => `<script type="application/ld+json">${json}</script>`;

table('structured_data', [
  {
    name: 'none: [] and missing',
    input: page('<title>t</title>'),
    expected: { passed: false, importance: medium, value: [], errors: { missing: null } },
  },
  {
    name: 'Open Graph and Twitter, anywhere in the document; a repeated key keeps its last content',
    input: page(
      '<meta property="og:title" content="First"><meta name="twitter:card" content="summary">',
      '<meta property="og:title" content="Last"><meta property="og:image" content="/i.png"><meta name="Twitter:Site" content="@x"><meta property="og:empty">',
    ),
    expected: {
      passed: true,
      importance: medium,
      value: {
        'Open Graph': { 'og:title': 'Last', 'og:image': '/i.png' },
        Twitter: { 'twitter:card': 'summary', 'Twitter:Site': '@x' },
      },
    },
  },
  {
    name: 'JSON-LD: every block whose @context mentions schema.org, groups in fixed order',
    input: page(
      ld('{"@context": "https://schema.org", "@type": "Article"}') +
        ld('[{"@context": "http://schema.org/", "@type": "Person"}, {"@context": "https://example.org", "@type": "Other"}]') +
        ld('{"@context": "HTTPS://SCHEMA.ORG", "@graph": [{"@type": "WebPage"}]}') +
        ld('{"@context": ["https://schema.org", {"x": "y"}], "@type": "A"}') +
        ld('{"@context": {"@vocab": "https://schema.org/"}, "@type": "B"}') +
        ld('{"@context": "https://schema.org", broken') +
        ld('{"@type": "NoContext"}'),
      '<meta property="og:type" content="article">',
    ),
    expected: {
      passed: true,
      importance: medium,
      value: {
        'Open Graph': { 'og:type': 'article' },
        'Schema.org': [
          { '@context': 'https://schema.org', '@type': 'Article' },
          { '@context': 'http://schema.org/', '@type': 'Person' },
          { '@context': 'HTTPS://SCHEMA.ORG', '@graph': [{ '@type': 'WebPage' }] },
          { '@context': ['https://schema.org', { x: 'y' }], '@type': 'A' },
          { '@context': { '@vocab': 'https://schema.org/' }, '@type': 'B' },
        ],
      },
    },
  },
  {
    name: 'JSON-LD that does not parse is skipped',
    input: page(ld('{not json')),
    expected: { passed: false, importance: medium, value: [], errors: { missing: null } },
  },
  {
    name: 'JSON-LD nested more than 100 deep is skipped; a kept block is stored 32 levels deep, the deeper list emptied and counted',
    input: page(
      ld(`{"@context": "https://schema.org", "x": ${'['.repeat(101)}${']'.repeat(101)}}`) +
        ld(`{"@context": "https://schema.org", "x": ${'['.repeat(98)}${']'.repeat(98)}}`),
    ),
    expected: {
      passed: true,
      importance: medium,
      // value (1) → Schema.org (2) → the block (3) → x (4) → … → the list at level 32, holding an emptied one
      value: { 'Schema.org': [JSON.parse(`{"@context": "https://schema.org", "x": ${'['.repeat(30)}${']'.repeat(30)}}`)] },
      omitted: { [`/value/Schema.org/0/x${'/0'.repeat(29)}`]: 1 },
    },
  },
  {
    name: 'microdata: outermost schema.org items, in document order with JSON-LD',
    input: page(
      '',
      '<div itemscope itemtype="https://schema.org/NewsArticle https://schema.org/Article"><span itemprop="author" itemscope itemtype="https://schema.org/Person">A</span></div>' +
        ld('{"@context": "https://schema.org", "@type": "Z"}') +
        '<div itemscope itemtype="http://schema.org/Recipe/"></div><div itemscope itemtype="https://example.org/Thing"></div><div itemscope></div>',
    ),
    expected: {
      passed: true,
      importance: medium,
      value: {
        'Schema.org': [
          { '@context': 'https://schema.org', '@type': 'NewsArticle' },
          { '@context': 'https://schema.org', '@type': 'Z' },
          { '@context': 'https://schema.org', '@type': 'Recipe' },
        ],
      },
    },
  },
]);
