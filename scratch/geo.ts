import { GeoLookup, parseAgent, isBotAgent } from '../src/tracking/client-info.js';
const g = await GeoLookup.open();
for (const a of ['8.8.8.8', '1.1.1.1', '81.2.69.142', '2a00:1450:4001::1', '127.0.0.1', '::1', '::ffff:8.8.8.8', 'garbage'])
  console.log(a, g.locate(a));
console.log(
  parseAgent(
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  ),
);
console.log(
  parseAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'),
  isBotAgent(''),
  isBotAgent('curl/8.0'),
);
