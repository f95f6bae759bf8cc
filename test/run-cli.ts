/** `lev-api` run in this process through `main(argv, env)`, with what it printed: each stream's text. */
import type { TestContext } from 'node:test';
import { main } from '../src/cli.ts';

export async function runCli(t: TestContext, argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  t.mock.method(console, 'log', (...parts: unknown[]) => void out.push(parts.join(' ')));
  t.mock.method(console, 'error', (...parts: unknown[]) => void err.push(parts.join(' ')));
  try {
    return { code: await main(argv, env), stdout: out.join('\n'), stderr: err.join('\n') };
  } finally {
    t.mock.restoreAll();
  }
}
