// The e2e project's setup file: run before each e2e file, so each gets the harness's hooks (harness.ts registerFileHooks).
import { registerFileHooks } from './harness.js';

registerFileHooks();
