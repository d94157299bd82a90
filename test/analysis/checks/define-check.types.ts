// Compile-time checks of defineCheck (run by `npm run typecheck`, not by the test runner): a
// check with a piece missing, a run returning the wrong shape, or a view that cannot show its
// value does not compile.

import { Type } from '@sinclair/typebox';
import { defineCheck, fail } from '../../../src/analysis/checks/define-check.js';

const base = {
  name: 'title',
  position: 10,
  importance: 'high',
  title: 'Title tag',
  why: 'Why.',
  fix: 'Fix.',
  value: Type.Union([Type.String(), Type.Null()]),
  errors: { missing: Type.Null() },
  describe: () => null,
  view: { value: { kind: 'text' }, error: null },
} as const;

export const complete = defineCheck({ ...base, run: () => ({ value: 'x' }) });

// @ts-expect-error: no `fix`
export const noFix = defineCheck({ ...base, fix: undefined, run: () => ({ value: 'x' }) });

// @ts-expect-error: no `position` (the report's order)
export const noPosition = defineCheck({ ...base, position: undefined, run: () => ({ value: 'x' }) });

// @ts-expect-error: no `describe`
export const noDescribe = defineCheck({ ...base, describe: undefined, run: () => ({ value: 'x' }) });

// @ts-expect-error: a number is not the declared string-or-null value
export const wrongValue = defineCheck({ ...base, run: () => ({ value: 42 }) });

// @ts-expect-error: `too_many` is not one of its error keys
export const unknownKey = defineCheck({ ...base, run: () => ({ value: null, failure: fail('too_many', null) }) });

// @ts-expect-error: the payload of `missing` is null, not a list
export const wrongPayload = defineCheck({ ...base, run: () => ({ value: null, failure: fail('missing', ['x']) }) });

// @ts-expect-error: an outline shows grouped lists, not a string
export const wrongView = defineCheck({ ...base, view: { value: { kind: 'outline' }, error: null }, run: () => ({ value: 'x' }) });

// @ts-expect-error: the view is required
export const noView = defineCheck({ ...base, view: undefined, run: () => ({ value: 'x' }) });
