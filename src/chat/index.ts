/** Platform-neutral replies and their builders. */
export * from './types';
export * from './reply';
