/**
 * `npm start` with MOCK_WEBHOOKS: the mock subscribes the URL to every event, prints its secret
 * once, and calls the receiver with the live mock's new registrations, signed with that secret.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { startReceiver, until } from '../webhooks/receiver.ts';
import { builtInTypes as records } from '../record-types.ts';

const BIN = fileURLToPath(new URL('../../bin/lev-api.js', import.meta.url));

test("MOCK_WEBHOOKS: the receiver is called with the live mock's registrations, signed with the secret " +
  'printed at start', {
  timeout: 60_000,
}, async (t) => {
  const receiver = await startReceiver(t);
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      MOCK_WEBHOOKS: receiver.url,
      MOCK_EVENT_INTERVAL_S: '1',
      WEBHOOK_ALLOW_HTTP: 'loopback',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  await until(() => /MOCK_WEBHOOKS: .* signed with whsec_/.test(out), 'the secret printed', 30_000);
  const secret = /signed with (whsec_\S+)/.exec(out)![1];
  assert.equal(out.match(/whsec_/g)!.length, 1, 'the secret shown once');
  await until(() => receiver.received.length >= 2, "two of the live mock's registrations", 30_000);
  for (const request of receiver.received.slice(0, 2)) {
    const event = new Webhook(secret).verify(request.body, request.headers) as { type: string };
    assert.match(event.type, new RegExp(`^(${records.map((record) => record.name).join('|')})\\.registered$`));
  }
  assert.ok(receiver.taken()[1] > receiver.taken()[0]);
});
