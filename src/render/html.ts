// Escaping for the share pages. Every value shown there comes from an arbitrary web page, so
// markup is built only through the `html` template tag, which escapes each interpolated value
// unless it is already SafeHtml (built by this tag). Attributes are always double-quoted.

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '\0': '\uFFFD' };

/** Escapes text for use in element content and in double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'\0]/g, (c) => ESCAPES[c]);
}

function serialise(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(serialise).join('');
  return escapeHtml(String(value));
}

/** Template tag: literal parts are trusted markup, interpolated values are escaped. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += serialise(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/**
 * The URL to put in an href, or null when it must be shown as text only: absolute http(s)
 * URLs qualify (`javascript:`, `data:` and relative URLs do not). Returns the parsed,
 * normalised form, so it holds no whitespace or control characters.
 */
export function safeHref(url: unknown): string | null {
  if (typeof url !== 'string' || url.length > 4096) return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
}
