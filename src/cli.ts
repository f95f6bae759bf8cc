/**
 * `lev-api <command>`: each command lives in src/commands/ and exports
 * `run(args, env, descriptions)`, returning the process exit code. The record types are read here,
 * once, and passed to the command.
 */
import { reportError } from './errors.ts';
import { loadRecordTypes } from './records/index.ts';
import { version } from './version.ts';

import type { Command } from './commands/command.ts';

const commands: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./commands/serve.ts')).serveCommand,
  ui: async () => (await import('./commands/ui.ts')).uiCommand,
  migrate: async () => (await import('./commands/migrate.ts')).migrateCommand,
  load: async () => (await import('./commands/load.ts')).loadCommand,
  generate: async () => (await import('./commands/generate.ts')).generateCommand,
  audit: async () => (await import('./commands/audit.ts')).auditCommand,
  subscriptions: async () => (await import('./commands/subscriptions.ts')).subscriptionsCommand,
  deliver: async () => (await import('./commands/deliver.ts')).deliverCommand,
  credentials: async () => (await import('./commands/credentials.ts')).credentialsCommand,
};

async function help(): Promise<string> {
  const lines = ['Usage: lev-api <command> [options]', '', 'Commands:'];
  for (const [name, load] of Object.entries(commands)) {
    const command = await load().catch(() => undefined);
    if (command) lines.push(`  ${name.padEnd(10)} ${command.summary}`);
  }
  lines.push('', "Run 'lev-api <command> --help' for a command's options.");
  return lines.join('\n');
}

export async function main(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    console.log(version);
    return 0;
  }
  // `lev-api help <command>` is `lev-api <command> --help`.
  if (name === 'help' && args.length) return main([...args.slice(0, 1), '--help', ...args.slice(1)], env);
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(await help());
    return name ? 0 : 2;
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) {
    const what = name.startsWith('-') ? 'option' : 'command';
    console.error(
      `lev-api: unknown ${what} '${name}'; the commands are ${Object.keys(commands).join(', ')} (see 'lev-api --help')`,
    );
    return 2;
  }
  const command = await load();
  const descriptions = await loadRecordTypes();
  if (args.includes('--help') || args.includes('-h')) {
    console.log(`Usage: ${command.usage(descriptions)}\n\n${command.summary}`);
    return 0;
  }
  try {
    return await command.run(args, env, descriptions);
  } catch (error) {
    const { line, exitCode } = reportError(name, error);
    console.error(line);
    return exitCode;
  }
}
