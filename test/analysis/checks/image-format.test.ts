import { page, table, withLimits } from './helpers.js';

const medium = 'medium' as const;
const formats = ['AVIF', 'WebP'];
const pass = { passed: true, importance: medium, value: formats };
const bad = (items: { url: string; text: string }[]) => ({
  passed: false,
  importance: medium,
  value: formats,
  errors: { bad_format: items },
});

table('image_format', [
  { name: 'no images pass', input: page('', '<p>x</p>'), expected: pass },
  { name: 'webp, avif and svg pass', input: page('', '<img src="a.webp"><img src="b.AVIF"><img src="c.svg">'), expected: pass },
  {
    name: 'jpg and png fail with the collapsed alt, "" when absent',
    input: page('', '<img src="/a.jpg" alt=" A \n photo "><img src="/b.png">'),
    expected: bad([
      { url: 'http://example.test/a.jpg', text: 'A photo' },
      { url: 'http://example.test/b.png', text: '' },
    ]),
  },
  { name: 'a query string does not hide the extension', input: page('', '<img src="photo.webp?w=300#x">'), expected: pass },
  {
    name: 'the extension is read from the path, not the query',
    input: page('', '<img src="/photo.jpg?fmt=webp">'),
    expected: bad([{ url: 'http://example.test/photo.jpg?fmt=webp', text: '' }]),
  },
  {
    name: 'data: URIs give their MIME subtype',
    input: page('', '<img src="data:image/webp;base64,AAAA"><img src="data:image/svg+xml,%3Csvg%3E">'),
    expected: pass,
  },
  {
    name: 'a data: PNG fails',
    input: page('', '<img src="data:image/png;base64,AAAA">'),
    expected: bad([{ url: 'data:image/png;base64,AAAA', text: '' }]),
  },
  {
    name: '<picture> with a listed <source> makes its img modern',
    input: page('', '<picture><source srcset="a.avif 1x, a2.avif 2x"><img src="a.jpg"></picture>'),
    expected: pass,
  },
  {
    name: 'a <source> without extension takes its type',
    input: page('', '<picture><source srcset="/img?id=1" type="image/webp"><img src="a.jpg"></picture>'),
    expected: pass,
  },
  {
    name: 'a <picture> offering only jpg does not help',
    input: page('', '<picture><source srcset="/a-large.jpg"><img src="/a.jpg"></picture>'),
    expected: bad([{ url: 'http://example.test/a.jpg', text: '' }]),
  },
  {
    name: 'an img outside the picture does not borrow its sources',
    input: page('', '<picture><source srcset="a.webp"><img src="a.jpg"></picture><img src="/b.jpg">'),
    expected: bad([{ url: 'http://example.test/b.jpg', text: '' }]),
  },
  { name: 'no extension: the img type gives it', input: page('', '<img src="/image" type="image/avif">'), expected: pass },
  {
    name: 'no extension and no type: not modern',
    input: page('', '<img src="/image">'),
    expected: bad([{ url: 'http://example.test/image', text: '' }]),
  },
  {
    name: 'lazy images count; srcset-only images use the first srcset URL',
    input: page('', '<img loading="lazy" src="/a.gif" alt="x"><img srcset="/b.jpg 1x, /b.webp 2x">'),
    expected: bad([
      { url: 'http://example.test/a.gif', text: 'x' },
      { url: 'http://example.test/b.jpg', text: '' },
    ]),
  },
  {
    name: 'the configured list is the value, compared case-insensitively',
    input: page('', '<img src="a.png">'),
    config: withLimits({ imageFormats: ['PNG'] }),
    expected: { passed: true, importance: medium, value: ['PNG'] },
  },
]);
