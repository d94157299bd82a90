import { test } from 'node:test';
import assert from 'node:assert/strict';
import { currentPage, paginate, rawUrlEncode, windowPages } from '../../src/http/pagination.js';

const labels = (c: number, L: number) => windowPages(c, L).join(',');

test('UrlWindow lists every page up to 13 pages', () => {
  assert.equal(labels(1, 1), '1');
  assert.equal(labels(5, 13), '1,2,3,4,5,6,7,8,9,10,11,12,13');
});

test('UrlWindow from 14 pages: the worked examples of docs/laravel.md §1d', () => {
  assert.equal(labels(1, 25), '1,2,3,4,5,6,7,8,9,10,...,24,25');
  assert.equal(labels(12, 25), '1,2,...,9,10,11,12,13,14,15,...,24,25');
  assert.equal(labels(20, 25), '1,2,...,16,17,18,19,20,21,22,23,24,25');
  assert.equal(labels(7, 14), '1,2,3,4,5,6,7,8,9,10,...,13,14');
  assert.equal(labels(8, 14), '1,2,...,5,6,7,8,9,10,11,12,13,14');
  // past the end: the "close to the ending" branch
  assert.equal(labels(99, 30), '1,2,...,21,22,23,24,25,26,27,28,29,30');
});

test('rawurlencode: spaces as %20 and the sub-delims JS leaves alone', () => {
  assert.equal(rawUrlEncode("a b!*'()~-_."), 'a%20b%21%2A%27%28%29~-_.');
  assert.equal(rawUrlEncode('é/&='), '%C3%A9%2F%26%3D');
});

test('page: plain positive integers only, otherwise 1', () => {
  for (const [raw, page] of [
    ['3', 3],
    ['0', 1],
    ['-1', 1],
    ['abc', 1],
    ['1.5', 1],
    ['01', 1],
    ['99999999999999999999999', 1],
  ] as const) {
    assert.equal(currentPage({ page: raw }), page, raw);
  }
  assert.equal(currentPage({}), 1);
  assert.equal(currentPage({ page: ['2'] }), 1);
});

test('an empty list: last_page 1, from/to null, one active page link', () => {
  const body = paginate({
    items: [],
    total: 0,
    page: 1,
    perPage: 10,
    path: 'http://h/api/v1/x',
    query: [
      ['search', null],
      ['sort', 'desc'],
    ],
  });
  assert.deepEqual(body.links, {
    first: 'http://h/api/v1/x?sort=desc&page=1',
    last: 'http://h/api/v1/x?sort=desc&page=1',
    prev: null,
    next: null,
  });
  assert.deepEqual(Object.keys(body), ['data', 'links', 'meta', 'current_page', 'last_page', 'status']);
  assert.equal(body.current_page, 1);
  assert.equal(body.last_page, 1);
  assert.deepEqual(Object.keys(body.meta), ['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total']);
  assert.equal(body.meta.from, null);
  assert.equal(body.meta.to, null);
  assert.equal(body.meta.last_page, 1);
  assert.deepEqual(body.meta.links, [
    { url: null, label: '&laquo; Previous', active: false },
    { url: 'http://h/api/v1/x?sort=desc&page=1', label: '1', active: true },
    { url: null, label: 'Next &raquo;', active: false },
  ]);
});

test('a page past the end keeps the real total, links back, and marks nothing active', () => {
  const body = paginate({ items: [], total: 25, page: 999, perPage: 10, path: 'http://h/p', query: [] });
  assert.equal(body.meta.current_page, 999);
  assert.equal(body.meta.last_page, 3);
  assert.equal(body.links.prev, 'http://h/p?page=998');
  assert.equal(body.links.next, null);
  assert.equal(body.links.last, 'http://h/p?page=3');
  assert.deepEqual(
    body.meta.links.map((l) => [l.label, l.active]),
    [
      ['&laquo; Previous', false],
      ['1', false],
      ['2', false],
      ['3', false],
      ['Next &raquo;', false],
    ],
  );
});

test('from/to on a middle page', () => {
  const items = Array.from({ length: 10 }, (_, i) => i);
  const body = paginate({ items, total: 25, page: 2, perPage: 10, path: 'http://h/p', query: [['per_page', 10]] });
  assert.equal(body.meta.from, 11);
  assert.equal(body.meta.to, 20);
  assert.equal(body.links.prev, 'http://h/p?per_page=10&page=1');
  assert.equal(body.links.next, 'http://h/p?per_page=10&page=3');
});
