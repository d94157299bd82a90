import { table } from './helpers.js';

const medium = 'medium' as const;
const html = '<p>x</p>';

table('server_signature', [
  { name: 'no headers: []', input: { html, headers: {} }, expected: { passed: true, importance: medium, value: [] } },
  {
    name: 'a bare product name passes',
    input: { html, headers: { server: ['nginx'] } },
    expected: { passed: true, importance: medium, value: ['nginx'] },
  },
  {
    name: 'a version number fails',
    input: { html, headers: { server: ['nginx/1.24.0'] } },
    expected: { passed: false, importance: medium, value: ['nginx/1.24.0'], errors: { failed: null } },
  },
  {
    name: 'X-Powered-By fails; Server comes first in the value',
    input: { html, headers: { 'x-powered-by': ['Express'], server: ['cloudflare'] } },
    expected: { passed: false, importance: medium, value: ['cloudflare', 'Express'], errors: { failed: null } },
  },
  {
    name: 'a blank X-Powered-By passes',
    input: { html, headers: { 'x-powered-by': [' '] } },
    expected: { passed: true, importance: medium, value: [' '] },
  },
]);
