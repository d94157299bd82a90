// The share pages' renderers: pure functions from stored data to complete HTML documents.

export { escapeHtml, safeHref } from './html.js';
export { renderReportPage, type ShareReport, type ReportPageOptions, type HistoryPoint } from './report.js';
export { renderWebsitePage, type ShareWebsite, type WebsiteReportRow, type WebsitePageOptions } from './website.js';
export {
  PROP_KEYS_LIMIT,
  TOP_LIMIT,
  TOP_LISTS,
  type PropsTraffic,
  type TopList,
  type TopListName,
  type WebsiteTraffic,
} from './traffic.js';
export type { DayCounts } from './traffic-chart.js';
export {
  renderForbiddenPage,
  renderPasswordPage,
  renderNotFoundPage,
  renderTooManyAttemptsPage,
  renderTooManyRequestsPage,
  type PasswordPageInput,
} from './pages.js';
export { STYLESHEET_PATH } from './layout.js';
