/** The context a chat platform's starter receives (src/app/platforms.ts). */
import type { Logger } from 'pino';
import type { EventStore } from '../store/types.js';
import type { ArenaConfig } from './config/index.js';

/** What a chat platform's starter receives from the entry point. */
export interface PlatformContext {
  config: ArenaConfig;
  store: EventStore;
  logger: Logger;
}
