// The one stylesheet of the share pages, served at /assets/rankscope.css. The pages run under a
// CSP without inline styles, so every visual rule lives here. Colours are chosen for WCAG AA
// (4.5:1) text contrast in both schemes: band colours on white and on their tinted badges.

import { APP_STYLES } from './app-styles.js';

export const STYLESHEET = `
:root {
  color-scheme: light dark;
  --bg: #f6f7f9;
  --surface: #ffffff;
  --subtle: #f0f2f4;
  --text: #1f2328;
  --muted: #59636e;
  --border: #d9dee3;
  --field: #6b7480;
  --link: #0b57d0;
  --on-link: #ffffff;
  --good: #137333;
  --good-bg: #e7f4ea;
  --decent: #9a4a00;
  --decent-bg: #fdf0e1;
  --bad: #b3261e;
  --bad-bg: #fce8e6;
  --track: #e3e7eb;
  --series-2: #b35900;
  --radius: 0.5rem;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}

@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0f1419;
    --surface: #171c22;
    --subtle: #222931;
    --text: #e6edf3;
    --muted: #9aa4ae;
    --border: #2d343c;
    --field: #8a949e;
    --link: #8ab4f8;
    --on-link: #0f1419;
    --good: #5cc98a;
    --good-bg: #12301f;
    --decent: #f0b14a;
    --decent-bg: #3a2a0e;
    --bad: #ff8a80;
    --bad-bg: #3d1614;
    --track: #2d343c;
    --series-2: #f0a35e;
  }
}

*, *::before, *::after { box-sizing: border-box; }

html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }

body {
  margin: 0;
  min-height: 100vh;
  display: flex;
  flex-direction: column;
  background: var(--bg);
  color: var(--text);
  font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}

a { color: var(--link); text-underline-offset: 0.15em; }
a:hover { text-decoration-thickness: 2px; }

:focus-visible { outline: 3px solid var(--link); outline-offset: 2px; border-radius: 2px; }

h1, h2, h3, h4 { line-height: 1.25; margin: 0; }
h1 { font-size: clamp(1.375rem, 1.1rem + 1.2vw, 1.75rem); overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; }
h3 { font-size: 1.0625rem; }
h4 { font-size: 0.9375rem; }

p { margin: 0.5rem 0; }

code {
  font-family: var(--mono);
  font-size: 0.875em;
  background: var(--subtle);
  padding: 0.05rem 0.3rem;
  border-radius: 0.25rem;
  overflow-wrap: anywhere;
}

.wrap { max-width: 60rem; margin: 0 auto; padding: 0 1rem; }

.visually-hidden {
  position: absolute !important;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
}

.muted { color: var(--muted); }
.url { overflow-wrap: anywhere; }

/* Header and footer */

.site-header { background: var(--surface); border-bottom: 1px solid var(--border); }
.site-header .wrap { display: flex; align-items: center; min-height: 3.5rem; }
.brand { display: inline-flex; align-items: center; gap: 0.5rem; font-weight: 700; font-size: 1.125rem; }
.brand svg { width: 1.75rem; height: 1.75rem; flex: none; }
.brand-arc { stroke: var(--link); }
.brand-track { stroke: var(--track); }

main { display: block; flex: 1 0 auto; padding: 1.5rem 0 3rem; overflow-wrap: break-word; }

.site-footer { border-top: 1px solid var(--border); color: var(--muted); font-size: 0.875rem; }
.site-footer .wrap { padding-top: 1rem; padding-bottom: 1.5rem; }

/* Cards and sections */

.card {
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: var(--radius);
  padding: 1rem 1.25rem;
  margin: 0 0 1rem;
}

.eyebrow { margin: 0 0 0.25rem; color: var(--muted); font-size: 0.875rem; font-weight: 600; letter-spacing: 0.04em; text-transform: uppercase; }
.page-meta { color: var(--muted); margin: 0.5rem 0 0; }
.page-meta a { overflow-wrap: anywhere; }

section + section { margin-top: 2rem; }
.section-head { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: 0.25rem 1rem; margin: 0 0 0.75rem; }
.section-head p { margin: 0; color: var(--muted); }

/* Score */

.band-good { --band: var(--good); --band-bg: var(--good-bg); }
.band-decent { --band: var(--decent); --band-bg: var(--decent-bg); }
.band-bad { --band: var(--bad); --band-bg: var(--bad-bg); }

.score-card { display: grid; grid-template-columns: auto 1fr; gap: 1rem 1.5rem; align-items: center; }
.gauge { width: 8.5rem; height: 8.5rem; display: block; }
.gauge-track { stroke: var(--track); }
.gauge-arc { stroke: var(--band); }
.gauge-score { fill: var(--text); font-size: 30px; font-weight: 700; }
.gauge-max { fill: var(--muted); font-size: 12px; }
.score-summary p { margin: 0.35rem 0; }

.badge {
  display: inline-flex;
  align-items: center;
  gap: 0.35rem;
  padding: 0.1rem 0.65rem;
  border-radius: 999px;
  background: var(--band-bg);
  color: var(--band);
  font-weight: 600;
  white-space: nowrap;
}
.badge svg { width: 0.875em; height: 0.875em; flex: none; }
/* The mark inside an icon takes the colour behind it, so it stays visible in both schemes. */
.icon-mark { stroke: var(--surface); }
.badge .icon-mark { stroke: var(--band-bg); }

.counts { border-collapse: collapse; margin-top: 0.5rem; font-size: 0.9375rem; }
.counts th, .counts td { padding: 0.3rem 0.75rem 0.3rem 0; text-align: left; border-bottom: 1px solid var(--border); }
.counts td { font-variant-numeric: tabular-nums; }
.counts thead th { color: var(--muted); font-weight: 600; font-size: 0.875rem; }

/* Checks */

.check-pass { --band: var(--good); }
.check-fail { --band: var(--bad); }
.checks { list-style: none; margin: 0; padding: 0; }
.check {
  background: var(--surface);
  border: 1px solid var(--border);
  border-left: 4px solid var(--band);
  border-radius: var(--radius);
  padding: 0.875rem 1.125rem;
  margin: 0 0 0.75rem;
}
.check-head { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: 0.25rem 1rem; }
.check-found { margin: 0.35rem 0 0; overflow-wrap: anywhere; }
.check-why { color: var(--muted); font-size: 0.9375rem; }
.check-fix { background: var(--subtle); border-radius: 0.375rem; padding: 0.5rem 0.75rem; margin: 0.6rem 0 0; }
.check-fix strong { font-weight: 600; }
.check-value { margin-top: 0.6rem; overflow-wrap: anywhere; }

.status { display: inline-flex; align-items: center; gap: 0.3rem; font-weight: 600; font-size: 0.9375rem; color: var(--band); white-space: nowrap; }
.status svg { width: 1.05em; height: 1.05em; flex: none; }

/* Values */

.value-group + .value-group { margin-top: 0.75rem; }
.value-group h4 { margin: 0 0 0.25rem; color: var(--muted); font-weight: 600; }
.value-text { margin: 0; padding: 0.4rem 0.75rem; border-left: 3px solid var(--border); overflow-wrap: anywhere; white-space: pre-line; }

.items { list-style: none; margin: 0; padding: 0; }
.items > li { padding: 0.3rem 0; border-top: 1px solid var(--border); overflow-wrap: anywhere; }
.items > li:first-child { border-top: 0; }
.items + details > .items > li:first-child { border-top: 1px solid var(--border); }
.item-text { display: block; }
.item-url { display: block; font-size: 0.875rem; color: var(--muted); }
.item-url a { display: inline-block; padding: 0.125rem 0; }

.chips { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.4rem; }
.chips > li { background: var(--subtle); border-radius: 999px; padding: 0.1rem 0.65rem; overflow-wrap: anywhere; }

.outline { list-style: none; margin: 0; padding: 0; }
.outline > li { padding: 0.2rem 0; overflow-wrap: anywhere; }
.outline > li > span { display: block; }
.outline .level-2 { padding-left: 1.25rem; }
.outline .level-3 { padding-left: 2.5rem; }
.outline .level-4 { padding-left: 3.75rem; }
.outline .level-5, .outline .level-6 { padding-left: 5rem; }
.tag { display: inline-block; min-width: 2rem; margin-right: 0.4rem; color: var(--muted); font-family: var(--mono); font-size: 0.8125rem; font-weight: 600; }

.props { display: grid; grid-template-columns: fit-content(14rem) minmax(0, 1fr); gap: 0.2rem 1rem; margin: 0; }
.props > dt { color: var(--muted); font-weight: 600; overflow-wrap: anywhere; }
.props > dd { margin: 0; overflow-wrap: anywhere; min-width: 0; }
.props .props { margin-top: 0.15rem; padding-left: 0.75rem; border-left: 2px solid var(--border); }
.items .url { font-size: 0.9375rem; }

details { margin: 0.25rem 0 0; }
summary { cursor: pointer; color: var(--link); padding: 0.3rem 0; min-height: 1.5rem; }
summary:hover { text-decoration: underline; }

/* Website page */

.data-table { width: 100%; border-collapse: collapse; font-size: 0.9375rem; }
.data-table th, .data-table td { text-align: left; vertical-align: top; padding: 0.5rem 0.75rem 0.5rem 0; border-bottom: 1px solid var(--border); }
.data-table thead th { color: var(--muted); font-size: 0.875rem; font-weight: 600; }
.data-table td:first-child { overflow-wrap: anywhere; }
.data-table .num, .data-table time { white-space: nowrap; font-variant-numeric: tabular-nums; }
.data-table a { display: inline-block; padding: 0.125rem 0; }

.chart svg { display: block; width: 100%; height: auto; }
.chart-grid { stroke: var(--border); stroke-width: 1; }
.chart-label { fill: var(--muted); font-size: 12px; }
.chart-band-good { stroke: var(--good); }
.chart-band-decent { stroke: var(--decent); }
.chart-line { stroke: var(--link); stroke-width: 2.5; fill: none; stroke-linejoin: round; }
.chart-point { fill: var(--surface); stroke: var(--link); stroke-width: 2; }

.empty { text-align: center; padding: 2rem 1rem; color: var(--muted); }

/* Website traffic: range, totals, the two-series chart, top lists */

.range-form, .prop-form { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 0.75rem 1rem; margin: 0.5rem 0; }
.range-form .form-field, .prop-form .form-field { margin: 0; flex: 1 1 10rem; max-width: 14rem; }
.range-presets { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; margin: 0.5rem 0; padding: 0; }
.range-presets a { display: inline-block; padding: 0.25rem 0; }
.range-presets a[aria-current="page"] { color: var(--text); font-weight: 600; text-decoration: none; }
.notice { background: var(--decent-bg); color: var(--text); border-left: 4px solid var(--decent); border-radius: 0.375rem; padding: 0.5rem 0.75rem; }

.totals { display: flex; flex-wrap: wrap; gap: 0.5rem 2.5rem; margin: 1rem 0 0; }
.totals dt { color: var(--muted); font-size: 0.875rem; font-weight: 600; }
.totals dd { margin: 0; font-size: 1.75rem; font-weight: 700; font-variant-numeric: tabular-nums; }

.chart-series { fill: none; stroke-width: 2.5; stroke-linejoin: round; }
.chart-marker { fill: var(--surface); stroke-width: 2; }
.chart-pageviews { stroke: var(--link); }
.chart-visitors { stroke: var(--series-2); }
polyline.chart-visitors { stroke-dasharray: 6 4; }
.legend { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1.5rem; margin: 0.5rem 0 0; padding: 0; }
.legend li::before { content: ""; display: inline-block; width: 1.75rem; margin-right: 0.5rem; vertical-align: middle; border-top: 3px solid var(--link); }
.legend .legend-visitors::before { border-top: 3px dashed var(--series-2); }
.traffic-table .num, .top-table .num { text-align: right; padding-right: 0; }

.top-lists { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 20rem), 1fr)); gap: 1rem; margin: 2rem 0; }
.top-lists > .card { margin: 0; min-width: 0; }
.top-lists > section + section { margin-top: 0; }
.credit { font-size: 0.875rem; margin: 0.75rem 0 0; }
.credit a { display: inline-block; padding: 0.25rem 0; }

/* Forms and notices */

.narrow { max-width: 28rem; margin: 0 auto; }
.form-field { margin: 1rem 0; }
.form-field label { display: block; font-weight: 600; margin-bottom: 0.35rem; }
.form-field input, .form-field select, .form-field textarea {
  width: 100%;
  min-height: 2.75rem;
  padding: 0.5rem 0.75rem;
  font: inherit;
  color: var(--text);
  background: var(--surface);
  border: 1px solid var(--field);
  border-radius: 0.375rem;
}
.form-field [aria-invalid="true"] { border-color: var(--bad); border-width: 2px; }
.button {
  display: inline-block;
  min-height: 2.75rem;
  padding: 0.5rem 1.25rem;
  font: inherit;
  font-weight: 600;
  color: var(--on-link);
  background: var(--link);
  border: 0;
  border-radius: 0.375rem;
  cursor: pointer;
}
.button:hover { filter: brightness(1.1); }
.error { display: flex; align-items: center; gap: 0.4rem; color: var(--bad); font-weight: 600; margin: 0.35rem 0 0; }
.error svg { width: 1.1em; height: 1.1em; flex: none; }

@media (max-width: 34rem) {
  .wrap { padding: 0 0.75rem; }
  .card, .check { padding: 0.75rem 0.875rem; }
  .score-card { grid-template-columns: 1fr; justify-items: start; }
  .props { grid-template-columns: minmax(0, 38%) minmax(0, 1fr); gap: 0.2rem 0.75rem; }
  /* The chart scales down to about half size on a phone: larger labels keep them legible. */
  .chart-label { font-size: 22px; }
  /* Table rows become two lines: the page, then its score and date. */
  .stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .stack tr { display: grid; grid-template-columns: auto 1fr; align-items: center; gap: 0.25rem 0.75rem; padding: 0.5rem 0; border-bottom: 1px solid var(--border); }
  .stack td { display: block; padding: 0; border: 0; }
  .stack td:first-child { grid-column: 1 / -1; }
}

@media print {
  :root {
    --bg: #fff; --surface: #fff; --subtle: #fff; --text: #000; --muted: #333; --border: #bbb;
    --link: #000; --good: #0b5a27; --decent: #7a3b00; --bad: #8f1e18; --good-bg: #fff; --decent-bg: #fff; --bad-bg: #fff;
  }
  body { background: none; font-size: 11pt; }
  main { padding: 0.5rem 0; }
  .wrap { max-width: none; padding: 0; }
  .site-header .wrap { min-height: 0; padding-bottom: 0.25rem; }
  .card, .check { border-color: #bbb; }
  .check { border-left-color: var(--band); }
  .check-head { break-after: avoid; }
  .check-fix { border: 1px solid #bbb; }
  summary { display: none; }
  a[href^="http"]:not(.url)::after { content: " (" attr(href) ")"; font-size: 0.85em; overflow-wrap: anywhere; }
}

/* Collapsed lists are printed in full. A separate rule, so browsers without ::details-content keep the rest. */
@media print {
  details::details-content { content-visibility: visible; display: contents; }
}
${APP_STYLES}`;
