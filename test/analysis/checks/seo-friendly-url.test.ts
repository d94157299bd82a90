import { page, table } from './helpers.js';

const high = 'high' as const;
const at = (finalUrl: string, title = 'Blue Widgets') => ({ finalUrl, html: page(`<title>${title}</title>`) });
const pass = (url: string) => ({ passed: true, importance: high, value: url });
const fails = (url: string, key: string) => ({ passed: false, importance: high, value: url, errors: { [key]: null } });

table('seo_friendly_url', [
  {
    name: 'a title word in the path passes',
    input: at('http://example.test/blue-widgets'),
    expected: pass('http://example.test/blue-widgets'),
  },
  {
    name: 'no title word in host or path: missing',
    input: at('http://example.test/products/123'),
    expected: fails('http://example.test/products/123', 'missing'),
  },
  {
    name: 'whole words only (no substring of the URL)',
    input: at('http://example.test/bluewidgetshop.html'),
    expected: fails('http://example.test/bluewidgetshop.html', 'missing'),
  },
  {
    name: 'an underscore: bad_format',
    input: at('http://example.test/blue_widgets'),
    expected: fails('http://example.test/blue_widgets', 'bad_format'),
  },
  {
    name: 'missing beats bad_format',
    input: at('http://example.test/Foo_Bar', 'Widgets'),
    expected: fails('http://example.test/Foo_Bar', 'missing'),
  },
  {
    name: 'an upper-case letter: bad_format',
    input: at('http://example.test/Blue-widgets'),
    expected: fails('http://example.test/Blue-widgets', 'bad_format'),
  },
  {
    name: 'a %20 space: bad_format',
    input: at('http://example.test/blue%20widgets'),
    expected: fails('http://example.test/blue%20widgets', 'bad_format'),
  },
  {
    name: 'percent-decoded first: %C3%A9 is é, lower-case',
    input: at('http://example.test/caf%C3%A9-menu', 'Café Menu'),
    expected: pass('http://example.test/caf%C3%A9-menu'),
  },
  {
    name: 'a decoded upper-case letter (%C3%89) fails',
    input: at('http://example.test/%C3%89cole', 'École'),
    expected: fails('http://example.test/%C3%89cole', 'bad_format'),
  },
  {
    name: 'two query parameters pass',
    input: at('http://example.test/blue?a=1&b=2'),
    expected: pass('http://example.test/blue?a=1&b=2'),
  },
  {
    name: 'empty parts are not parameters',
    input: at('http://example.test/blue?a=1&&b=2&'),
    expected: pass('http://example.test/blue?a=1&&b=2&'),
  },
  {
    name: 'three query parameters: bad_format',
    input: at('http://example.test/blue?a=1&b=2&c=3'),
    expected: fails('http://example.test/blue?a=1&b=2&c=3', 'bad_format'),
  },
  {
    name: 'host words count',
    input: at('http://www.widgets-shop.test/', 'Widgets Shop'),
    expected: pass('http://www.widgets-shop.test/'),
  },
  {
    name: 'an IDN host is read in Unicode',
    input: at('http://xn--bcher-kva.example/', 'Bücher kaufen'),
    expected: pass('http://xn--bcher-kva.example/'),
  },
  {
    name: 'a path that does not decode is read raw',
    input: at('http://example.test/blue%e0%a4%a'),
    expected: pass('http://example.test/blue%e0%a4%a'),
  },
  {
    name: 'read raw, upper-case hex digits are upper-case letters',
    input: at('http://example.test/blue%E0%A4%A'),
    expected: fails('http://example.test/blue%E0%A4%A', 'bad_format'),
  },
  {
    name: 'no title: missing',
    input: { finalUrl: 'http://example.test/blue', html: page('') },
    expected: fails('http://example.test/blue', 'missing'),
  },
]);
