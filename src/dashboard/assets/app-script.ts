// The dashboard's one script, served at /assets/app.js (every page loads it, deferred). Pages
// work without it; it only adds:
// - live progress: an element with data-poll="<url>" is refreshed from that URL's JSON every
//   2 s while its `status` is queued or running ([data-field] children get the fields of the
//   same name), and the page reloads once the status has changed from data-status;
// - a copy button after each [data-copy] element (the tracking snippet), announcing the result;
// - a busy state on forms with data-busy="<text>": while the slow request runs (an analysis),
//   the submit button says so and cannot be pressed twice.
import { createHash } from 'node:crypto';

export const APP_SCRIPT = `(() => {
  'use strict';
  for (const el of document.querySelectorAll('[data-poll]')) {
    const url = el.getAttribute('data-poll');
    const tick = async () => {
      try {
        const res = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
        if (!res.ok) return;
        const data = await res.json();
        for (const field of el.querySelectorAll('[data-field]')) {
          const value = data[field.getAttribute('data-field')];
          if (value !== undefined && value !== null) field.textContent = String(value);
        }
        if (data.status === 'queued' || data.status === 'running') setTimeout(tick, 2000);
        else if (el.getAttribute('data-status') !== data.status) location.reload();
      } catch {
        setTimeout(tick, 5000);
      }
    };
    setTimeout(tick, 2000);
  }
  for (const source of document.querySelectorAll('[data-copy]')) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'button secondary';
    button.textContent = 'Copy ' + source.getAttribute('data-copy');
    const status = document.createElement('span');
    status.className = 'copy-status';
    status.setAttribute('role', 'status');
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(source.textContent);
        status.textContent = 'Copied.';
      } catch {
        const range = document.createRange();
        range.selectNodeContents(source);
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        status.textContent = 'Selected: press Ctrl+C (or ⌘C) to copy.';
      }
    });
    source.after(button, status);
  }
  for (const form of document.querySelectorAll('form[data-busy]')) {
    form.addEventListener('submit', () => {
      const button = form.querySelector('button[type="submit"]');
      if (!button) return;
      form.setAttribute('aria-busy', 'true');
      button.textContent = form.getAttribute('data-busy');
      setTimeout(() => { button.disabled = true; }, 0);
    });
  }
})();
`;

export const APP_SCRIPT_TAG = `"${createHash('sha256').update(APP_SCRIPT).digest('base64url').slice(0, 16)}"`;
