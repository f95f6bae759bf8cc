import type { Command } from '../cli.ts';
import { loadConfig } from '../config.ts';
import { serve } from '../server.ts';

export const serveCommand: Command = {
  summary: 'Serve the API (configured from the environment; see the README)',
  usage: 'lev-api serve',
  async run(_args, env) {
    await serve(loadConfig(env));
    // Keeps running until a signal stops it (see server.ts).
    return new Promise<number>(() => {});
  },
};
