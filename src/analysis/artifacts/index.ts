// The artifacts of a page: what every check reads, plain data built in one pass (build.ts).
export { buildArtifacts } from './build.js';
export { firstIconHref } from './head-links.js';
export type * from './types.js';
