import { page, table } from './helpers.js';

const high = 'high' as const;

table('content_keywords', [
  {
    name: 'title words found in visible text, in title order',
    input: page(
      '<title>Blue Widgets for Sale | Example Shop</title>',
      '<p>Our widgets are blue.</p><a href="/exampleshop">x</a>',
    ),
    expected: { passed: true, importance: high, value: ['blue', 'widgets'] },
  },
  {
    name: 'none found: [] and missing lists every title word',
    input: page('<title>Quantum Gadgets Review</title>', '<p>Nothing relevant here.</p>'),
    expected: { passed: false, importance: high, value: [], errors: { missing: ['quantum', 'gadgets', 'review'] } },
  },
  {
    name: 'no title: missing []',
    input: page('', '<p>words</p>'),
    expected: { passed: false, importance: high, value: [], errors: { missing: [] } },
  },
  {
    name: 'a title of short and stop words only: missing []',
    input: page('<title>To Be or Not</title>', '<p>to be or not to be</p>'),
    expected: { passed: false, importance: high, value: [], errors: { missing: [] } },
  },
  {
    name: 'script, style, noscript and template text supply no keywords',
    input: page(
      '<title>Quantum Gadgets</title>',
      '<script>var quantum=1</script><style>.gadgets{}</style><noscript>quantum</noscript><template>gadgets</template>',
    ),
    expected: { passed: false, importance: high, value: [], errors: { missing: ['quantum', 'gadgets'] } },
  },
  {
    name: 'attribute values supply no keywords',
    input: page('<title>Quantum</title>', '<img alt="quantum" src="q.png"><input type="hidden" value="quantum">'),
    expected: { passed: false, importance: high, value: [], errors: { missing: ['quantum'] } },
  },
  {
    name: 'whole words only',
    input: page('<title>Cat</title>', '<p>concatenate</p>'),
    expected: { passed: false, importance: high, value: [], errors: { missing: ['cat'] } },
  },
  {
    name: 'deduplicated, case-insensitive',
    input: page('<title>Widgets widgets WIDGETS and Gears</title>', '<p>GEARS and Widgets</p>'),
    expected: { passed: true, importance: high, value: ['widgets', 'gears'] },
  },
  {
    name: "apostrophes split words: don't gives don and t",
    input: page("<title>Don't Panic</title>", '<p>don</p>'),
    expected: { passed: true, importance: high, value: ['don'] },
  },
  {
    name: 'Unicode letters and lower-casing',
    input: page('<title>ÉCOLE Café</title>', '<p>une école</p>'),
    expected: { passed: true, importance: high, value: ['école'] },
  },
  {
    name: 'a title of many words (read in one pass) gives the same answer',
    input: page(
      '<title>alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo</title>',
      '<p>Romeo met Juliet; alphabet soup</p>',
    ),
    expected: { passed: true, importance: high, value: ['juliet', 'romeo'] },
  },
  {
    name: 'combining marks keep Devanagari words whole',
    input: page('<title>हिन्दी समाचार</title>', '<p>आज का समाचार</p>'),
    expected: { passed: true, importance: high, value: ['समाचार'] },
  },
]);
