import { Type } from '@sinclair/typebox';
import { quote } from '../wording.js';
import { defineCheck, fail } from './define-check.js';

/** A non-blank `lang` on `<html>`, kept as written (§5.2). */
export const language = defineCheck({
  name: 'language',
  position: 180,
  importance: 'medium',
  title: 'Language',
  why: 'The declared language lets search engines serve the page to the right audience and screen readers pronounce it correctly.',
  fix: 'Add a lang attribute to the <html> element, for example <html lang="en">.',
  value: Type.Union([Type.String(), Type.Null()]),
  errors: { missing: Type.Null() },

  run({ artifacts }) {
    const lang = artifacts.document.lang?.trim() ?? '';
    return lang === '' ? { value: null, failure: fail('missing', null) } : { value: lang };
  },

  describe({ passed, value, failure }) {
    if (failure?.key === 'missing') return 'No lang attribute on the html element.';
    return passed && typeof value === 'string' ? `Language declared as ${quote(value, 35)}.` : null;
  },

  view: { value: { kind: 'text' }, error: null },
});
