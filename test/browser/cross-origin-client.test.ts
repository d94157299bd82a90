// A browser client of the API on another origin, as phprank-apis' api.js files call it: an
// XMLHttpRequest per operation with the bearer key, form-encoded bodies. The page lives on
// 127.0.0.2, the API on 127.0.0.1, so every call is cross-origin (PUT and DELETE, and the
// Authorization header, need a preflight). CORS answers them as Laravel's default does.
import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { type TestApp, testApp } from '../helpers/app.js';
import { launchBrowser, noBrowser } from '../helpers/browser.js';

const PAGE_HOST = '127.0.0.2';

/** The browser's XMLHttpRequest, as much of it as the page functions below use (the test compiles without the DOM library). */
declare class XMLHttpRequest {
  readyState: number;
  status: number;
  responseText: string;
  onreadystatechange: (() => void) | null;
  onloadend: (() => void) | null;
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body?: string): void;
}

interface Answer {
  status: number;
  body: string;
}

describe('a cross-origin XMLHttpRequest client of the API', { skip: noBrowser }, () => {
  let t: TestApp;
  let browser: Browser;
  let pages: Server;
  let api: string;
  let site: string;
  let key: string;

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true' });
    ({ key } = await t.account());
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    api = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    // The client's page, and the page it asks a report of, on another origin.
    pages = createServer((request, response) => {
      const html =
        request.url === '/analysed'
          ? '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A page to analyse</title></head><body><h1>Hello</h1></body></html>'
          : '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Client</title></head><body></body></html>';
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    });
    await new Promise<void>((resolve) => pages.listen(0, PAGE_HOST, resolve));
    site = `http://${PAGE_HOST}:${(pages.address() as { port: number }).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => pages?.close(resolve));
    await t.close();
  });

  test('list, create, update and delete succeed from another origin', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      // (Chromium also logs each 4xx as "Failed to load resource": those are the API's answers.)
      if (message.type() === 'error' && /CORS|Access-Control/i.test(message.text())) errors.push(message.text());
    });
    await page.goto(`${site}/client`);

    /** One call, exactly as the api.js files make it. */
    const xhr = (method: string, path: string, data?: string): Promise<Answer> =>
      page.evaluate(
        ({ method, url, key, data }) =>
          new Promise<Answer>((resolve) => {
            const request = new XMLHttpRequest();
            request.open(method, url);
            if (data !== undefined) request.setRequestHeader('Content-Type', 'application/x-www-form-urlencoded');
            request.setRequestHeader('Authorization', `Bearer ${key}`);
            request.onreadystatechange = () => {
              if (request.readyState === 4) resolve({ status: request.status, body: request.responseText });
            };
            request.send(data);
          }),
        { method, url: `${api}/api/v1${path}`, key, data },
      );

    const empty = await xhr('GET', '/reports');
    assert.equal(empty.status, 200, empty.body);
    assert.deepEqual(JSON.parse(empty.body).data, []);

    const created = await xhr('POST', '/reports', `url=${encodeURIComponent(`${site}/analysed`)}&privacy=1`);
    assert.equal(created.status, 201, created.body);
    const report = JSON.parse(created.body).data;
    assert.equal(report.results.title.value, 'A page to analyse');

    const updated = await xhr('PUT', `/reports/${report.id}`, 'privacy=2&password=s3cret-pass');
    assert.equal(updated.status, 200, updated.body);
    assert.deepEqual([JSON.parse(updated.body).data.privacy, JSON.parse(updated.body).data.password], [2, true]);

    const listed = await xhr('GET', '/reports');
    assert.deepEqual(
      JSON.parse(listed.body).data.map((r: { id: number }) => r.id),
      [report.id],
    );
    const projects = await xhr('GET', '/projects');
    assert.equal(projects.status, 200);

    const deleted = await xhr('DELETE', `/reports/${report.id}`);
    assert.equal(deleted.status, 200, deleted.body);
    assert.deepEqual(JSON.parse(deleted.body).data, { id: report.id });
    assert.equal((await xhr('GET', `/reports/${report.id}`)).status, 404);

    // A wrong key is the API's 401, readable by the page (not a CORS failure, status 0).
    const wrong = await page.evaluate(
      (url) =>
        new Promise<number>((resolve) => {
          const request = new XMLHttpRequest();
          request.open('GET', url);
          request.setRequestHeader('Authorization', 'Bearer wrong');
          request.onloadend = () => resolve(request.status);
          request.send();
        }),
      `${api}/api/v1/reports`,
    );
    assert.equal(wrong, 401);
    assert.deepEqual(errors, [], 'no CORS error in the page');
    await context.close();
  });

  test('the dashboard and share pages stay closed to other origins: a cross-origin read fails', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site}/client`);
    const status = await page.evaluate(
      (url) =>
        new Promise<number>((resolve) => {
          const request = new XMLHttpRequest();
          request.open('GET', url);
          request.onloadend = () => resolve(request.status);
          request.send();
        }),
      `${api}/login`,
    );
    assert.equal(status, 0, 'the browser refuses to hand the answer to another origin');
    await context.close();
  });
});
