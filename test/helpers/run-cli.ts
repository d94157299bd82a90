// Runs the CLI from source, as `npx rankscope …` runs it from dist/ (tests spawn this).
import { main } from '../../src/cli/index.js';

process.exitCode = await main(process.argv.slice(2));
