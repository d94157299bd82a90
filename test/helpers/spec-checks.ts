// The checks of the product as docs/checks.md §5 lists them: name and importance, in report
// order. Read from the document, not from the code, so a test comparing the two can fail; the
// document is the one place this list is written (a new check adds its row there).
import { readFileSync } from 'node:fs';

const doc = readFileSync(new URL('../../docs/checks.md', import.meta.url), 'utf8');
const section = doc.slice(doc.indexOf('\n## 5.'), doc.indexOf('\n## 6.'));

/** [name, importance] per row of §5's table, in order. */
export const SPEC_CHECKS: readonly (readonly [string, string])[] = [
  ...section.matchAll(/^\| `(\w+)` *\| (high|medium|low) *\|$/gm),
].map((m) => [m[1], m[2]] as const);

/** The importance of each check, by name. */
export const SPEC_IMPORTANCE: Readonly<Record<string, string>> = Object.fromEntries(SPEC_CHECKS);

/** The `#### name (importance)` heading of each check's own part of §5. */
export const SPEC_HEADINGS: readonly (readonly [string, string])[] = [
  ...section.matchAll(/^#### (\w+) \((high|medium|low)\)$/gm),
].map((m) => [m[1], m[2]] as const);
