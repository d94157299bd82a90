// The custom validation formats the schemas name, with Laravel-style messages.
import { registerFormat } from './validation.js';
import { normalizeDomain } from '../websites/domain.js';
import { normalizeIpList, normalizeParamList } from '../websites/exclusions.js';
import { normalizeTargetUrl } from '../analysis/analyze.js';
import { FetchError, fetchFailureMessage } from '../analysis/errors.js';

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

// A page address to analyse: a bare host gets https:// (contract); refused forms keep the
// engine's specific reason (credentials, length) where it has one.
registerFormat('http-url', (value, attr) => {
  try {
    return { value: normalizeTargetUrl(value).href };
  } catch (error) {
    const specific = error instanceof FetchError && error.message !== fetchFailureMessage('invalid_url');
    return { error: specific ? `The ${attr} is invalid: ${error.message}` : `The ${attr} must be a valid URL.` };
  }
});
