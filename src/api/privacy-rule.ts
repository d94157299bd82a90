// The privacy rule in the API's words: the schemas cannot say that a password is required when
// privacy becomes 2 and none is set yet (sharing/privacy-change.ts decides it), so routes run
// this through withRules (rules.ts) and it answers in the same 422 as the schema's errors.
import type { PrivacyState } from '../model/privacy.js';
import { lacksPassword, type PrivacyChange } from '../sharing/privacy-change.js';
import type { FieldErrors } from '../http/errors.js';
import { addError } from '../http/rules.js';

export function passwordRule(valid: PrivacyChange, current: PrivacyState, errors: FieldErrors): void {
  if (errors.privacy || errors.password) return; // one of them already failed its own rules
  if (lacksPassword(valid, current)) addError(errors, 'password', 'The password field is required when privacy is 2.');
}
