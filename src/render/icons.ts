// Small decorative icons. They always sit next to a word saying the same thing, so they are
// hidden from assistive technology and never carry meaning by colour alone.

import { html } from './html.js';

export const ICON_PASS = html`<svg viewBox="0 0 20 20" aria-hidden="true" focusable="false"><circle cx="10" cy="10" r="9" fill="currentColor"/><path class="icon-mark" d="M5.8 10.4l2.7 2.7 5.7-6" fill="none" stroke="#fff" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

export const ICON_FAIL = html`<svg viewBox="0 0 20 20" aria-hidden="true" focusable="false"><circle cx="10" cy="10" r="9" fill="currentColor"/><path class="icon-mark" d="M6.8 6.8l6.4 6.4m0-6.4l-6.4 6.4" fill="none" stroke="#fff" stroke-width="2.2" stroke-linecap="round"/></svg>`;

export const ICON_WARN = html`<svg viewBox="0 0 20 20" aria-hidden="true" focusable="false"><path d="M10 1.8l8.7 15.4H1.3z" fill="currentColor"/><path class="icon-mark" d="M10 7.5v4.5m0 2.6v.1" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round"/></svg>`;
