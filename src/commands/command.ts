/** A `lev-api` command: src/commands/ holds one per file, src/cli.ts runs them. */
import type { RecordDescription } from '../records/define.ts';

export interface Command {
  readonly summary: string;
  /** Its usage text, naming the record types `descriptions` (those the command serves) where it takes one. */
  usage(descriptions: readonly RecordDescription[]): string;
  /**
   * Returns the process exit code. `descriptions` are the record types served, read once by the
   * entry point (src/cli.ts), never by a command's module.
   */
  run(
    args: string[],
    env: Record<string, string | undefined>,
    descriptions: readonly RecordDescription[],
  ): Promise<number>;
}
