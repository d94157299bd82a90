// `render` in the API's words: asking for it on an instance without Chromium is a 422 on the
// field, before any fetch (docs/rendering.md), for reports and monitors alike.
import { RENDER_NEEDS_CHROMIUM } from '../browser/renderer.js';
import type { FieldErrors } from '../http/errors.js';
import { addError } from '../http/rules.js';

/** Whether this instance can render (the Renderer; /health shows the same answer). */
export interface RenderAvailability {
  available(): boolean;
}

export function renderRule(wanted: boolean, renderer: RenderAvailability, errors: FieldErrors): void {
  if (wanted && !errors.render && !renderer.available()) addError(errors, 'render', RENDER_NEEDS_CHROMIUM);
}
