// The crawls pages (being built).
import type { PageModule } from '../deps.js';

export const crawlsPages: PageModule = () => {};
