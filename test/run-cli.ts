/** `lev-api` run in this process through `main(argv, env)`, with what it printed: each stream's text. */
import assert from 'node:assert/strict';
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

/**
 * Checks for one `lev-api` command run with `env`: `ok` expects exit 0 and gives what it printed;
 * `mistake` expects exit 2 with one line on stderr matching `expected` and nothing on stdout.
 */
export function commandChecks(t: TestContext, command: string, env: Record<string, string>) {
  const ok = async (argv: string[]) => {
    const result = await runCli(t, [command, ...argv], env);
    assert.equal(result.code, 0, `${argv.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };
  const mistake = async (argv: string[], expected: RegExp, withEnv: Record<string, string> = env) => {
    const { code, stdout, stderr } = await runCli(t, [command, ...argv], withEnv);
    assert.equal(code, 2, `${argv.join(' ')}: ${stderr}`);
    assert.equal(stdout, '');
    assert.equal(stderr.split('\n').length, 1, stderr);
    assert.match(stderr, expected, argv.join(' '));
  };
  return { ok, mistake };
}
