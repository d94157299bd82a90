// The peer the engine is timed against (bench/analyze.ts): HTMLHint with its default rules, on
// the same page in the same run. A linter, not an SEO tool, but it does what our engine does per
// page (tokenise the HTML once, run a set of rules over what it saw), so its time is the yardstick.
// htmlhint ships no type declarations: the little used here is typed by hand.
import { createRequire } from 'node:module';

interface HtmlHint {
  verify(html: string): unknown[];
}

const require = createRequire(import.meta.url);
const { HTMLHint } = require('htmlhint') as { HTMLHint: HtmlHint };
export const HTMLHINT_VERSION: string = (require('htmlhint/package.json') as { version: string }).version;

/** HTMLHint.verify with its default ruleset; returns the number of messages (so the work is used). */
export function htmlhintVerify(html: string): number {
  return HTMLHint.verify(html).length;
}
