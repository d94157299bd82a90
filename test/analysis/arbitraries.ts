// fast-check generators for pages: tag soup built from what the engine reads.

import fc from 'fast-check';

const TAGS = [
  'html',
  'head',
  'body',
  'title',
  'meta',
  'link',
  'base',
  'a',
  'img',
  'picture',
  'source',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'h1',
  'h2',
  'p',
  'div',
  'span',
  'br',
  'iframe',
  'audio',
  'video',
  'object',
  'embed',
  'table',
  'tr',
  'td',
  'center',
  'font',
  'marquee',
  'textarea',
  'math',
];
const ATTRS = [
  'href',
  'src',
  'srcset',
  'alt',
  'rel',
  'name',
  'content',
  'property',
  'charset',
  'http-equiv',
  'lang',
  'type',
  'loading',
  'target',
  'style',
  'itemscope',
  'itemtype',
  'defer',
  'async',
  'data',
];
const VALUES = [
  '',
  ' ',
  'icon',
  'stylesheet',
  'description',
  'viewport',
  'robots',
  'noindex, none',
  'application/ld+json',
  'https://schema.org/Thing',
  '_blank',
  'lazy',
  'module',
  'og:title',
  'twitter:card',
  'utf-8',
  'content-type',
  'text/html; charset=gbk',
  '/a b.jpg?x=1#f',
  '//cdn.example/x.webp',
  'http://[bad',
  'javascript:x()',
  'mailto:a@b.test',
  'data:image/svg+xml,<svg>',
  'x@y.org',
  'logo@2x.png',
  'a.webp 1x, b.jpg 2x',
  '%E0%A4%A',
  '\u0000',
  '\ud800',
  '😀',
];

const text = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    '&amp;',
    '&nbsp;',
    '&#x1F600;',
    '&bogus;',
    '<!-- c -->',
    '<![CDATA[x]]>',
    '<!DOCTYPE html>',
    '<',
    '</',
    '{"@context":"https://schema.org"}',
    '[[[[',
    'Blue Widgets',
  ),
);
const attribute = fc
  .tuple(
    fc.constantFrom(...ATTRS),
    fc.oneof(fc.constantFrom(...VALUES), fc.string({ maxLength: 12 })),
    fc.constantFrom('"', "'", ''),
  )
  .map(([name, value, quote]) =>
    quote === '' ? ` ${name}=${value.replace(/[\s>]/g, '')}` : ` ${name}=${quote}${value.replaceAll(quote, '')}${quote}`,
  );
const openTag = fc
  .tuple(fc.constantFrom(...TAGS), fc.array(attribute, { maxLength: 4 }), fc.boolean())
  .map(([tag, attrs, selfClosing]) => `<${tag}${attrs.join('')}${selfClosing ? '/' : ''}>`);
const closeTag = fc.constantFrom(...TAGS).map((tag) => `</${tag}>`);
/** Tag soup from the elements and attributes the checks read, plus plain and binary noise. */
export const htmlish = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.oneof(openTag, closeTag, text), { maxLength: 60 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 300, unit: 'binary' }) },
);
