// Laravel-style validation over TypeBox schemas. The schemas are the single description of each
// endpoint's parameters (types, OpenAPI); this module applies them with Laravel's semantics,
// which JSON Schema validators do not give: form values are strings ("1" is an integer,
// "1.0" is not), a failed `required` stops that field, messages use Laravel's wording and
// follow the order of the fields, and every field is reported at once.
import type { TObject, TSchema } from '@sinclair/typebox';
import { ValidationError, type FieldErrors } from './errors.js';
import type { Input, RawValue } from './input.js';

/** Custom `format`s: checks a value and returns its normalised form, or the error message. */
export type FormatCheck = (value: string, attribute: string) => { value: string | null } | { error: string };
const formats = new Map<string, FormatCheck>();

export function registerFormat(name: string, check: FormatCheck): void {
  formats.set(name, check);
}

/** `per_page` → "per page", as Laravel's getDisplayableAttribute does. */
export const attributeName = (field: string) => field.replace(/_/g, ' ');

const DIGITS = /^[0-9]+$/;

export type Validated = Record<string, string | number | boolean | null | undefined>;

function checkField(field: string, schema: TSchema, value: RawValue): { errors: string[]; value?: string | number | boolean | null } {
  const attr = attributeName(field);
  const type = schema.type as string | undefined;

  if (type === 'boolean') {
    // Laravel's `boolean`: true, false, 1, 0, "1", "0"
    if (value === true || value === '1') return { errors: [], value: true };
    if (value === false || value === '0') return { errors: [], value: false };
    return { errors: [`The ${attr} field must be true or false.`] };
  }

  if (type === 'integer') {
    if (typeof value !== 'string' || !DIGITS.test(value) || !Number.isSafeInteger(Number(value))) {
      const errors = [`The ${attr} must be an integer.`];
      if (schema.enum) errors.push(`The selected ${attr} is invalid.`);
      return { errors };
    }
    const n = Number(value);
    const errors: string[] = [];
    if (schema.enum && !(schema.enum as number[]).includes(n)) errors.push(`The selected ${attr} is invalid.`);
    if (schema.minimum !== undefined && n < schema.minimum) errors.push(`The ${attr} must be at least ${schema.minimum}.`);
    if (schema.maximum !== undefined && n > schema.maximum) errors.push(`The ${attr} must not be greater than ${schema.maximum}.`);
    return errors.length ? { errors } : { errors, value: n };
  }

  if (typeof value !== 'string') {
    return { errors: [schema.enum ? `The selected ${attr} is invalid.` : `The ${attr} must be a string.`] };
  }
  const errors: string[] = [];
  if (schema.enum && !(schema.enum as string[]).includes(value)) errors.push(`The selected ${attr} is invalid.`);
  const length = [...value].length; // Laravel's mb_strlen counts code points
  if (schema.minLength !== undefined && length < schema.minLength) {
    errors.push(`The ${attr} must be at least ${schema.minLength} characters.`);
  }
  if (schema.maxLength !== undefined && length > schema.maxLength) {
    errors.push(`The ${attr} must not be greater than ${schema.maxLength} characters.`);
  }
  if (errors.length === 0 && typeof schema.format === 'string') {
    const check = formats.get(schema.format);
    if (!check) throw new Error(`no validator registered for format "${schema.format}"`);
    const outcome = check(value, attr);
    if ('error' in outcome) return { errors: [outcome.error] };
    return { errors, value: outcome.value };
  }
  return errors.length ? { errors } : { errors, value };
}

export interface ValidationResult {
  /** Valid fields: numbers for integer fields, strings otherwise; null when sent empty; absent when not sent. */
  values: Validated;
  errors: FieldErrors;
}

/** Applies `schema` to `input` and collects every error; unknown input keys are ignored. */
export function check(schema: TObject, input: Input): ValidationResult {
  const values: Validated = {};
  const errors: FieldErrors = {};
  const required = new Set(schema.required ?? []);
  for (const [field, fieldSchema] of Object.entries(schema.properties)) {
    const present = Object.hasOwn(input, field);
    const value = present ? input[field] : undefined;
    if (value === null || value === undefined) {
      if (required.has(field)) errors[field] = [`The ${attributeName(field)} field is required.`];
      else if (present) values[field] = null;
      continue;
    }
    const outcome = checkField(field, fieldSchema, value);
    if (outcome.errors.length) errors[field] = outcome.errors;
    else values[field] = outcome.value;
  }
  return { values, errors };
}

/** `check`, throwing the 422 when anything failed. */
export function validate(schema: TObject, input: Input): Validated {
  const { values, errors } = check(schema, input);
  throwIfAny(errors, schema);
  return values;
}

/** Throws the 422 when there are errors, fields in the schema's order (Laravel's rule order). */
export function throwIfAny(errors: FieldErrors, schema?: TObject): void {
  const fields = Object.keys(errors);
  if (fields.length === 0) return;
  if (!schema) throw new ValidationError(errors);
  const order = Object.keys(schema.properties);
  const rank = (f: string) => (order.includes(f) ? order.indexOf(f) : order.length);
  const ordered: FieldErrors = {};
  for (const f of fields.sort((a, b) => rank(a) - rank(b))) ordered[f] = errors[f];
  throw new ValidationError(ordered);
}

/** Adds a message to a field (throwIfAny puts fields back in schema order). */
export function addError(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}
