// Laravel-style validation over TypeBox schemas. The schemas are the single description of each
// endpoint's parameters (types, OpenAPI); this module applies them with Laravel's semantics,
// which JSON Schema validators do not give: form values are strings ("1" is an integer,
// "1.0" is not), a failed `required` stops that field, messages use Laravel's wording and
// follow the order of the fields, and every field is reported at once. validator.ts plugs it
// into Fastify.
import type { TObject, TSchema } from '@sinclair/typebox';
import { hasUnstorableText } from '../model/text.js';
import type { FieldErrors } from './errors.js';
import type { Input, RawValue } from './input.js';

/** Custom `format`s: checks a value and returns its normalised form, or the error message. */
export type FormatCheck = (value: string, attribute: string) => { value: string | null } | { error: string };
const formats = new Map<string, FormatCheck>();

export function registerFormat(name: string, check: FormatCheck): void {
  formats.set(name, check);
}

/**
 * Marks a field whose text is never stored as text (a password: only its hash is), so it may
 * hold characters a database cannot store. A symbol, so it never reaches the OpenAPI document.
 */
export const NOT_STORED_AS_TEXT = Symbol('rankscope.notStoredAsText');

/** Whether a value (a string, or one inside a list or object) holds text no database may be asked to store. */
function holdsUnstorableText(value: RawValue): boolean {
  if (typeof value === 'string') return hasUnstorableText(value);
  if (Array.isArray(value)) return value.some(holdsUnstorableText);
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsUnstorableText);
  return false;
}

export interface CheckOptions {
  /**
   * The input is stored (a write's body): a field holding text a database cannot store (a NUL)
   * is refused with a 422 on that field, on every engine alike. Filters (query strings) are not
   * refused: such a term matches nothing (model/text.ts).
   */
  stored?: boolean;
}

/** `per_page` → "per page", as Laravel's getDisplayableAttribute does. */
export const attributeName = (field: string) => field.replace(/_/g, ' ');

const DIGITS = /^[0-9]+$/;

/**
 * Valid fields: numbers for integer fields, booleans for boolean ones, strings otherwise (a
 * format's normal form); null when sent empty; absent when not sent. A field without a type
 * (`page`) keeps whatever was sent.
 */
export type Validated = Record<string, RawValue>;

function checkField(
  field: string,
  schema: TSchema,
  value: RawValue,
): { errors: string[]; value?: string | number | boolean | null } {
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
    if (schema.maximum !== undefined && n > schema.maximum)
      errors.push(`The ${attr} must not be greater than ${schema.maximum}.`);
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
  values: Validated;
  /** Field → messages, fields in the schema's order (Laravel's rule order). */
  errors: FieldErrors;
}

/** The schema as a check of one input: every error collected, unknown input keys dropped. */
export function compileCheck(schema: TObject, options: CheckOptions = {}): (input: Input) => ValidationResult {
  const fields = Object.entries(schema.properties);
  const required = new Set(schema.required ?? []);
  for (const [, fieldSchema] of fields) {
    if (typeof fieldSchema.format === 'string' && !formats.has(fieldSchema.format)) {
      throw new Error(`no validator registered for format "${fieldSchema.format}"`);
    }
  }
  return (input) => {
    const values: Validated = {};
    const errors: FieldErrors = {};
    for (const [field, fieldSchema] of fields) {
      const present = Object.hasOwn(input, field);
      if (
        options.stored &&
        present &&
        !(NOT_STORED_AS_TEXT in fieldSchema) &&
        input[field] !== null &&
        holdsUnstorableText(input[field])
      ) {
        errors[field] = [`The ${attributeName(field)} must not contain a NUL character.`];
        continue;
      }
      if (fieldSchema.type === undefined) {
        if (present) values[field] = input[field]; // any value (`page`): its reader decides
        continue;
      }
      const value = present ? input[field] : undefined;
      if (value === null || value === undefined) {
        if (required.has(field)) errors[field] = [`The ${attributeName(field)} field is required.`];
        else if (present) values[field] = null;
        continue;
      }
      const outcome = checkField(field, fieldSchema, value);
      if (outcome.errors.length) errors[field] = outcome.errors;
      else values[field] = outcome.value ?? null;
    }
    return { values, errors };
  };
}

/** Applies `schema` to `input` once (validator.ts compiles it once per route instead). */
export function check(schema: TObject, input: Input, options: CheckOptions = {}): ValidationResult {
  return compileCheck(schema, options)(input);
}

/** `errors` with its fields in `order` (a schema's fields), messages of each field kept in order. */
export function inFieldOrder(errors: FieldErrors, order: readonly string[]): FieldErrors {
  const rank = (f: string) => (order.includes(f) ? order.indexOf(f) : order.length);
  const ordered: FieldErrors = {};
  for (const f of Object.keys(errors).sort((a, b) => rank(a) - rank(b))) ordered[f] = errors[f];
  return ordered;
}
