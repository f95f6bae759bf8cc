/** A `lev-api` command: src/commands/ holds one per file, src/cli.ts runs them. */
export interface Command {
  readonly summary: string;
  readonly usage: string;
  /** Returns the process exit code. */
  run(args: string[], env: Record<string, string | undefined>): Promise<number>;
}
