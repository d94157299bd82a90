import { defineCheck, fail } from './check.js';

/** A non-blank `lang` on `<html>`, kept as written (§5.2). */
export const language = defineCheck('language', 'medium', ({ artifacts }) => {
  const lang = artifacts.htmlLang?.trim() ?? '';
  return lang === '' ? { value: null, failure: fail('missing') } : { value: lang };
});
