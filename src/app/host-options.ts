/**
 * The round host's options that come from the app configuration (src/app/config): lobby defaults of chat
 * matches, admins, and ballots. One place, so every platform starts its host the same way.
 */
import { dataPolicyOf, type ArenaConfig } from './config/schema.js';
import type { RoundHostOptions } from '../host/host.js';
import { configureVoteLinks } from '../web/links/vote-link.js';

/** `defaults` (task, round timer, holdout, votes), `adminUserIds`, `votes` (ballot time, rate limit), `data` (the research-data policy) and `reminders` (config `chat.*`) of `config`; also sets this process's web-vote links (config `web.*`). */
export function hostOptionsFromConfig(
  config: ArenaConfig,
): Pick<RoundHostOptions, 'defaults' | 'adminUserIds' | 'votes' | 'data' | 'reminders'> {
  // Web-vote links in `vote` replies (src/web/links): on when the web page's public URL is configured.
  configureVoteLinks(
    config.web.publicUrl
      ? { publicUrl: config.web.publicUrl, secret: config.web.linkSecret, ttlSeconds: config.web.linkTtlSeconds }
      : null,
  );
  return {
    defaults: {
      task: config.match.task,
      roundSeconds: config.match.roundSeconds,
      holdout: config.match.holdout,
      votes: config.votes.enabled,
    },
    adminUserIds: config.adminUserIds,
    votes: { ballotSeconds: config.votes.ballotSeconds, perMinute: config.votes.perMinute },
    data: dataPolicyOf(config),
    reminders: { enabled: config.chat.reminders, lastCallSeconds: config.chat.lastCallSeconds },
  };
}
