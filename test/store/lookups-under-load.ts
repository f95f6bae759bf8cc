/**
 * 20 keep-alive clients reading one record from a service until told to stop, for the tests that
 * crash a primary under load (synchronous-audit.test.ts, primary-failover.test.ts): every answer's
 * status is counted, and each 200's request id and time are kept, to be matched with the audit trail.
 */
import { Agent, get } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { CALLER } from '../helper.ts';

export const PATH = '/v1/registration/birth/123456789';

export interface Answers {
  readonly statuses: Record<string, number>;
  /** The request ids of the 200s. */
  readonly answered: string[];
  /** When each 200 arrived (Date.now()), in the order of `answered`. */
  readonly answeredAt: number[];
}

export async function drive(url: string, stop: Promise<unknown>): Promise<Answers> {
  const agent = new Agent({ keepAlive: true, maxSockets: 20 });
  const answers: Answers = { statuses: {}, answered: [], answeredAt: [] };
  let running = true;
  void stop.then(() => (running = false));
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (running) {
        const status = await new Promise<string>((resolve) => {
          get(url + PATH, { agent, headers: CALLER }, (response) => {
            if (response.statusCode === 200) {
              answers.answered.push(String(response.headers['x-request-id']));
              answers.answeredAt.push(Date.now());
            }
            response
              .resume()
              .once('end', () => resolve(String(response.statusCode)))
              .once('error', () => resolve('error'));
          }).once('error', () => resolve('error'));
        });
        answers.statuses[status] = (answers.statuses[status] ?? 0) + 1;
        // Between a crash and the service's recovery the answers are 503s: no need to spin on them.
        if (status !== '200') await sleep(20);
      }
    }),
  );
  agent.destroy();
  return answers;
}
