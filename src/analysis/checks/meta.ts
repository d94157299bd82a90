import { Type } from '@sinclair/typebox';
import type { Meta } from '../artifacts/index.js';
import { collapse } from '../text.js';
import type { Importance } from '../types.js';
import { defineCheck, fail } from './define-check.js';
import { headClosedBy } from './head-closed.js';

/** The content of the last `<meta name=…>` whose content is not blank; null if none. */
export function lastMetaContent(metas: readonly Meta[], name: string): string | null {
  let found: string | null = null;
  for (const meta of metas) {
    if (meta.name === name && meta.content !== null && meta.content.trim() !== '') found = meta.content;
  }
  return found;
}

interface NamedMeta<N extends string> {
  check: N;
  position: number;
  importance: Importance;
  /** The `name` of the meta tag. */
  meta: string;
  title: string;
  why: string;
  fix: string;
  /** The summary when it is missing, and the start of the one naming what closed the head. */
  missing: string;
  headClosedLead: string;
  /** The summary of a found content. */
  found: (content: string) => string;
}

/** A check that a non-blank head `<meta name=…>` is present: meta_description, meta_viewport. */
export function namedMetaCheck<N extends string>(m: NamedMeta<N>) {
  return defineCheck({
    name: m.check,
    position: m.position,
    importance: m.importance,
    title: m.title,
    why: m.why,
    fix: m.fix,
    value: Type.Union([Type.String(), Type.Null()]),
    errors: { missing: Type.Null() },
    headClosedLead: m.headClosedLead,

    run({ artifacts: { head } }) {
      const content = lastMetaContent(head.metas, m.meta);
      if (content !== null) return { value: collapse(content) };
      const closedBy = headClosedBy(head, (stray) => lastMetaContent(stray.metas, m.meta) !== null);
      return { value: null, failure: fail('missing', null, closedBy) };
    },

    describe({ passed, value, failure }) {
      if (failure?.key === 'missing') return m.missing;
      return passed && typeof value === 'string' ? m.found(value) : null;
    },

    view: { value: { kind: 'text' }, error: null },
  });
}
