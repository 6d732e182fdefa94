/** Platform-neutral replies and their builders. */
export * from './types.js';
export * from './reply.js';
export * from './player-text.js';
