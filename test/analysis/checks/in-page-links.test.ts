import { page, table } from './helpers.js';

const medium = 'medium' as const;
const at = 'http://example.test/dir/page';

table('in_page_links', [
  { name: 'no links: []', input: page('', '<p>x</p>'), expected: { passed: true, importance: medium, value: [] } },
  {
    name: 'internal ignores www., scheme and port; directories are kept',
    input: {
      finalUrl: at,
      html: page(
        '',
        '<a href="/about">About</a><a href="other.html">Other</a><a href="https://www.example.test/x">W</a>' +
          '<a href="http://example.test:8080/y">Port</a><a href="https://EXAMPLE.test/z">Case</a>',
      ),
    },
    expected: {
      passed: true,
      importance: medium,
      value: {
        Internals: [
          { url: 'http://example.test/about', text: 'About' },
          { url: 'http://example.test/dir/other.html', text: 'Other' },
          { url: 'https://www.example.test/x', text: 'W' },
          { url: 'http://example.test:8080/y', text: 'Port' },
          { url: 'https://example.test/z', text: 'Case' },
        ],
      },
    },
  },
  {
    name: 'look-alike hosts and subdomains are external',
    input: {
      finalUrl: at,
      html: page('', '<a href="https://example.test.evil.net/">A</a><a href="https://sub.example.test/">B</a>'),
    },
    expected: {
      passed: true,
      importance: medium,
      value: {
        Externals: [
          { url: 'https://example.test.evil.net/', text: 'A' },
          { url: 'https://sub.example.test/', text: 'B' },
        ],
      },
    },
  },
  {
    name: 'blank, fragment-only, javascript:, mailto: and tel: links are skipped',
    input: page(
      '',
      '<a href="">e</a><a href="  ">s</a><a href="#top">t</a><a href="JavaScript:void(0)">j</a>' +
        '<a href=" mailto:a@b.test">m</a><a href="tel:+123">p</a><a>no href</a>',
    ),
    expected: { passed: true, importance: medium, value: [] },
  },
  {
    name: 'other schemes are external; text is collapsed and may be empty; fragments removed',
    input: page(
      '',
      '<a href="ftp://example.test/f">  Get \n <b>file</b> </a><a href="sms:123"><img src="i.png"></a><a href="/x#part">X</a>',
    ),
    expected: {
      passed: true,
      importance: medium,
      value: {
        Internals: [{ url: 'http://example.test/x', text: 'X' }],
        Externals: [
          { url: 'ftp://example.test/f', text: 'Get file' },
          { url: 'sms:123', text: '' },
        ],
      },
    },
  },
  {
    name: '<base href> resolves relative links',
    input: page('<base href="https://cdn.example/">', '<a href="p">P</a>'),
    expected: { passed: true, importance: medium, value: { Externals: [{ url: 'https://cdn.example/p', text: 'P' }] } },
  },
  {
    name: 'a <base href> that does not resolve is skipped for the next one',
    input: page('<base href="http://[bad"><base href="https://second.example/d/">', '<a href="p">P</a>'),
    expected: { passed: true, importance: medium, value: { Externals: [{ url: 'https://second.example/d/p', text: 'P' }] } },
  },
  {
    name: 'an href that does not parse is reported as written, external',
    input: page('', '<a href="http://[bad">Bad</a>'),
    expected: { passed: true, importance: medium, value: { Externals: [{ url: 'http://[bad', text: 'Bad' }] } },
  },
  {
    name: '150 links pass',
    input: page('', '<a href="/a">a</a>'.repeat(150)),
    expected: {
      passed: true,
      importance: medium,
      value: { Internals: Array(150).fill({ url: 'http://example.test/a', text: 'a' }) },
    },
  },
  {
    name: '151 links (duplicates counted): too_many',
    input: page('', '<a href="/a">a</a>'.repeat(151)),
    expected: {
      passed: false,
      importance: medium,
      value: { Internals: Array(151).fill({ url: 'http://example.test/a', text: 'a' }) },
      errors: { too_many: { max: '150' } },
    },
  },
]);
