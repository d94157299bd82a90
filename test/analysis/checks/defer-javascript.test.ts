import { page, table } from './helpers.js';

const low = 'low' as const;

table('defer_javascript', [
  {
    name: 'no external scripts pass',
    input: page('<script>inline()</script>'),
    expected: { passed: true, importance: low, value: null },
  },
  {
    name: 'defer, async and modules do not block',
    input: page(
      '<script defer src="a.js"></script><script async src="b.js"></script><script type=" MODULE " src="c.js"></script>',
    ),
    expected: { passed: true, importance: low, value: null },
  },
  {
    name: 'blocking scripts are listed, resolved, in order',
    input: page(
      '<script src="/a.js"></script><script src="https://cdn.example/b.js#x"></script><script src=" "></script>',
      '<script src="c.js" type="text/javascript"></script>',
    ),
    expected: {
      passed: false,
      importance: low,
      value: null,
      errors: { missing: ['http://example.test/a.js', 'https://cdn.example/b.js', 'http://example.test/c.js'] },
    },
  },
]);
