import { buildScriptTag } from '../server/script-tag/bundle.ts';
import { BUILT_SCRIPT_TAG_DIR, writeBuilt } from '../server/script-tag/built-files.ts';

/** `npm run build`'s last step: the script tag's files, built and compressed once, for every service process to read. */
await writeBuilt(BUILT_SCRIPT_TAG_DIR, await buildScriptTag());
console.log(`script tag built into ${BUILT_SCRIPT_TAG_DIR}`);
