// The dashboard's one script, served at /assets/app.js to the pages that ask for it. Pages work
// without it; it only adds live progress: an element with data-poll="<url>" is refreshed from
// that URL's JSON every 2 s while its `status` is queued or running ([data-field] children get
// the fields of the same name), and reloads the page once it has ended.
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
})();
`;

export const APP_SCRIPT_TAG = `"${createHash('sha256').update(APP_SCRIPT).digest('base64url').slice(0, 16)}"`;
