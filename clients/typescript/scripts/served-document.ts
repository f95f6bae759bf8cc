/** The OpenAPI document this repository's service serves, read from an app built in this process. */
import { buildApp } from '../../../src/app.ts';
import { openMemoryBackend } from '../../../src/backend/memory.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { loadRecordTypes } from '../../../src/records/index.ts';

export async function servedDocument(): Promise<Record<string, any>> {
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const descriptions = await loadRecordTypes();
  const backend = await openMemoryBackend(descriptions, config.embeddedAudit);
  const app = await buildApp(config, { backend, descriptions });
  try {
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    if (response.statusCode !== 200) throw new Error(`/openapi.json answered ${response.statusCode}`);
    return response.json();
  } finally {
    await app.close();
    await backend.close();
  }
}
