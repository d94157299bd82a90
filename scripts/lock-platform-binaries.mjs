// Adds to package-lock.json the entries of Biome's platform binaries that npm left out.
//
// Biome ships one optional package per platform. When the registry npm installs from lacks
// some of them (a mirror that only carries this machine's platform), `npm install` leaves them
// out of the lock and `npm ci` then refuses the lock as out of sync (npm/cli#9846). An entry for
// a platform that does not match is never fetched, so describing it from Biome's own
// optionalDependencies is enough. Run after `npm install` changes the lock:
//   node scripts/lock-platform-binaries.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const PLATFORMS = {
  'android-arm64': ['android', 'arm64'],
  'android-x64': ['android', 'x64'],
  'darwin-arm64': ['darwin', 'arm64'],
  'darwin-x64': ['darwin', 'x64'],
  'linux-arm64': ['linux', 'arm64', 'glibc'],
  'linux-arm64-musl': ['linux', 'arm64', 'musl'],
  'linux-x64': ['linux', 'x64', 'glibc'],
  'linux-x64-musl': ['linux', 'x64', 'musl'],
  'win32-arm64': ['win32', 'arm64'],
  'win32-x64': ['win32', 'x64'],
};

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const biome = lock.packages['node_modules/@biomejs/biome'];
let added = 0;
for (const [name, version] of Object.entries(biome?.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (lock.packages[key]) continue;
  const platform = PLATFORMS[name.replace('@biomejs/cli-', '')];
  if (!platform) throw new Error(`unknown Biome platform package ${name}`);
  const [os, cpu, libc] = platform;
  lock.packages[key] = {
    version,
    cpu: [cpu],
    dev: true,
    engines: { node: biome.engines?.node ?? '>=14.21.3' },
    ...(libc ? { libc: [libc] } : {}),
    license: biome.license,
    optional: true,
    os: [os],
  };
  added += 1;
}
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform entr${added === 1 ? 'y' : 'ies'} added`);
