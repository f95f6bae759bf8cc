import type { Command } from '../types/command.ts';
import { configReference, loadConfig } from '../config/index.ts';
import { serve } from '../server.ts';
import { parseArguments } from './arguments.ts';
import { settingsHelp } from './settings-help.ts';

export const serveCommand: Command = {
  summary: 'Serve the API, configured by the environment variables below',
  get usage() {
    return `lev-api serve\n\nSettings (environment variables):\n${settingsHelp(configReference())}`;
  },
  async run(args, env) {
    parseArguments(args, {});
    await serve(loadConfig(env));
    // Keeps running until a signal stops it (see server.ts).
    return new Promise<number>(() => {});
  },
};
