/**
 * Checking the signed checkpoints a witness kept against an audit file's chain: that each could be
 * the embedded store's, and that the chain still holds what it says the chain held.
 */
import type { Checkpoint } from '../../model/audit.ts';

/**
 * Why a checkpoint cannot be of an audit file: the embedded store's checkpoints name one writer,
 * the process, whose chain runs from where its file ended when it started (the checkpoint's origin).
 */
export function embeddedCheckpointFault(checkpoint: Checkpoint): string | undefined {
  if (checkpoint.heads.length > 1 || checkpoint.heads.some((head) => head.writer !== 'embedded'))
    return "it names the PostgreSQL trail's writers, not an audit file's";
  if (checkpoint.entries !== (checkpoint.heads[0]?.seq ?? 0))
    return `it states ${checkpoint.entries} entries but its head makes ${checkpoint.heads[0]?.seq ?? 0}`;
  return undefined;
}

/**
 * Whether the chain holds what the checkpoint says it held: the hash it starts from, and its head
 * that many entries after it. 'rotated away' when neither is in the files kept and `kept` says they
 * need not be (the files were rotated, and the checkpoint is older than their oldest entry).
 */
export function heldFault(
  checkpoint: Checkpoint,
  found: ReadonlyMap<string, number>,
  entries: number,
  kept: boolean,
): string | undefined {
  const [head] = checkpoint.heads;
  const start = found.get(checkpoint.origin);
  const end = head && found.get(head.hash);
  if (start === undefined) {
    // Its start rotated away: its head, when the files kept should hold it, must be in them.
    if (end !== undefined) return undefined;
    if (!kept) return 'rotated away';
    return `names ${head ? 'a head and ' : ''}a start the chain does not pass through: the trail was rewritten`;
  }
  if (!head) return undefined;
  if (end === start + head.seq) return undefined;
  if (start + head.seq > entries)
    return (
      `names entry ${head.seq} after its start, but the chain ends ${entries - start} entries after it: ` +
      `entries were removed`
    );
  return (
    `names a head that is not the entry ${head.seq} after its start: the chain was ` +
    `rewritten${end === undefined ? '' : ', or entries removed or inserted'}`
  );
}
