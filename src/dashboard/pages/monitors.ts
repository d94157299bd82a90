// The monitors pages (being built).
import type { PageModule } from '../deps.js';

export const monitorsPages: PageModule = () => {};
