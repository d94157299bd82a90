import { page, table } from './helpers.js';

const high = 'high' as const;
const failing = (items: { url: string; text: string }[]) => ({
  passed: false,
  importance: high,
  value: items,
  errors: { missing: items },
});

table('image_keywords', [
  { name: 'no images pass', input: page('', '<p>x</p>'), expected: { passed: true, importance: high, value: null } },
  {
    name: 'images with alt pass',
    input: page('', '<img src="a.png" alt="A"><img srcset="b.png 2x" alt="B">'),
    expected: { passed: true, importance: high, value: null },
  },
  {
    name: 'missing, empty and whitespace-only alt fail, in document order',
    input: page('', '<img src="/a.png"><img src="/b.png" alt=""><img src="/c.png" alt=" \n">'),
    expected: failing([
      { url: 'http://example.test/a.png', text: '' },
      { url: 'http://example.test/b.png', text: '' },
      { url: 'http://example.test/c.png', text: '' },
    ]),
  },
  {
    name: 'srcset only: the first srcset URL',
    input: page('', '<img srcset=" small.jpg 1x, big.jpg 2x">'),
    expected: failing([{ url: 'http://example.test/small.jpg', text: '' }]),
  },
  {
    name: 'an img with neither src nor srcset is no image',
    input: page('', '<img data-src="lazy.jpg"><img src=" ">'),
    expected: { passed: true, importance: high, value: null },
  },
  {
    name: '<base href>, protocol-relative URLs and fragments',
    input: {
      finalUrl: 'https://site.example/dir/page',
      html: page('<base href="https://cdn.example/assets/">', '<img src="x.png#frag"><img src="//img.example/y.png">'),
    },
    expected: failing([
      { url: 'https://cdn.example/assets/x.png', text: '' },
      { url: 'https://img.example/y.png', text: '' },
    ]),
  },
]);
