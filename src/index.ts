export { configure, currentConfig, resolveConfig, PaykitConfigError } from './config.ts';
export type { PaykitConfig, ResolvedConfig } from './config.ts';
