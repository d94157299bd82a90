import { page, table } from './helpers.js';

const low = 'low' as const;
const pass = { passed: true, importance: low, value: null };
const found = (...addresses: string[]) => ({ passed: false, importance: low, value: null, errors: { failed: addresses } });

table('plaintext_email', [
  { name: 'none pass', input: page('', '<p>write to us at hello at example dot com</p>'), expected: pass },
  { name: 'an address in visible text', input: page('', '<p>Write to hello@acme.test.</p>'), expected: found('hello@acme.test') },
  {
    name: 'mailto: links count (attribute values)',
    input: page('', '<a href="mailto:info@example.com">Contact</a>'),
    expected: found('info@example.com'),
  },
  {
    name: 'scripts, styles and comments do not count',
    input: page(
      '<script>var e = "a@b.com"</script><style>/* c@d.org */</style>',
      '<!-- e@f.net --><script type="application/ld+json">{"email":"g@h.io"}</script>',
    ),
    expected: pass,
  },
  {
    name: 'file names are not addresses',
    input: page('', '<img src="logo@2x.png"><p>hls@0.8.9.js sprite@3x.WEBP</p>'),
    expected: pass,
  },
  {
    name: 'the last label must be letters, two or more',
    input: page('', '<p>a@b.c x@y.c0m ok@mail.example.museum</p>'),
    expected: found('ok@mail.example.museum'),
  },
  {
    name: 'visible text first, then attributes; duplicates dropped case-insensitively',
    input: page(
      '',
      '<input type="hidden" value="Zed@Example.com"><p>zed@example.com and Amy@Example.com</p><a href="mailto:amy@example.com">x</a><div data-x="b@c.de"></div>',
    ),
    expected: found('zed@example.com', 'Amy@Example.com', 'b@c.de'),
  },
  {
    name: 'a long run without @ in an attribute is no problem',
    input: page('', `<img src="data:image/png;base64,${'A'.repeat(200000)}@">`),
    expected: pass,
  },
]);
