import type { Artifacts } from '../artifacts.js';

/** The content of the last head `<meta name=…>` whose content is not blank; null if none. */
export function lastMetaContent(artifacts: Artifacts, name: string): string | null {
  let found: string | null = null;
  for (const meta of artifacts.headMetas) {
    if (meta.name === name && meta.content !== null && meta.content.trim() !== '') found = meta.content;
  }
  return found;
}
