import type { Command } from './command.ts';
import { configReference, loadConfig } from '../config/index.ts';
import { loadScenarioFiles } from '../mock/dataset.ts';
import { serve } from '../server.ts';
import { parseArguments } from './arguments.ts';
import { settingsHelp } from './settings-help.ts';

export const serveCommand: Command = {
  summary: 'Serve the API, configured by the environment variables below',
  usage() {
    return `lev-api serve\n\nSettings (environment variables):\n${settingsHelp(configReference())}`;
  },
  async run(args, env, descriptions) {
    parseArguments(args, {});
    await serve(loadConfig(env), { descriptions, scenarios: await loadScenarioFiles() });
    // Keeps running until a signal stops it (see server.ts).
    return new Promise<number>(() => {});
  },
};
