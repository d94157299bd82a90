// Launching Debian's Chromium through playwright-core (the project never downloads a browser),
// locked to the guard proxy: every request goes through it, loopback included, and nothing the
// browser could send around it (WebRTC's UDP, QUIC, DNS prefetch, background services) is on.
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { GuardProxy } from './guard-proxy.js';

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/** True when a Chromium executable is at `path`. */
export function chromiumAvailable(path: string): boolean {
  return existsSync(path);
}

/** The command-line switches that keep the browser's traffic in the proxy and the page small. */
export function chromiumArgs(heapMb: number): string[] {
  return [
    '--disable-gpu',
    '--no-first-run',
    '--disable-quic',
    // Without these Chromium keeps trying to reach Google's hosts (through the proxy, but pointless).
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--disable-extensions',
    '--no-pings',
    '--dns-prefetch-disable',
    '--disable-features=NetworkPrediction,DnsOverHttps,PrivacySandboxSettings4,InterestFeedContentSuggestions,MediaRouter,OptimizationHints,Translate',
    // WebRTC: only what a proxy carries (TCP through it), never UDP around it.
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    // A page that grows its DOM or heap without end runs out here, not in the machine's memory.
    `--js-flags=--max-old-space-size=${heapMb}`,
    '--disable-dev-shm-usage',
  ];
}

export async function launchChromium(executablePath: string, proxy: GuardProxy, heapMb: number): Promise<Browser> {
  // Loaded on the first rendered page: an instance that never renders never pays for playwright.
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath,
    headless: true,
    // `<-loopback>` removes Chromium's implicit bypass of localhost and 127.0.0.1: loopback
    // targets go through the proxy (and its guard) like any other.
    proxy: { server: proxy.server, bypass: '<-loopback>', username: proxy.username, password: proxy.password },
    args: chromiumArgs(heapMb),
    // The browser is ours to stop: no signal handlers of playwright's in the server's process.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

/** A fresh context for one page: nothing shared with other pages, and nothing granted. */
export async function lockedContext(browser: Browser, userAgent: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    userAgent,
    serviceWorkers: 'block',
    acceptDownloads: false,
    permissions: [],
    javaScriptEnabled: true,
    ignoreHTTPSErrors: false,
    viewport: { width: 1366, height: 900 },
  });
  // Pop-ups and new windows are closed as they open; dialogs are dismissed.
  context.on('page', (page) => {
    if (context.pages()[0] !== page) page.close().catch(() => {});
  });
  context.on('dialog', (dialog) => {
    dialog.dismiss().catch(() => {});
  });
  return context;
}

export type { Browser, BrowserContext, Page };
