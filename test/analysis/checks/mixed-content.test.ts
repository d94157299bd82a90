import { page, table } from './helpers.js';

const medium = 'medium' as const;
const pass = { passed: true, importance: medium, value: null };
const resources =
  '<script src="http://a.example/s.js"></script><link rel="stylesheet" href="http://a.example/c.css">' +
  '<img src="http://a.example/i.png#x"><iframe src="http://a.example/f"></iframe>' +
  '<audio src="http://a.example/a.mp3"></audio><video src="http://a.example/v.mp4"><source src="http://a.example/v.webm"></video>' +
  '<picture><source srcset="http://a.example/p.webp 1x, https://a.example/q.webp 2x"></picture>' +
  '<object data="http://a.example/o.swf"></object><embed src="http://a.example/e.swf">';

table('mixed_content', [
  {
    name: 'an http page passes without looking',
    input: { finalUrl: 'http://example.test/', html: page('', resources) },
    expected: pass,
  },
  {
    name: 'https page: http subresources by group',
    input: { finalUrl: 'https://example.test/', html: page('', resources) },
    expected: {
      passed: false,
      importance: medium,
      value: null,
      errors: {
        failed: {
          JavaScripts: ['http://a.example/s.js'],
          CSS: ['http://a.example/c.css'],
          Images: ['http://a.example/i.png'],
          Iframes: ['http://a.example/f'],
          Media: [
            'http://a.example/a.mp3',
            'http://a.example/v.mp4',
            'http://a.example/v.webm',
            'http://a.example/p.webp',
            'http://a.example/o.swf',
            'http://a.example/e.swf',
          ],
        },
      },
    },
  },
  {
    name: 'only the non-empty groups',
    input: {
      finalUrl: 'https://example.test/',
      html: page('', '<img src="http://a.example/i.png"><script src="/local.js"></script>'),
    },
    expected: { passed: false, importance: medium, value: null, errors: { failed: { Images: ['http://a.example/i.png'] } } },
  },
  {
    name: 'relative, protocol-relative and https resources are fine; links are not subresources',
    input: {
      finalUrl: 'https://example.test/',
      html: page('', '<img src="/i.png"><script src="//cdn.example/x.js"></script><a href="http://x.example/">x</a>'),
    },
    expected: pass,
  },
]);
