// The websites pages (being built).
import type { PageModule } from '../deps.js';

export const websitesPages: PageModule = () => {};
