import { page, table, withLimits } from './helpers.js';

const low = 'low' as const;
const words = (n: number) => ({
  passed: n >= 500,
  importance: low,
  value: n,
  ...(n >= 500 ? {} : { errors: { too_few: { min: '500' } } }),
});

table('content_length', [
  { name: 'block elements separate words', input: page('', '<p>one</p><p>two</p><div>three</div>'), expected: words(3) },
  { name: 'inline elements do not', input: page('', '<p><b>un</b>der<span>stand</span> <em>it</em></p>'), expected: words(2) },
  { name: '<br> is a space', input: page('', 'a<br>b'), expected: words(2) },
  {
    name: 'script, style, noscript, template and svg are left out',
    input: page(
      '',
      'a <script>b c</script><style>d{}</style><noscript>e</noscript><template>f</template><svg><text>g</text></svg> h',
    ),
    expected: words(2),
  },
  {
    name: 'a hidden element leaves no space: foo<script>…</script>bar is one word',
    input: page('', 'foo<script>x</script>bar'),
    expected: words(1),
  },
  {
    name: 'CSS is not evaluated: hidden text counts',
    input: page('', '<p hidden>seen</p><p style="display:none">too</p>'),
    expected: words(2),
  },
  {
    name: 'attribute values are not text',
    input: page('', '<input type="hidden" value="secret words here"><img alt="alt words">'),
    expected: words(0),
  },
  { name: 'the head is not body text', input: page('<title>Title words</title>', 'body'), expected: words(1) },
  {
    name: 'without <body>: the document minus the head',
    input: '<head><title>t</title></head><p>one two</p>',
    expected: words(2),
  },
  { name: 'without <head> or <body>: the whole document', input: '<title>t</title><p>one two</p>', expected: words(3) },
  { name: "punctuation splits words: don't is two", input: page('', "don't stop—now"), expected: words(4) },
  { name: 'unspaced scripts give long runs', input: page('', '<p>我爱北京天安门</p>'), expected: words(1) },
  { name: 'entities and U+00A0 separate words', input: page('', 'a&nbsp;b&amp;c'), expected: words(3) },
  { name: '500 words pass', input: page('', '<p>word</p>'.repeat(500)), expected: words(500) },
  { name: '499 words fail', input: page('', '<p>word</p>'.repeat(499)), expected: words(499) },
  {
    name: 'configured minimum',
    input: page('', 'one two'),
    config: withLimits({ minWords: 3 }),
    expected: { passed: false, importance: low, value: 2, errors: { too_few: { min: '3' } } },
  },
]);
