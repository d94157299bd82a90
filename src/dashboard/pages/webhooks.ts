// The webhooks pages (being built).
import type { PageModule } from '../deps.js';

export const webhooksPages: PageModule = () => {};
