// The tree walker (artifacts/tree.ts) streams exactly the events of htmlparser2's Parser, with the
// depth cap and the end tags as written added.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { MAX_TREE_DEPTH, walkTree, type Attributes } from '../../src/analysis/artifacts/tree.js';
import { htmlish } from './arbitraries.js';

/** The attributes as htmlparser2 hands them over: a plain object, first of duplicate names kept. */
function asObject(attributes: Attributes): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of attributes.order()) out[attributes.names[i]] = attributes.values[i];
  return out;
}

function walked(html: string): string[] {
  const log: string[] = [];
  walkTree(html, {
    openElement: (name, attributes) => log.push(`<${name} ${JSON.stringify(asObject(attributes))}>`),
    closeElement: (name, implied) => log.push(`</${name}${implied ? '*' : ''}>`),
    text: (text) => log.push(text),
  });
  return log;
}

function parsed(html: string): string[] {
  const log: string[] = [];
  new Parser(
    {
      onopentag: (name, attribs) => log.push(`<${name} ${JSON.stringify(attribs)}>`),
      onclosetag: (name, implied) => log.push(`</${name}${implied ? '*' : ''}>`),
      ontext: (text) => log.push(text),
    },
    { decodeEntities: true },
  ).end(html);
  return log;
}

test('below the cap, the same events as htmlparser2 itself', () => {
  fc.assert(
    fc.property(htmlish, (html) => assert.deepEqual(walked(html), parsed(html))),
    { numRuns: 300 },
  );
});

test('attributes as htmlparser2 hands them over: lower-cased names, first duplicate kept, array indices first, no __proto__', () => {
  const html = '<div B="1" b="2" 10="t" 2="u" __proto__="p" constructor="c" data-x=y></div><svg><path d="M0"/></svg>';
  assert.deepEqual(walked(html), parsed(html));
  assert.equal(walked(html)[0], '<div {"2":"u","10":"t","b":"1","constructor":"c","data-x":"y"}>');
  const many = `<p ${Array.from({ length: 40 }, (_, i) => `a${i % 30}="${i}"`).join(' ')}>`;
  assert.deepEqual(walked(many), parsed(many));
});

test('at the cap, the innermost element is closed before the next opens', () => {
  const html = `${'<b>'.repeat(MAX_TREE_DEPTH)}<i>x</i>`;
  const log = walked(html);
  const opened = log.filter((e) => e.startsWith('<b ')).length;
  assert.equal(opened, MAX_TREE_DEPTH);
  // the 512th <b> is closed (implied) just before <i> opens, so <i> sits at depth 512
  const i = log.indexOf('<i {}>');
  assert.equal(log[i - 1], '</b*>');
  let depth = 0;
  let deepest = 0;
  for (const e of log) {
    if (e.startsWith('</')) depth--;
    else if (e.startsWith('<')) deepest = Math.max(deepest, ++depth);
  }
  assert.equal(deepest, MAX_TREE_DEPTH);
});

test('endTag: every end tag as written, lower-cased, whether or not it closes an element, until it returns false', () => {
  const seen: string[] = [];
  const closed: string[] = [];
  walkTree('<html><head></HEAD></body></p><b></b></stop></i><x></x></html>', {
    openElement: () => {},
    text: () => {},
    endTag: (name) => {
      seen.push(name);
      return name !== 'stop';
    },
    closeElement: (name) => closed.push(name),
  });
  // htmlparser2 reports neither the stray </body> nor </stop>; endTag sees both, and nothing after </stop>.
  assert.deepEqual(seen, ['head', 'body', 'p', 'b', 'stop']);
  assert.deepEqual(closed, ['head', 'p', 'b', 'x', 'html']);
});
