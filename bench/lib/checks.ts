/**
 * Before anything is measured: the server answers lookups, searches and verifications as the
 * generated data says it must, so that a fast wrong answer is never reported.
 */
import type { Server } from './processes.ts';
import {
  type Dataset,
  GENERATED_TYPES,
  IDENTITY,
  lookupPath,
  searchPath,
  searchQueries,
  verificationPath,
  verificationQueries,
} from './workload.ts';

async function get(url: string) {
  const response = await fetch(url, { headers: IDENTITY, signal: AbortSignal.timeout(10_000) });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

/**
 * Lookups and searches answer as the generated data says they must; returns a
 * typical rendered record (the median-sized of the first existing births), the
 * ceiling's body.
 */
export async function check(server: Server, dataset: Dataset): Promise<Buffer> {
  const fail = (what: string) => {
    throw new Error(`${server.name} does not answer as the generated data says it must: ${what}`);
  };
  const bodies: Buffer[] = [];
  for (let id = dataset.firstId; id < dataset.firstId + Math.min(21, dataset.counts.birth); id++) {
    const answer = await get(server.url + lookupPath('birth', id));
    if (answer.status !== 200 || JSON.parse(answer.body.toString()).id !== id)
      fail(`birth ${id} answered ${answer.status}`);
    bodies.push(answer.body);
  }
  const missing = await get(server.url + lookupPath('birth', dataset.firstId + dataset.counts.birth));
  if (missing.status !== 404) fail(`a missing birth answered ${missing.status}`);
  for (const type of GENERATED_TYPES) {
    for (const sample of searchQueries(dataset, type).slice(0, 20)) {
      const answer = await get(server.url + searchPath(type, sample.query));
      if (answer.status !== 200) fail(`a ${type} search answered ${answer.status}`);
      const ids = (JSON.parse(answer.body.toString()) as { id: number }[]).map((r) => r.id);
      const truncated = answer.headers.get('x-results-truncated') === 'true';
      if (sample.expectId === null ? ids.length > 0 : !ids.includes(sample.expectId) && !truncated) {
        fail(
          `${type} search ${JSON.stringify(sample.query)} found [${ids.join(', ')}], ` +
            `expected ${sample.expectId ?? 'nothing'}`,
        );
      }
    }
  }
  for (const type of GENERATED_TYPES) {
    const samples = verificationQueries(dataset, type).slice(0, 40);
    let verified = 0;
    for (const sample of samples) {
      const answer = await get(server.url + verificationPath(type, sample.query));
      const body = answer.body.toString();
      if (answer.status !== 200 || (body !== '{"verified":true}' && body !== '{"verified":false}'))
        fail(`a ${type} verification answered ${answer.status} ${body}`);
      if (!sample.fromRecord && body !== '{"verified":false}')
        fail(`${type} verification ${JSON.stringify(sample.query)} verified a surname no record has`);
      if (sample.fromRecord && body === '{"verified":true}') verified++;
    }
    // A record's own details fail only when it is blocked or replaced (rare), or another record shares them.
    const fromRecords = samples.filter((s) => s.fromRecord).length;
    if (verified < 0.8 * fromRecords)
      fail(`only ${verified} of ${fromRecords} ${type} verifications made from records verified`);
  }
  return bodies.sort((a, b) => a.length - b.length)[Math.floor(bodies.length / 2)];
}
