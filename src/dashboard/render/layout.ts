// The dashboard's document: the share pages' head and stylesheet, a skip link, the navigation
// (the current page marked), the sign-out form, a notice from the previous step, and `main`.
// Every page has one <h1> (in `main`), a specific <title> and lang="en".
import { html, type HtmlValue } from '../../render/html.js';
import { FAVICON, LOGO, STYLESHEET_PATH } from '../../render/layout.js';

export const APP_SCRIPT_PATH = '/assets/app.js';

export type Section = 'reports' | 'projects' | 'websites' | 'monitors' | 'webhooks' | 'crawls' | 'account';

const NAV: ReadonlyArray<[Section, string, string]> = [
  ['reports', 'Reports', '/app/reports'],
  ['projects', 'Projects', '/app/projects'],
  ['websites', 'Websites', '/app/websites'],
  ['monitors', 'Monitors', '/app/monitors'],
  ['webhooks', 'Webhooks', '/app/webhooks'],
  ['crawls', 'Crawls', '/app/crawls'],
  ['account', 'Account', '/app/account'],
];

export interface AppPage {
  /** Specific first; " · Rankscope" is added. */
  title: string;
  /** The signed-in account, or absent on the sign-in page. */
  account?: { email: string; csrf: string; section: Section };
  /** A notice from the step before (a flash), e.g. "Report deleted.". */
  notice?: { text: string; bad?: boolean } | null;
}

export function renderAppDocument(page: AppPage, main: HtmlValue): string {
  const { account, notice } = page;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · Rankscope</title>
<meta name="description" content="${page.title}: the Rankscope dashboard.">
<meta name="robots" content="noindex">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="${FAVICON}" type="image/svg+xml">
<link rel="stylesheet" href="${STYLESHEET_PATH}">
<script src="${APP_SCRIPT_PATH}" defer></script>
</head>
<body class="app">
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header app-header"><div class="wrap">
<a class="brand" href="${account ? '/app/reports' : '/login'}">${LOGO}Rankscope</a>
${
  account
    ? html`<nav class="app-nav" aria-label="Main"><ul>${NAV.map(
        ([section, label, href]) =>
          html`<li><a href="${href}"${section === account.section ? html` aria-current="page"` : ''}>${label}</a></li>`,
      )}</ul></nav>
<form class="signout" method="post" action="/logout"><input type="hidden" name="_token" value="${account.csrf}"><button class="button-link" type="submit">Sign out <span class="visually-hidden">${account.email}</span></button></form>`
    : ''
}
</div></header>
<main id="main" tabindex="-1"><div class="wrap">
${notice ? html`<p class="flash${notice.bad ? ' bad' : ''}" role="status">${notice.text}</p>` : ''}
${main}
</div></main>
<footer class="site-footer"><div class="wrap"><p>Rankscope${account ? html` · signed in as ${account.email}` : ''}</p></div></footer>
</body>
</html>
`.value;
}
