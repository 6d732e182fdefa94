/** Configuration: config/arena.json + environment variables, validated with zod (keys documented in schema.ts). */
export { ArenaConfigSchema, dataPolicyOf, type ArenaConfig, type ArenaConfigInput } from './schema.js';
export { loadConfig, applyEnv, DEFAULT_CONFIG_PATH, type ConfigError } from './load.js';
