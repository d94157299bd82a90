// Account: the API key (rotated here and shown once) and the dashboard password (changing it
// signs out every session, then signs this browser in again).
import { issueKey } from '../../accounts/accounts.js';
import { MIN_PASSWORD_LENGTH } from '../../accounts/sessions.js';
import { html, type HtmlValue } from '../../render/html.js';
import { redirectWithNotice, sendAppPage, setSessionCookie, signedIn } from '../context.js';
import { csrfField, errorSummary, inputField, postButton, type FieldErrors } from '../render/forms.js';
import type { PageModule } from '../deps.js';
import { dashboardSchema } from '../route-schema.js';

function accountMain(email: string, csrf: string, options: { newKey?: string; errors?: FieldErrors } = {}): HtmlValue {
  return html`<div class="page-head"><h1>Account</h1></div>
<section class="card" aria-labelledby="key-title">
<h2 id="key-title">API key</h2>
${
  options.newKey
    ? html`<p><strong>Your new API key, shown only this once.</strong> Copy it now; the old key no longer works.</p>
<p><code class="secret" id="new-key">${options.newKey}</code></p>`
    : html`<p>The API key of <strong>${email}</strong> authenticates <code>/api/v1</code> requests (<code>Authorization: Bearer …</code>). Only its hash is stored, so it cannot be shown again: rotate it to get a new one. The old key stops working at once.</p>`
}
<div class="actions">${postButton('/app/account/key', 'Rotate the API key', csrf, { secondary: true })}</div>
</section>
<section class="card" aria-labelledby="password-title">
<h2 id="password-title">Password</h2>
<p>Changing the password signs out every other browser signed in to this account.</p>
${errorSummary(options.errors)}
<form method="post" action="/app/account/password">
${csrfField(csrf)}
<input type="hidden" name="username" value="${email}" autocomplete="username">
${inputField({ name: 'current_password', label: 'Current password', type: 'password', autocomplete: 'current-password', required: true, errors: options.errors })}
${inputField({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', required: true, errors: options.errors, hint: `At least ${MIN_PASSWORD_LENGTH} characters.` })}
${inputField({ name: 'password_confirmation', label: 'Confirm the new password', type: 'password', autocomplete: 'new-password', required: true, errors: options.errors })}
<button class="button" type="submit">Change password</button>
</form>
</section>`;
}

export const accountPages: PageModule = (app, deps) => {
  app.get('/account', { schema: dashboardSchema('Account: the API key and the password', 'page') }, async (request, reply) => {
    const { user, csrf } = signedIn(request);
    return sendAppPage(request, reply, { section: 'account', title: 'Account' }, accountMain(user.email, csrf));
  });

  app.post(
    '/account/key',
    { schema: dashboardSchema('Rotate the API key: the page again, showing the new key once', 'form', [200]) },
    async (request, reply) => {
      const { user, csrf } = signedIn(request);
      const key = await issueKey(deps.users, user.id);
      // Shown in this answer only (no redirect: the key must not sit in a cookie or a URL).
      return sendAppPage(
        request,
        reply,
        { section: 'account', title: 'Account' },
        accountMain(user.email, csrf, { newKey: key }),
      );
    },
  );

  app.post(
    '/account/password',
    {
      schema: dashboardSchema(
        'Change the password (current_password, password, password_confirmation): every session ends, this browser signs in again',
        'form',
      ),
    },
    async (request, reply) => {
      const { user, csrf } = signedIn(request);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');
      const refuse = (errors: FieldErrors) =>
        sendAppPage(
          request,
          reply,
          { section: 'account', title: 'Account', status: 422 },
          accountMain(user.email, csrf, { errors }),
        );
      if (text('password') !== text('password_confirmation')) {
        return refuse({ password: ['The password field confirmation does not match.'] });
      }
      const result = await deps.sessions.changePassword(user, text('current_password'), text('password'));
      if (!result.ok) return refuse({ [result.field]: [result.message] });
      setSessionCookie(request, reply, result.sessionId);
      return redirectWithNotice(reply, '/app/account', 'Password changed. Every other session was signed out.');
    },
  );
};
