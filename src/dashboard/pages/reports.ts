// The reports pages (being built).
import type { PageModule } from '../deps.js';

export const reportsPages: PageModule = () => {};
