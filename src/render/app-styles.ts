// The dashboard's rules, appended to the share pages' stylesheet (one file, one request, one
// cache entry). Same variables, so both colour schemes keep their WCAG AA contrast.

export const APP_STYLES = `
/* Dashboard */

.app .wrap { max-width: 72rem; }

.skip-link { position: absolute; left: -999px; top: 0.5rem; padding: 0.5rem 1rem; background: var(--surface); color: var(--link); border-radius: var(--radius); z-index: 10; }
.skip-link:focus { left: 0.5rem; }
.app-header .wrap { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1.5rem; }
.app-nav { flex: 1 1 auto; }
.app-nav ul { display: flex; flex-wrap: wrap; gap: 0.25rem 0.25rem; list-style: none; margin: 0; padding: 0; }
.app-nav a { display: inline-block; padding: 0.5rem 0.625rem; min-height: 2.75rem; line-height: 1.75rem; border-radius: 0.375rem; color: var(--text); text-decoration: none; font-weight: 600; }
.app-nav a:hover { background: var(--subtle); }
.app-nav a[aria-current="page"] { color: var(--link); text-decoration: underline; text-underline-offset: 0.3em; text-decoration-thickness: 2px; }
.signout { margin: 0; }
.button-link { background: none; border: 0; padding: 0.5rem 0.25rem; min-height: 2.75rem; font: inherit; color: var(--link); text-decoration: underline; cursor: pointer; }
.button.secondary { background: var(--surface); color: var(--link); border: 1px solid var(--link); }
.button.danger { background: var(--bad); color: #ffffff; }
.page-head { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.75rem 1rem; margin: 1.5rem 0 1rem; }
.page-head h1 { margin: 0; }
.actions { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
.actions form { margin: 0; }
.flash { padding: 0.75rem 1rem; margin: 1rem 0; border-radius: var(--radius); background: var(--good-bg); color: var(--good); font-weight: 600; }
.flash.bad { background: var(--bad-bg); color: var(--bad); }
.empty { text-align: center; padding: 2rem 1rem; }
.empty p { margin: 0.5rem 0 1rem; }
.filters { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: flex-end; margin: 0 0 1rem; }
.filters .form-field { margin: 0; flex: 1 1 10rem; }
.form-field textarea { min-height: 6rem; }
.form-field .hint { color: var(--muted); font-size: 0.875rem; margin: 0.25rem 0 0; }
.check-field { display: flex; gap: 0.5rem; align-items: center; margin: 1rem 0; min-height: 2.75rem; }
.check-field input { width: 1.25rem; height: 1.25rem; }
.error-summary { border: 2px solid var(--bad); border-radius: var(--radius); padding: 0.75rem 1rem; margin: 1rem 0; }
.error-summary h2 { font-size: 1rem; color: var(--bad); margin: 0 0 0.5rem; }
.pager { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; justify-content: space-between; margin: 1rem 0; }
.pager a { display: inline-block; padding: 0.5rem 0; }
.secret { display: block; font-family: var(--mono); padding: 0.75rem; background: var(--subtle); border-radius: 0.375rem; overflow-wrap: anywhere; user-select: all; }
.copy-status { margin-left: 0.75rem; color: var(--good); font-weight: 600; }
pre.snippet { white-space: pre-wrap; overflow-wrap: anywhere; font-family: var(--mono); font-size: 0.875rem; padding: 0.75rem; background: var(--subtle); border-radius: 0.375rem; }
.table-scroll { overflow-x: auto; }
:focus-visible { outline: 3px solid var(--link); outline-offset: 2px; }
@media (max-width: 34rem) {
  /* On a phone the navigation is one row that scrolls sideways, not four rows above every page. */
  .app-nav { order: 3; flex-basis: 100%; min-width: 0; }
  .app-nav ul { flex-wrap: nowrap; overflow-x: auto; }
  .app-nav a { white-space: nowrap; }
  .signout { margin-left: auto; }
}

/* reports and projects pages */
.reports-table .url-cell { font-weight: 400; min-width: 14rem; overflow-wrap: anywhere; }
.score-band { white-space: nowrap; }
.report-meta .actions { margin-top: 0.75rem; }
.url-title { overflow-wrap: anywhere; }

/* (end of reports) */

/* websites pages */


/* (end of websites) */

/* monitors and webhooks pages */
.facts { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: 0.5rem 1.5rem; margin: 0 0 1rem; }
.facts dt { color: var(--muted); font-weight: 600; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
fieldset.events-field { border: 0; padding: 0; margin: 1rem 0; min-width: 0; }
fieldset.events-field legend { font-weight: 600; padding: 0; }
fieldset.events-field .check-field { margin: 0.25rem 0; }
fieldset.events-field label { overflow-wrap: anywhere; }
fieldset.events-field input { flex: none; }
.deliveries td:first-child, .deliveries code { overflow-wrap: normal; white-space: nowrap; }
fieldset.events-field .hint { color: var(--muted); font-size: 0.875rem; margin: 0.25rem 0 0.5rem; }
@media (max-width: 30rem) { .facts { grid-template-columns: 1fr; gap: 0.125rem; } .facts dd { margin-bottom: 0.5rem; } }

/* (end of monitors and webhooks) */

/* crawls pages */
.crawl-status { text-transform: capitalize; }
.severity-low { --band: var(--muted); --band-bg: var(--subtle); }
.crawl-title { overflow-wrap: anywhere; }
.crawl-facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: 0.5rem 1.5rem; margin: 1.25rem 0 0; }
.crawl-facts dt { color: var(--muted); font-size: 0.875rem; font-weight: 600; }
.crawl-facts dd { margin: 0; overflow-wrap: anywhere; }
.crawl-detail { overflow-wrap: anywhere; min-width: 12rem; }
.crawl-url { min-width: 14rem; overflow-wrap: anywhere; }
.crawl-pages th[scope="row"] { font-weight: 400; }
.crawl-section-head .button { margin: 0; }
/* Holds the visually hidden texts of its cells, so they never widen the page. */
.crawl-scroll { position: relative; }
.crawl-list thead th, .crawl-pages thead th, .crawl-issues thead th { white-space: nowrap; }
/* (end of crawls) */
`;
