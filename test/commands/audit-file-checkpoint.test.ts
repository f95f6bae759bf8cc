/**
 * `lev-api audit verify --checkpoint FILE` on the embedded store's audit file (AUDIT_FILE, no
 * DATABASE_URL): the checkpoints the service signed, kept by a witness, bind the file's chain, so a
 * trail rewritten consistently before them (which its own chain cannot show) fails.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultHeadPath } from '../../src/audit/file/head-file.ts';
import { chainHash } from '../../src/audit/chain.ts';
import { checkpointBody, checkpointSigner, newSigningKey } from '../../src/audit/checkpoint.ts';
import { openMemoryTrail } from '../../src/audit/memory-trail.ts';
import type { AuditEntry, ChainedEntry, Checkpoint } from '../../src/model/audit.ts';
import { runCli as run } from '../run-cli.ts';

const entry = (username: string, id: number): AuditEntry => ({
  username,
  client: 'svc',
  groups: [],
  dataset: 'birth',
  operation: 'lookup',
  path: `/v1/registration/birth/${id}`,
  query: '',
  results: 1,
  requestId: `req-${username}-${id}`,
  records: [{ type: 'birth', id }],
});

test(
  "audit verify --checkpoint checks the embedded store's audit file against the checkpoints it " + 'signed',
  async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'lev-file-checkpoint-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, 'audit.ndjson');
    const file = { path, maxBytes: 1 << 20, keep: 3, headPath: defaultHeadPath(path) };
    const signer = checkpointSigner(newSigningKey());
    const witnessed: Checkpoint[] = [];

    // Two runs of the service, each a checkpoint after some entries; the second continues the first's chain.
    const first = await openMemoryTrail({ keep: 100, file });
    for (const [n, user] of ['ann', 'bob', 'cy'].entries()) await first.append([entry(user, 100 + n)]);
    witnessed.push(first.checkpoint(signer)!);
    await first.append([entry('dee', 200), entry('eve', 201)]);
    await first.close();
    const second = await openMemoryTrail({ keep: 100, file });
    await second.append([entry('fay', 300), entry('gus', 301)]);
    witnessed.push(second.checkpoint(signer)!);
    await second.close();
    const given = join(dir, 'witnessed.json');
    await writeFile(given, JSON.stringify(witnessed));
    const env = { AUDIT_FILE: path };

    const intact = await run(t, ['audit', 'verify', '--checkpoint', given], env);
    assert.equal(intact.code, 0, intact.stderr);
    assert.match(
      intact.stdout,
      new RegExp(
        /^audit trail intact: 7 entries in 1 file\(s\), chain verified from its first entry, /.source +
          /and against the 2 checkpoint\(s\) given$/.source,
        'm',
      ),
    );
    assert.equal((await run(t, ['audit', 'verify'], env)).code, 0, 'AUDIT_FILE alone is checked as --file is');

    // A checkpoint of the PostgreSQL trail (several writers) says nothing of a file.
    const other = join(dir, 'other.json');
    const heads = [
      { writer: 'a', seq: 1, hash: witnessed[0].heads[0].hash },
      { writer: 'b', seq: 1, hash: witnessed[0].heads[0].hash },
    ];
    await writeFile(
      other,
      JSON.stringify(
        signer.sign(checkpointBody(new Date().toISOString(), { head: witnessed[0].origin, entries: 0 }, heads)),
      ),
    );
    const foreign = await run(t, ['audit', 'verify', '--checkpoint', other], env);
    assert.equal(foreign.code, 1);
    assert.match(
      foreign.stderr,
      new RegExp(
        /^audit trail BROKEN: the checkpoint of .* given cannot be taken at its word: /.source +
          /it names the PostgreSQL trail's writers, not an audit file's$/.source,
        'm',
      ),
    );

    // Bob's entry rewritten, every hash after it made to follow, and the head file with them: the chain alone
    // cannot tell.
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    let previous = (JSON.parse(lines[0]) as { previous: string }).previous;
    let last: ChainedEntry | undefined;
    const rewritten = [lines[0]];
    for (const line of lines.slice(1)) {
      const value = JSON.parse(line) as ChainedEntry;
      const changed = value.username === 'bob' ? { ...value, username: 'someone-else' } : value;
      last = { ...changed, hash: (previous = chainHash(previous, changed.at, changed)) };
      rewritten.push(JSON.stringify(last));
    }
    await writeFile(path, `${rewritten.join('\n')}\n`);
    await writeFile(defaultHeadPath(path), `${JSON.stringify({ hash: last!.hash, at: last!.at }).padEnd(255)}\n`);
    assert.equal(
      (await run(t, ['audit', 'verify'], env)).code,
      0,
      'a consistent rewrite: without a checkpoint it cannot be told',
    );
    const broken = await run(t, ['audit', 'verify', '--checkpoint', given], env);
    assert.equal(broken.code, 1);
    assert.equal(broken.stdout, '');
    assert.deepEqual(broken.stderr.split('\n'), [
      `audit trail BROKEN: the checkpoint of ${witnessed[0].at} given names a head that is not the entry 3 ` +
        `after its start: the chain was rewritten`,
      `audit trail BROKEN: the checkpoint of ${witnessed[1].at} given names a head and a start the chain does ` +
        `not pass through: the trail was rewritten`,
    ]);

    // Entries removed after a checkpoint's start: the checkpoint counts them.
    await writeFile(path, `${rewritten.slice(0, 3).join('\n')}\n`);
    await rm(defaultHeadPath(path));
    await writeFile(given, JSON.stringify(witnessed.slice(0, 1).map((c) => ({ ...c }))));
    const cut = await run(t, ['audit', 'verify', '--checkpoint', given], env);
    assert.equal(cut.code, 1);
    assert.match(
      cut.stderr,
      /given names entry 3 after its start, but the chain ends 2 entries after it: entries were removed$/m,
    );
  },
);
