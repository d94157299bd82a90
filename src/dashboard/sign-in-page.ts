// The sign-in page (not under /app: it is the one page without a session).
import { html } from '../render/html.js';
import { ICON_WARN } from '../render/icons.js';
import { renderAppDocument } from './render/layout.js';

export function renderSignInPage(input: { email?: string; error?: string; next?: string }): string {
  const invalid = input.error !== undefined;
  const main = html`<section class="card narrow" aria-labelledby="page-title">
<h1 id="page-title">Sign in</h1>
<p>Sign in to your Rankscope account.</p>
${invalid ? html`<p class="error" id="signin-error" role="alert">${ICON_WARN}${input.error}</p>` : ''}
<form method="post" action="/login"${invalid ? html` aria-describedby="signin-error"` : ''}>
${input.next ? html`<input type="hidden" name="next" value="${input.next}">` : ''}
<div class="form-field"><label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required maxlength="255" value="${input.email ?? ''}"${
    invalid ? html` aria-invalid="true"` : ''
  }></div>
<div class="form-field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required maxlength="800"${
    invalid ? html` aria-invalid="true"` : ''
  }></div>
<button class="button" type="submit">Sign in</button>
</form>
<p class="muted">No password yet? The first start prints one for the first account; otherwise run <code>npx rankscope users password &lt;email&gt;</code>.</p>
</section>`;
  return renderAppDocument({ title: 'Sign in' }, main);
}
