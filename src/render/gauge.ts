// The score as a ring gauge (inline SVG, styled by its band class from the stylesheet).

import type { Band } from '../analysis/score.js';
import { html, type SafeHtml } from './html.js';
import { ICON_FAIL, ICON_PASS, ICON_WARN } from './icons.js';

export const BAND_WORDS: Record<Band, string> = { good: 'Good', decent: 'Decent', bad: 'Poor' };

/** Shown beside the band word, so the band never depends on colour alone. */
export const BAND_ICONS: Record<Band, SafeHtml> = { good: ICON_PASS, decent: ICON_WARN, bad: ICON_FAIL };

const RADIUS = 52;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/** `score` null means the stored score is unreadable: an empty ring with a dash. */
export function renderGauge(score: number | null, band: Band): SafeHtml {
  const arc = ((score ?? 0) / 100) * CIRCUMFERENCE;
  const label = score === null ? 'Score unavailable' : `Score: ${score} out of 100, ${BAND_WORDS[band].toLowerCase()}`;
  return html`<svg class="gauge band-${band}" viewBox="0 0 120 120" role="img" aria-label="${label}">
<circle class="gauge-track" cx="60" cy="60" r="${RADIUS}" fill="none" stroke-width="12"/>
<circle class="gauge-arc" cx="60" cy="60" r="${RADIUS}" fill="none" stroke-width="12" stroke-dasharray="${arc.toFixed(2)} ${CIRCUMFERENCE.toFixed(2)}" transform="rotate(-90 60 60)"/>
<text class="gauge-score" x="60" y="64" text-anchor="middle">${score ?? '–'}</text>
<text class="gauge-max" x="60" y="84" text-anchor="middle">/ 100</text>
</svg>`;
}
