import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Parser, type Handler } from 'htmlparser2';
import { MAX_TREE_DEPTH, depthCappedParser } from '../../src/analysis/html-parser.js';
import { htmlish } from './arbitraries.js';

function events(make: (handler: Partial<Handler>) => Parser, html: string): string[] {
  const log: string[] = [];
  make({
    onopentag: (name, attribs) => log.push(`<${name} ${JSON.stringify(attribs)}>`),
    onclosetag: (name, implied) => log.push(`</${name}${implied ? '*' : ''}>`),
    ontext: (text) => log.push(text),
  }).end(html);
  return log;
}

const plain = (handler: Partial<Handler>) => new Parser(handler, { decodeEntities: true });

test('below the cap, the same events as htmlparser2 itself', () => {
  fc.assert(fc.property(htmlish, (html) => assert.deepEqual(events(depthCappedParser, html), events(plain, html))), { numRuns: 300 });
});

test('at the cap, the innermost element is closed before the next opens', () => {
  const html = '<b>'.repeat(MAX_TREE_DEPTH) + '<i>x</i>';
  const log = events(depthCappedParser, html);
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

test('onendtag: every end tag as written, lower-cased, whether or not it closes an element, until it returns false', () => {
  const seen: string[] = [];
  const closed: string[] = [];
  depthCappedParser({
    onendtag: (name) => {
      seen.push(name);
      return name !== 'stop';
    },
    onclosetag: (name) => closed.push(name),
  }).end('<html><head></HEAD></body></p><b></b></stop></i><x></x></html>');
  // htmlparser2 reports neither the stray </body> nor </stop>; onendtag sees both, and nothing after </stop>.
  assert.deepEqual(seen, ['head', 'body', 'p', 'b', 'stop']);
  assert.deepEqual(closed, ['head', 'p', 'b', 'x', 'html']);
});
