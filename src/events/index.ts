/** The match event log's schema (see schema.ts). */
export * from './schema.js';
