/**
 * Request schemas of the trainer HTTP API (zod; fastify validates every route with them and
 * @fastify/swagger turns them into `/openapi.json`). Unknown keys are ignored, as the original's pydantic
 * models did (docs/RULES.md §A.1). The action itself is validated separately (src/engine/actions.ts ActionSchema,
 * after the original-name mapping in original-compat.ts) so an unknown `action_type` gets its own code.
 */
import { z } from 'zod';
import { POLICY_NAMES } from '../../engine/config.js';
import { TASK_NAMES, type PolicyName, type TaskName } from '../../engine/types.js';

const Task = z.enum(TASK_NAMES as [TaskName, ...TaskName[]]);
const Policy = z.enum(POLICY_NAMES as [PolicyName, ...PolicyName[]]);
const LabId = z
  .string()
  .trim()
  .regex(/^lab_\d{1,2}$/, 'a seat id like lab_0');

/** `POST /reset`: ours and the original's names (docs/RULES.md §A.1); everything optional. */
export const ResetBodySchema = z
  .object({
    task: Task.optional().describe('Task (ours): single_trade, market_round or coalition_market'),
    task_type: Task.optional().describe("Task (the original's name); default single_trade"),
    difficulty: z
      .enum(['easy', 'medium', 'hard'])
      .nullable()
      .optional()
      .describe('Original: picks the task of that difficulty; refused if it contradicts the task'),
    seed: z
      .number()
      .int()
      .nonnegative()
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .describe('World seed (default 42, as the original; self-play: a random seed, revealed when the match is over)'),
    judge_mode: z
      .enum(['off', 'rule'])
      .optional()
      .describe('Original: accepted and echoed; this engine always runs the rule judge at round close'),
    seat: LabId.optional().describe('The controlled seat (default lab_0)'),
    seats: z
      .array(LabId)
      .min(1)
      .max(5)
      .optional()
      .describe('Self-play: seats driven over HTTP, each with its own token; others scripted'),
    opponents: z
      .union([z.array(Policy).max(5), z.record(z.string(), Policy)])
      .optional()
      .describe('Scripted policies of the other seats (in seat order, or by lab id)'),
    holdout: z.boolean().default(false).describe('Holdout parameters for scripted seats'),
    actions_per_round: z
      .number()
      .int()
      .min(1)
      .max(12)
      .default(1)
      .describe(
        'Actions a seat takes before its round closes (wait closes it early); 1 = one action per round, as the original',
      ),
    session_id: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('Reset this single-seat session in place (same id) instead of the default session'),
    new_session: z
      .boolean()
      .default(false)
      .describe(
        'Open a session of your own (counted against server.maxSessionsPerClient) instead of replacing the shared default session',
      ),
    observation_format: z
      .enum(['native', 'original'])
      .optional()
      .describe(
        "Shape of this session's observations: native (ours plus the original's top-level names) or original (its exact shapes); default: the server's compat",
      ),
    invalid_actions: z
      .enum(['reject', 'penalize'])
      .default('reject')
      .describe(
        'reject: a malformed action is a 4xx and changes nothing; penalize: it is an engine step with the malformed_action penalty (−0.15)',
      ),
  })
  .describe('Start a session');
/** A parsed `POST /reset` body (defaults filled in). */
export type ResetBody = z.output<typeof ResetBodySchema>;

/**
 * `POST /step`: `{session_id | token, action}`, or the original's action object at the top level (with
 * or without `session_id`). `action` may be a JSON text (a model's raw output).
 */
export const StepBodySchema = z
  .looseObject({
    session_id: z.string().min(1).max(100).optional(),
    token: z.string().min(1).max(100).optional().describe('A seat token of a self-play session'),
    action: z
      .union([z.record(z.string(), z.unknown()), z.string().max(20_000)])
      .optional()
      .describe('The action (docs/RULES.md §3), or its JSON text'),
    action_type: z.unknown().optional().describe("The original's shape: the action's fields at the top level"),
  })
  .describe('One action of one seat');
/** A parsed `POST /step` body. */
export type StepBody = z.output<typeof StepBodySchema>;

/** `GET /state`. */
export const StateQuerySchema = z.object({
  session_id: z.string().min(1).max(100).optional(),
  token: z.string().min(1).max(100).optional().describe("A seat token: that seat's own view only"),
  admin_token: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('The admin token of a self-play session: its public view'),
  include_private: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1')
    .describe('The full state (every seat’s secrets): only when the server runs with debugState'),
});

/** `DELETE /session/:id`. */
export const SessionParamsSchema = z.object({ id: z.string().min(1).max(100) });

/** `DELETE /session/:id?admin_token=…` (required for a self-play session). */
export const DeleteQuerySchema = z.object({
  admin_token: z.string().min(1).max(100).optional().describe('Required to delete a self-play session'),
});
