// The head rule of docs/checks.md §4.1 ("Head") over literal pages: what a browser puts in the head,
// what an early close pushes out of it, and what closed it. Shared by the unit test
// (head-region.test.ts) and the Chromium comparison (test/browser/head-region.test.ts).
//
// Lookups are labelled `meta:<name>`, `title:<text>` and `link:<href>`, in document order. No
// lookup sits inside a <noscript> or <template> here: the engine reads their content as elements
// (§4.1 "Parser"), where a browser with scripting on has text or an inert fragment.

export interface HeadCase {
  name: string;
  html: string;
  /** The lookups in the head, as a browser builds it. */
  head: string[];
  /** The lookups after an early close, inside the head as written. */
  stray: string[];
  /** What closed the head early (`<iframe>`, `#text`), or null. */
  closedBy: string | null;
}

export const HEAD_CASES: HeadCase[] = [
  {
    name: 'every element the head holds keeps it open, up to <body>',
    html:
      '<!DOCTYPE html><html><head><base href="/"><meta name="a"><link rel="icon" href="i.png"><title>T</title>' +
      '<script>var x = 1;</script><style>p { color: red }</style><noscript><img src="px.gif"></noscript>' +
      '<template><div>t</div></template><noframes><p>n</p></noframes><basefont><bgsound><meta name="b"></head>' +
      '<body><p>text</p><meta name="c"></body></html>',
    head: ['meta:a', 'link:i.png', 'title:T', 'meta:b'],
    stray: [],
    closedBy: null,
  },
  {
    name: 'an <iframe> closes the head; what follows is body content',
    html: '<html><head><meta name="a"><iframe src="x.html"></iframe><meta name="b"><title>T</title><link rel="icon" href="i.png"></head><body></body></html>',
    head: ['meta:a'],
    stray: ['meta:b', 'title:T', 'link:i.png'],
    closedBy: '<iframe>',
  },
  ...['img', 'div', 'p', 'span', 'a', 'input', 'textarea', 'table', 'h1', 'object', 'my-widget'].map((tag) => ({
    name: `a <${tag}> closes the head`,
    html: `<head><meta name="a"><${tag}></${tag}><meta name="b"></head><body></body>`,
    head: ['meta:a'],
    stray: ['meta:b'],
    closedBy: `<${tag}>`,
  })),
  {
    name: 'tag names are reported lower-cased',
    html: '<HEAD><META NAME="a"><IFrame></IFrame><My-Widget></My-Widget><META NAME="b"></HEAD>',
    head: ['meta:a'],
    stray: ['meta:b'],
    closedBy: '<iframe>',
  },
  {
    name: 'non-whitespace text closes the head',
    html: '<head><meta name="a">oops<meta name="b"></head><body></body>',
    head: ['meta:a'],
    stray: ['meta:b'],
    closedBy: '#text',
  },
  {
    name: '&nbsp; is text, not HTML whitespace: it closes the head',
    html: '<head><meta name="a">&nbsp;<meta name="b"></head><body></body>',
    head: ['meta:a'],
    stray: ['meta:b'],
    closedBy: '#text',
  },
  {
    name: 'a raw U+00A0 closes the head too',
    html: '<head><meta name="a">\u00a0<meta name="b"></head><body></body>',
    head: ['meta:a'],
    stray: ['meta:b'],
    closedBy: '#text',
  },
  {
    name: 'HTML whitespace (space, tab, LF, FF, CR, &#32;) and comments keep the head open',
    html: '<head> \t\n\f\r<meta name="a">&#32;&#x0A;<!-- a comment <div> --><meta name="b"></head><body></body>',
    head: ['meta:a', 'meta:b'],
    stray: [],
    closedBy: null,
  },
  {
    name: 'markup-like text inside title, script and style is their own text',
    html: '<head><title>A <div> title</title><script>if (a < b) document.write("<iframe></iframe>")</script><style>p > a::after { content: "<p>" }</style><meta name="a"></head>',
    head: ['title:A <div> title', 'meta:a'],
    stray: [],
    closedBy: null,
  },
  {
    name: 'nothing inside <noscript>, <template> or <noframes> closes the head',
    html:
      '<head><noscript><iframe src="ns.html"></iframe><img src="p.gif">text</noscript>' +
      '<template><div><p>t</p></div>text</template><noframes><div>n</div></noframes><meta name="a"></head><body></body>',
    head: ['meta:a'],
    stray: [],
    closedBy: null,
  },
  {
    name: 'an <svg> in the head closes it; its <title> is never the page title',
    html: '<head><meta name="a"><svg><title>icon</title></svg><title>T</title></head><body></body>',
    head: ['meta:a'],
    stray: ['title:T'],
    closedBy: '<svg>',
  },
  {
    name: 'a <meta> before any <head> opens an implied head, which the <head> tag continues',
    html: '<meta name="a"><html><head><meta name="b"></head><body></body></html>',
    head: ['meta:a', 'meta:b'],
    stray: [],
    closedBy: null,
  },
  {
    name: 'without <head> or <body>, the head runs to the first body content',
    html: '<meta name="a"><title>T</title><p>text</p><meta name="b">',
    head: ['meta:a', 'title:T'],
    stray: ['meta:b'],
    closedBy: '<p>',
  },
  {
    name: 'without a <head>, an early close pushes out what stands before <body>, not what is in it',
    html: '<meta name="a"><iframe></iframe><meta name="b"><body><meta name="c"></body>',
    head: ['meta:a'],
    stray: ['meta:b'],
    closedBy: '<iframe>',
  },
  {
    name: 'body content before the <head> tag closes the implied head',
    html: '<meta name="a"><div></div><head><title>T</title></head><body></body>',
    head: ['meta:a'],
    stray: ['title:T'],
    closedBy: '<div>',
  },
  {
    name: 'text before the <head> tag closes the head',
    html: 'hello<head><title>T</title></head><body></body>',
    head: [],
    stray: ['title:T'],
    closedBy: '#text',
  },
  {
    name: '<html> tags in the head are ignored',
    html: '<html lang="en"><head><meta name="a"><html class="x"><meta name="b"></head></html>',
    head: ['meta:a', 'meta:b'],
    stray: [],
    closedBy: null,
  },
  {
    name: 'a <body> tag is the normal end of the head, even without </head>',
    html: '<html><head><meta name="a"><body><iframe></iframe><meta name="b"></body></html>',
    head: ['meta:a'],
    stray: [],
    closedBy: null,
  },
  {
    name: 'between </head> and the body, head elements still count as head content',
    html: '<head><meta name="a"></head>\n<!-- c -->\n<meta name="b"><title>T</title><link rel="icon" href="i.png"><script></script><body></body>',
    head: ['meta:a', 'meta:b', 'title:T', 'link:i.png'],
    stray: [],
    closedBy: null,
  },
  {
    name: 'after </head>, body content ends the head normally (not early)',
    html: '<head><meta name="a"></head><div></div><meta name="b"><body></body>',
    head: ['meta:a'],
    stray: [],
    closedBy: null,
  },
  {
    name: 'after </head>, a <noscript> starts the body',
    html: '<head><meta name="a"></head><noscript></noscript><meta name="b"><body></body>',
    head: ['meta:a'],
    stray: [],
    closedBy: null,
  },
  {
    name: 'after </head>, text starts the body',
    html: '<head><meta name="a"></head>x<meta name="b"><body></body>',
    head: ['meta:a'],
    stray: [],
    closedBy: null,
  },
  {
    name: 'a second <head> is ignored: its titles are head content, after the first one’s',
    html: '<html><head><title>A</title></head><head><title>B</title></head><body></body></html>',
    head: ['title:A', 'title:B'],
    stray: [],
    closedBy: null,
  },
  {
    name: 'a second <head> after an early close is body content',
    html: '<html><head><iframe></iframe><meta name="a"></head><head><meta name="b"></head><body></body></html>',
    head: [],
    stray: ['meta:a'],
    closedBy: '<iframe>',
  },
  {
    name: 'a stray </p> in the head is ignored',
    html: '<head><meta name="a"></p><meta name="b"></head><body></body>',
    head: ['meta:a', 'meta:b'],
    stray: [],
    closedBy: null,
  },
  {
    name: 'a stray </br> in the head is a <br>: it closes the head',
    html: '<head><meta name="a"></br><meta name="b"></head><body></body>',
    head: ['meta:a'],
    stray: ['meta:b'],
    closedBy: '<br>',
  },
  {
    name: 'a </head> without <head> ends the implied head normally',
    html: '<meta name="a"></head><meta name="b"><div></div><meta name="c">',
    head: ['meta:a', 'meta:b'],
    stray: [],
    closedBy: null,
  },
  {
    name: '</html> in the head ends it; what follows is body content',
    html: '<head><title>T</title></html><meta name="a">',
    head: ['title:T'],
    stray: [],
    closedBy: null,
  },
];
