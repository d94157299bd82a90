// The custom validation formats the schemas name, with Laravel-style messages.
import { registerFormat } from '../http/validation.js';
import { normalizeDomain } from '../websites/domain.js';
import { normalizeIpList, normalizeParamList } from '../websites/exclusions.js';
import { normalizeTargetUrl } from '../analysis/analyze.js';
import { FetchError, fetchFailureMessage } from '../analysis/errors.js';
import { parseTargetUrl } from '../webhooks/target.js';
import { isIssueType } from '../crawl/issues/catalogue.js';

registerFormat('domain', (value, attr) => {
  const domain = normalizeDomain(value);
  return domain ? { value: domain } : { error: `The ${attr} must be a valid domain name.` };
});

registerFormat('ip-list', (value, attr) => {
  const list = normalizeIpList(value);
  return list.ok
    ? { value: list.value }
    : { error: `The ${attr} field contains an invalid IP address or range: ${list.invalid}.` };
});

registerFormat('param-list', (value, attr) => {
  const list = normalizeParamList(value);
  return list.ok ? { value: list.value } : { error: `The ${attr} field contains an invalid parameter name: ${list.invalid}.` };
});

// Site-audit issue types, comma-separated (the issues list's `type` filter): each must be a type of
// the catalogue; given back trimmed, without repeats, joined by commas (nothing left: no filter).
registerFormat('issue-types', (value, attr) => {
  const types = [...new Set(value.split(',').map((entry) => entry.trim()))].filter((entry) => entry !== '');
  const invalid = types.find((type) => !isIssueType(type));
  if (invalid !== undefined) return { error: `The ${attr} field contains an unknown issue type: ${invalid}.` };
  return { value: types.length > 0 ? types.join(',') : null };
});

// A page address to analyse: a bare host gets https:// (docs/api.md#reports); refused forms keep the
// engine's specific reason (credentials, length) where it has one.
registerFormat('http-url', (value, attr) => {
  try {
    return { value: normalizeTargetUrl(value).href };
  } catch (error) {
    const specific = error instanceof FetchError && error.message !== fetchFailureMessage('invalid_url');
    return { error: specific ? `The ${attr} is invalid: ${error.message}` : `The ${attr} must be a valid URL.` };
  }
});

// A webhook's target: an absolute http(s) URL as given (no scheme is assumed for a bare host).
registerFormat('webhook-url', (value, attr) => parseTargetUrl(value, attr));

// A calendar day, YYYY-MM-DD: Laravel's date_format:Y-m-d, which also refuses days the calendar
// lacks (2026-02-30), since PHP's parse of them would not format back to the same text.
registerFormat('date', (value, attr) =>
  isCalendarDay(value) ? { value } : { error: `The ${attr} does not match the format Y-m-d.` },
);

/** `YYYY-MM-DD` naming a day that exists (proleptic Gregorian, years 0000–9999). */
export function isCalendarDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= days;
}
