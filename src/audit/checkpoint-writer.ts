/**
 * Checkpoints of the audit table: every writer's head read (an index lookup
 * each), signed, and appended to audit_checkpoint, chained to the checkpoint
 * before. Off the request path: one process at a time takes a checkpoint, by
 * a lock it only tries, and a process that finds one taken lately leaves it.
 */
import type { SqlDriver, SqlExecutor } from '../store/driver.ts';
import type { Checkpoint, WriterHead } from '../model/audit.ts';
import { AT_ISO, GENESIS_HASH } from './chain.ts';
import { ORIGIN } from './chain-writer.ts';
import { type CheckpointSigner, checkpointBody } from './checkpoint.ts';

// Names the lock that lets one process at a time take a checkpoint.
const CHECKPOINT_LOCK = 7_240_007;

/**
 * Each writer's last entry. The writers are found by skipping through the (writer, seq) index
 * one writer at a time, and each one's head is the last entry there: a few index lookups a
 * writer, however long the chains.
 */
const HEADS =
  `
WITH RECURSIVE writers(writer) AS (
  (SELECT writer FROM audit_log WHERE writer IS NOT NULL ORDER BY writer LIMIT 1)
  UNION ALL
  SELECT (SELECT a.writer FROM audit_log a WHERE a.writer > w.writer ORDER BY a.writer LIMIT 1) FROM writers w ` +
  `WHERE w.writer IS NOT NULL
)
SELECT w.writer, h.seq::text AS seq, h.hash
  FROM writers w CROSS JOIN LATERAL (SELECT seq, hash FROM audit_log a WHERE a.writer = w.writer ORDER BY seq ` +
  `DESC LIMIT 1) h
 WHERE w.writer IS NOT NULL`;

interface CheckpointRow {
  body: Omit<Checkpoint, 'hash' | 'publicKey' | 'signature'>;
  hash: string;
  public_key: string;
  signature: string;
}

const checkpointOf = (row: CheckpointRow): Checkpoint => ({
  ...row.body,
  hash: row.hash,
  publicKey: row.public_key,
  signature: row.signature,
});

/** Every stored checkpoint, oldest first. */
export async function storedCheckpoints(db: SqlExecutor): Promise<Checkpoint[]> {
  const rows = await db.query<CheckpointRow>(
    'SELECT body, hash, public_key, signature FROM audit_checkpoint ORDER BY id',
  );
  return rows.map(checkpointOf);
}

/** The latest `limit` checkpoints, newest first. */
export async function latestCheckpoints(db: SqlExecutor, limit: number): Promise<Checkpoint[]> {
  const rows = await db.query<CheckpointRow>(
    'SELECT body, hash, public_key, signature FROM audit_checkpoint ORDER BY id DESC LIMIT $1',
    [limit],
  );
  return rows.map(checkpointOf);
}

async function writerHeads(db: SqlExecutor): Promise<WriterHead[]> {
  const rows = await db.query<{ writer: string; seq: string; hash: string }>(HEADS);
  return rows.map((row) => ({ writer: row.writer, seq: Number(row.seq), hash: row.hash }));
}

/**
 * Takes a checkpoint unless another process is taking one, took one less than `minAgeMs` ago, or
 * the trail has not grown since the last; the checkpoint taken, or undefined.
 */
export async function takeCheckpoint(
  driver: SqlDriver,
  signer: CheckpointSigner,
  minAgeMs = 0,
): Promise<Checkpoint | undefined> {
  return driver.transaction(async (tx) => {
    const [{ locked }] = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [
      CHECKPOINT_LOCK,
    ]);
    if (!locked) return undefined;
    const [last] = await tx.query<{ hash: string; entries: string; age_ms: number }>(
      `SELECT hash, body->>'entries' AS entries, (extract(epoch FROM clock_timestamp() - at) * 1000)::float8 AS age_ms
         FROM audit_checkpoint ORDER BY id DESC LIMIT 1`,
    );
    if (last && Number(last.age_ms) < minAgeMs) return undefined;
    const [origin] = await tx.query<{ head: string; entries: string }>(ORIGIN);
    const [{ now }] = await tx.query<{ now: string }>(
      `SELECT ${AT_ISO.replace('at AT', 'clock_timestamp() AT')} AS now`,
    );
    const body = checkpointBody(
      now,
      { head: origin.head, entries: Number(origin.entries) },
      await writerHeads(tx),
      last?.hash ?? GENESIS_HASH,
    );
    // A trail that has not grown since the last checkpoint (the entries only ever grow) needs no new one.
    if (last && Number(last.entries) === body.entries) return undefined;
    const checkpoint = signer.sign(body);
    const { hash, publicKey, signature } = checkpoint;
    await tx.query(
      'INSERT INTO audit_checkpoint (at, body, hash, public_key, signature) VALUES ($1::timestamptz, $2::jsonb, ' +
        '$3, $4, $5)',
      [body.at, JSON.stringify(body), hash, publicKey, signature],
    );
    return checkpoint;
  });
}
