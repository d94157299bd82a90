// htmlparser2's Parser with the tree depth capped, as browsers cap it.
//
// The Parser keeps its open elements innermost-first and adds each one with `unshift`, which
// costs O(depth): a 5 MB page of nothing but nested <div>s (a million deep) took minutes and
// would stall the server. Chromium caps its tree at 512 levels (deeper elements become
// siblings); so do we, by closing the innermost element before a 513th level would open. Every
// stack operation then costs at most 512 steps. Real pages stay far below: corpus A's deepest is 51.
//
// It also reports every end tag as written (`onendtag`): htmlparser2's own `onclosetag` reports
// only those that close an open element, but a stray `</head>` or `</html>` still moves a
// browser's tree construction on (checks.md §4.1 "Head").

import { Parser, type Handler } from 'htmlparser2';

export const MAX_TREE_DEPTH = 512;

/** The Parser internals touched here (htmlparser2 10: private in its typings). */
interface ParserInternals {
  stack: string[];
  foreignContext: boolean[];
  emitOpenTag(name: string): void;
  /** The tokenizer's end-tag callback: the name is the input between the indices. */
  onclosetag(start: number, endIndex: number): void;
  getSlice(start: number, end: number): string;
}

export interface TreeHandler extends Partial<Handler> {
  /**
   * Every end tag as written, lower-cased, before the tree sees it (whether or not it closes
   * anything), until it returns false: reading the name costs a little on every end tag.
   */
  onendtag?(name: string): boolean;
}

export function depthCappedParser(handler: TreeHandler): Parser {
  const parser = new Parser(handler, { decodeEntities: true });
  const internals = parser as unknown as ParserInternals;
  const emitOpenTag = internals.emitOpenTag.bind(parser);
  // Every element, explicit or implied, opens through emitOpenTag.
  internals.emitOpenTag = (name: string) => {
    while (internals.stack.length >= MAX_TREE_DEPTH) {
      handler.onclosetag?.(internals.stack.shift()!, true);
    }
    // Foreign-content flags are pushed the same way and only popped by end tags; keep the
    // innermost ones, which are the only ones ever read.
    if (internals.foreignContext.length > MAX_TREE_DEPTH) internals.foreignContext.length = MAX_TREE_DEPTH;
    emitOpenTag(name);
  };
  const onendtag = handler.onendtag;
  if (onendtag !== undefined) {
    const onclosetag = internals.onclosetag.bind(parser);
    internals.onclosetag = (start: number, endIndex: number) => {
      if (!onendtag(internals.getSlice(start, endIndex).toLowerCase())) internals.onclosetag = onclosetag;
      onclosetag(start, endIndex);
    };
  }
  return parser;
}
