import type { Command } from './command.ts';
import { loadUiConfig, uiConfigReference } from '../config/ui.ts';
import { serveUi } from '../ui/server.ts';
import { parseArguments } from './arguments.ts';
import { settingsHelp } from './settings-help.ts';

export const uiCommand: Command = {
  summary: "Serve the caseworkers' pages in front of an API, configured by the environment variables below",
  usage() {
    return (
      `lev-api ui [--api-url URL]\n\n  --api-url URL   the API the pages call (UI_API_URL)\n\nSettings ` +
      `(environment variables):\n${settingsHelp(uiConfigReference())}`
    );
  },
  async run(args, env, descriptions) {
    const apiUrl = parseArguments(args, { 'api-url': { type: 'string' } }).values['api-url'] as string | undefined;
    await serveUi(loadUiConfig(apiUrl === undefined ? env : { ...env, UI_API_URL: apiUrl }), descriptions);
    // Keeps running until a signal stops it (see ui/server.ts).
    return new Promise<number>(() => {});
  },
};
