// Form controls with their labels and inline messages: every control has a <label>, and a
// field the server refused carries aria-invalid and points at its message (aria-describedby).
import { html, type HtmlValue, type SafeHtml } from '../../render/html.js';
import { ICON_WARN } from '../../render/icons.js';

/** The API's 422 `errors`: field → messages. */
export type FieldErrors = Record<string, string[] | undefined>;

export const csrfField = (token: string) => html`<input type="hidden" name="_token" value="${token}">`;

interface FieldBase {
  name: string;
  label: string;
  errors?: FieldErrors;
  hint?: string;
  required?: boolean;
  /** The id, when the same name appears twice on a page. */
  id?: string;
}

function describe(base: FieldBase): { id: string; attrs: SafeHtml; below: SafeHtml } {
  const id = base.id ?? `f-${base.name}`;
  const messages = base.errors?.[base.name] ?? [];
  const ids = [base.hint ? `${id}-hint` : '', messages.length ? `${id}-error` : ''].filter(Boolean).join(' ');
  const attrs = html`${messages.length ? html` aria-invalid="true"` : ''}${ids ? html` aria-describedby="${ids}"` : ''}${
    base.required ? html` required` : ''
  }`;
  const below = html`${base.hint ? html`<p class="hint" id="${id}-hint">${base.hint}</p>` : ''}${
    messages.length ? html`<p class="error" id="${id}-error">${ICON_WARN}${messages.join(' ')}</p>` : ''
  }`;
  return { id, attrs, below };
}

export interface InputField extends FieldBase {
  type?: 'text' | 'url' | 'email' | 'password' | 'number' | 'search' | 'date';
  value?: string | number | null;
  autocomplete?: string;
  placeholder?: string;
  min?: number;
  max?: number;
  maxlength?: number;
}

export function inputField(field: InputField): SafeHtml {
  const { id, attrs, below } = describe(field);
  const value = field.type === 'password' ? '' : (field.value ?? '');
  return html`<div class="form-field"><label for="${id}">${field.label}</label><input id="${id}" name="${field.name}" type="${
    field.type ?? 'text'
  }" value="${value}"${field.autocomplete ? html` autocomplete="${field.autocomplete}"` : ''}${
    field.placeholder ? html` placeholder="${field.placeholder}"` : ''
  }${field.min !== undefined ? html` min="${field.min}"` : ''}${field.max !== undefined ? html` max="${field.max}"` : ''}${
    field.maxlength !== undefined ? html` maxlength="${field.maxlength}"` : ''
  }${attrs}>${below}</div>`;
}

export interface TextareaField extends FieldBase {
  value?: string | null;
  rows?: number;
}

export function textareaField(field: TextareaField): SafeHtml {
  const { id, attrs, below } = describe(field);
  return html`<div class="form-field"><label for="${id}">${field.label}</label><textarea id="${id}" name="${field.name}" rows="${
    field.rows ?? 4
  }"${attrs}>${field.value ?? ''}</textarea>${below}</div>`;
}

export interface SelectField extends FieldBase {
  options: ReadonlyArray<{ value: string; label: string }>;
  value?: string | number | null;
}

export function selectField(field: SelectField): SafeHtml {
  const { id, attrs, below } = describe(field);
  const current = field.value === null || field.value === undefined ? '' : String(field.value);
  return html`<div class="form-field"><label for="${id}">${field.label}</label><select id="${id}" name="${field.name}"${attrs}>${field.options.map(
    (o) => html`<option value="${o.value}"${o.value === current ? html` selected` : ''}>${o.label}</option>`,
  )}</select>${below}</div>`;
}

/** A yes/no setting sent as 0/1 (the hidden 0 comes first, so an unchecked box still sends it). */
export function checkboxField(field: FieldBase & { checked: boolean }): SafeHtml {
  const { id, attrs, below } = describe(field);
  return html`<div class="check-field"><input type="hidden" name="${field.name}" value="0"><input id="${id}" type="checkbox" name="${
    field.name
  }" value="1"${field.checked ? html` checked` : ''}${attrs}><label for="${id}">${field.label}</label></div>${below}`;
}

/** A list of every message at the top of a refused form, so none is missed. */
export function errorSummary(errors: FieldErrors | undefined, message = 'The form has errors:'): HtmlValue {
  const all = Object.values(errors ?? {}).flatMap((m) => m ?? []);
  if (all.length === 0) return '';
  return html`<div class="error-summary" role="alert"><h2>${message}</h2><ul>${all.map((m) => html`<li>${m}</li>`)}</ul></div>`;
}

/** A button that posts (delete, re-run, rotate): a small form with the session's token. */
export function postButton(
  action: string,
  label: string,
  csrf: string,
  options: { danger?: boolean; secondary?: boolean } = {},
): SafeHtml {
  const cls = options.danger ? 'button danger' : options.secondary ? 'button secondary' : 'button';
  return html`<form method="post" action="${action}">${csrfField(csrf)}<button class="${cls}" type="submit">${label}</button></form>`;
}
