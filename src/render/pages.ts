// The small share pages: password form, not found, too many attempts. None is for search
// engines, so all carry noindex.

import { formatWait } from './format.js';
import { html } from './html.js';
import { ICON_WARN } from './icons.js';
import { renderDocument } from './layout.js';

export interface PasswordPageInput {
  kind: 'report' | 'website';
  /** Not shown: the page is the resource's own path, which already names it. */
  id: number;
  /** The message to show after a failed attempt, e.g. "Incorrect password.". */
  error?: string;
}

/** The password form; it posts field `password` back to the page's own path. */
export function renderPasswordPage({ kind, error }: PasswordPageInput): string {
  const what = kind === 'website' ? 'website' : 'report';
  const invalid = error !== undefined && error !== '';
  const main = html`<section class="card narrow" aria-labelledby="page-title">
<h1 id="page-title">Password required</h1>
<p>This ${what} is protected. Enter its password to view it.</p>
<form method="post">
<div class="form-field">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="128"${
    invalid ? html` aria-invalid="true" aria-describedby="password-error"` : ''
  }>
${invalid ? html`<p class="error" id="password-error" role="alert">${ICON_WARN}${error}</p>` : ''}
</div>
<button class="button" type="submit">View ${what}</button>
</form>
</section>`;
  return renderDocument(
    { title: `Password required · Rankscope`, description: `This ${what} is protected by a password.`, noindex: true },
    main,
  );
}

/** The same page for unknown and private reports and websites: it reveals nothing. */
export function renderNotFoundPage(): string {
  const main = html`<section class="card narrow" aria-labelledby="page-title">
<h1 id="page-title">Page not found</h1>
<p>This page does not exist, or it is not shared publicly.</p>
</section>`;
  return renderDocument(
    {
      title: 'Page not found · Rankscope',
      description: 'This page does not exist, or it is not shared publicly.',
      noindex: true,
    },
    main,
  );
}

/** After too many wrong passwords. */
export function renderTooManyAttemptsPage(retryAfterSeconds: number): string {
  const wait = formatWait(retryAfterSeconds);
  const main = html`<section class="card narrow" aria-labelledby="page-title">
<h1 id="page-title">Too many attempts</h1>
<p>Too many incorrect passwords were entered. Try again in ${wait}.</p>
</section>`;
  return renderDocument(
    { title: 'Too many attempts · Rankscope', description: `Too many attempts. Try again in ${wait}.`, noindex: true },
    main,
  );
}

/** Past the public pages' limit of requests a minute from one address. */
export function renderTooManyRequestsPage(retryAfterSeconds: number): string {
  const wait = formatWait(retryAfterSeconds);
  const main = html`<section class="card narrow" aria-labelledby="page-title">
<h1 id="page-title">Too many requests</h1>
<p>Too many pages were requested from your network in the last minute. Try again in ${wait}.</p>
</section>`;
  return renderDocument(
    { title: 'Too many requests · Rankscope', description: `Too many requests. Try again in ${wait}.`, noindex: true },
    main,
  );
}

/** A form posted from another site (cross-site request forgery is refused). */
export function renderForbiddenPage(): string {
  const main = html`<section class="card narrow" aria-labelledby="page-title">
<h1 id="page-title">Form refused</h1>
<p>This form was sent from another site, so it was not accepted. Open the page here and send it again.</p>
</section>`;
  return renderDocument(
    { title: 'Form refused · Rankscope', description: 'This form was sent from another site and was refused.', noindex: true },
    main,
  );
}
