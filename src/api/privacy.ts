// The privacy/password rule shared by reports and websites (contract.md "Privacy and passwords"):
// a password is required when privacy becomes 2 and none is set yet, used only with privacy 2,
// and cleared when privacy leaves 2.
import type { FieldErrors } from './errors.js';
import { addError } from './validation.js';
import { hashPassword } from '../accounts/passwords.js';

export interface PrivacyInput {
  privacy?: number | null;
  password?: string | null;
}

export interface PrivacyState {
  privacy: number;
  password_hash: string | null;
}

export type PrivacyPlan = { privacy: number; password: 'keep' | 'clear' | { set: string } };

/** Decides the change (adding the error when a password is needed), without hashing yet. */
export function planPrivacy(input: PrivacyInput, current: PrivacyState, errors: FieldErrors): PrivacyPlan | null {
  const privacy = input.privacy ?? current.privacy;
  if (privacy !== 2) return { privacy, password: 'clear' };
  if (typeof input.password === 'string') return { privacy, password: { set: input.password } };
  if (current.privacy === 2 && current.password_hash !== null) return { privacy, password: 'keep' };
  addError(errors, 'password', 'The password field is required when privacy is 2.');
  return null;
}

/** Carries the plan out once the whole request is valid (argon2 is deliberately slow). */
export async function applyPrivacy(plan: PrivacyPlan, current: PrivacyState): Promise<PrivacyState> {
  if (plan.password === 'keep') return { privacy: plan.privacy, password_hash: current.password_hash };
  if (plan.password === 'clear') return { privacy: plan.privacy, password_hash: null };
  return { privacy: plan.privacy, password_hash: await hashPassword(plan.password.set) };
}
