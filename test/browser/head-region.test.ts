// The engine's head region (docs/checks.md §4.1 "Head") against Chromium's own tree construction: on
// every page of head-cases.ts, the lookups in document.head are the ones the engine reads as
// head content, and when the engine says the head closed early, the body starts with that element.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { buildArtifacts } from '../../src/analysis/artifacts/index.js';
import { launchBrowser, noBrowser } from '../helpers/browser.js';
import { HEAD_CASES } from '../analysis/head-cases.js';

describe('the head region agrees with Chromium', { skip: noBrowser }, () => {
  let browser: Browser;
  let page: Page;

  before(async () => {
    browser = await launchBrowser();
    // JavaScript on, as Google renders (a head <noscript> is then text); nothing is fetched.
    page = await browser.newPage();
    await page.route('**/*', (route) => route.abort());
  });
  after(async () => {
    await browser?.close();
  });

  for (const c of HEAD_CASES) {
    test(c.name, async () => {
      await page.setContent(c.html);
      // A string, as the project compiles without the DOM library.
      const chromium = (await page.evaluate(`(() => {
        const head = [...document.head.children].flatMap((e) =>
          e.localName === 'meta' ? ['meta:' + e.getAttribute('name')]
          : e.localName === 'title' ? ['title:' + e.textContent]
          : e.localName === 'link' ? ['link:' + e.getAttribute('href')]
          : []);
        const first = document.body ? document.body.firstChild : null;
        const bodyStart = first === null ? null : first.nodeType === Node.TEXT_NODE ? '#text' : '<' + first.localName + '>';
        return { head: head.sort(), bodyStart };
      })()`)) as { head: string[]; bodyStart: string | null };
      const a = buildArtifacts(c.html, 'http://example.test/');
      const engineHead = [
        ...a.head.metas.map((m) => `meta:${m.rawName}`),
        ...a.head.titles.map((t) => `title:${t}`),
        ...a.head.links.map((l) => `link:${l.href}`),
      ].sort();
      assert.deepEqual(engineHead, chromium.head);
      if (a.head.closedBy !== null) assert.equal(a.head.closedBy, chromium.bodyStart);
    });
  }
});
