/**
 * The OpenAI-compatible emulator of the tests: it lives in src/eval/openai-emulator.ts, because
 * `npm run bench:llm` runs the host against it too.
 */
export * from '../../src/eval/openai-emulator.js';
