/**
 * The pick-up phase: wallets picking credentials up, each connection one wallet going through a
 * pick-up after another (the token request redeeming an offer's pre-authorised code, a nonce, the
 * credential request with a proof of its key signed over that nonce), as OpenID4VCI has it. Each
 * pick-up redeems an offer made before the phase, outside its measurement, so that the phase's CPU
 * is the pick-up's alone (the offer phase measures offers). An offer is single use: the pool of
 * offers is sized from a short calibration run first, and a phase that ran out of them, or had any
 * step refused, is not reported.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import type { Request } from 'autocannon';
import { Random } from '../../src/generate/random.ts';
import { log } from './log.ts';
import type { Options } from './options.ts';
import { type Measurements, RefusedError, phase } from './phases.ts';
import type { Row } from './report.ts';
import type { Target } from './targets.ts';
import { type Dataset, type WalletFormat, offerRequest } from './workload.ts';

/** Requests a pick-up makes: token, nonce, credential. */
export const PICK_UP_REQUESTS = 3;
/** Offers made at once for the pool, as departments would send them. */
const OFFERS_IN_FLIGHT = 16;
/** The calibration's seconds, and the offers each of its connections starts with. */
const CALIBRATION_S = 2;
const CALIBRATION_OFFERS = 40;
/** Pick-ups the pool holds beyond the calibrated rate's, for the run's drift and autocannon's last second. */
const POOL_MARGIN = 1.5;
const PRE_AUTHORIZED_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

const b64 = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url');

/** Pre-authorised codes of offers made now, and the issuer they name (a proof's audience). */
interface Pool {
  readonly codes: string[];
  readonly issuer: string;
}

/** `count` offers of held births (those answered 409, blocked, cancelled or replaced, are passed over). */
async function offersMade(url: string, dataset: Dataset, format: WalletFormat, count: number, seed: string) {
  const r = Random.fromString(`bench-pick-up-offers\u0000${dataset.seed}\u0000${seed}`);
  const codes: string[] = [];
  let issuer = '';
  let asked = 0;
  const maker = async () => {
    while (codes.length < count) {
      if (++asked > count * 3 + 100) throw new RefusedError(`pick-up: too few of ${asked} offers were made`);
      const { method, path, headers, body } = offerRequest(
        dataset.firstId + r.int(0, dataset.counts.birth - 1),
        format,
      );
      const response = await fetch(`${url}${path}`, { method, headers, body });
      const text = await response.text();
      if (response.status === 409) continue;
      if (response.status !== 201) throw new RefusedError(`pick-up: an offer was answered ${response.status}: ${text}`);
      const offer = JSON.parse(
        new URL((JSON.parse(text) as { offer: string }).offer).searchParams.get('credential_offer') ?? '{}',
      );
      issuer = offer.credential_issuer;
      codes.push(offer.grants[PRE_AUTHORIZED_GRANT]['pre-authorized_code']);
    }
  };
  await Promise.all(Array.from({ length: OFFERS_IN_FLIGHT }, maker));
  return { codes, issuer };
}

/**
 * Each connection's pick-ups, one wallet key a connection: the requests take the next code of the
 * pool, and the access token and nonce of the answers before them (autocannon's context, which it
 * clears at the end of the list, after each pick-up). A spent pool sends a code that is no offer's.
 */
function pickUpLists(pool: Pool, connections: number, done: { pickUps: number }): Request[][] {
  return Array.from({ length: connections }, () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
    const header = b64({ typ: 'openid4vci-proof+jwt', alg: 'ES256', jwk: { kty, crv, x, y } });
    type Wallet = { accessToken?: string; nonce?: string };
    const json = (status: number, body: string) => (status === 200 ? JSON.parse(body) : {});
    return [
      {
        method: 'POST',
        path: '/v1/wallet/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        setupRequest: (request) => ({
          ...request,
          body: new URLSearchParams({
            grant_type: PRE_AUTHORIZED_GRANT,
            'pre-authorized_code': pool.codes.pop() ?? 'spent',
          }).toString(),
        }),
        onResponse: (status, body, context) => {
          (context as Wallet).accessToken = json(status, body).access_token;
        },
      },
      {
        method: 'POST',
        path: '/v1/wallet/nonce',
        onResponse: (status, body, context) => {
          (context as Wallet).nonce = json(status, body).c_nonce;
        },
      },
      {
        method: 'POST',
        path: '/v1/wallet/credential',
        setupRequest: (request, context) => {
          const { accessToken, nonce } = context as Wallet;
          const payload = b64({ aud: pool.issuer, iat: Math.floor(Date.now() / 1000), nonce });
          const signature = sign('sha256', Buffer.from(`${header}.${payload}`), {
            key: privateKey,
            dsaEncoding: 'ieee-p1363',
          }).toString('base64url');
          return {
            ...request,
            headers: { authorization: `Bearer ${accessToken ?? 'none'}`, 'content-type': 'application/json' },
            body: JSON.stringify({ proofs: { jwt: [`${header}.${payload}.${signature}`] } }),
          };
        },
        onResponse: (status) => {
          if (status === 200) done.pickUps++;
        },
      },
    ] satisfies Request[];
  });
}

/**
 * The pick-up scenario in each mode, as scenarioPhases runs the others: a calibration (not
 * reported, and a warm-up of the pick-up's code) sizes the pool of offers, made before each phase.
 */
export async function pickUpPhases(
  measurements: Measurements,
  opts: Options,
  target: Target,
  dataset: Dataset,
  round?: number,
) {
  const url = target.server.url;
  const offers = (count: number, seed: string) => offersMade(url, dataset, opts.walletFormat, count, seed);
  const run = async (pool: Pool, scenario: string, mode: Parameters<typeof phase>[5], seconds?: number) => {
    const done = { pickUps: 0 };
    const row = await phase(
      measurements,
      opts,
      target,
      scenario,
      pickUpLists(pool, opts.connections, done),
      mode,
      seconds,
    );
    return { row, done, left: pool.codes.length };
  };
  // The calibration, again with twice the offers while they run out before its end.
  let perSecond: number | undefined;
  for (let offered = opts.connections * CALIBRATION_OFFERS; perSecond === undefined; offered *= 2) {
    if (offered > 1_000_000) throw new RefusedError('pick-up: the calibration ran out of a million offers');
    const pool = await offers(offered, `calibration-${round}-${offered}`);
    const { done, left, row } = await run(pool, 'pick-up calibration', { kind: 'max' }, CALIBRATION_S);
    if (left > 0 && !done.pickUps)
      throw new RefusedError(`pick-up: no pick-up was completed (answers ${JSON.stringify(row.statuses)})`);
    if (left > 0) perSecond = done.pickUps / CALIBRATION_S;
  }
  let max: Row | undefined;
  for (const kind of ['max', 'rate'] as const) {
    if (!opts.modes.includes(kind)) continue;
    const rate =
      kind === 'max'
        ? undefined
        : 'percent' in opts.rate
          ? Math.max(1, Math.round((max!.rps * opts.rate.percent) / 100))
          : opts.rate.perSecond;
    const expected = rate === undefined ? perSecond : Math.min(rate / PICK_UP_REQUESTS, perSecond * POOL_MARGIN);
    const size = Math.ceil(expected * (opts.duration + 1) * POOL_MARGIN) + 2 * opts.connections;
    log(
      `pick-up: making ${size} offers (${opts.walletFormat}) for the ${kind === 'max' ? 'closed loop' : `${rate}/s`}`,
    );
    const pool = await offers(size, `${kind}-${round}`);
    const { row, left } = await run(pool, 'pick-up', rate === undefined ? { kind: 'max' } : { kind: 'rate', rate });
    const refused = Object.entries(row.statuses).filter(([status]) => status !== '200');
    if (left === 0 || refused.length)
      throw new RefusedError(
        `refusing to report pick-up ` +
          `(${target.store}, ${kind}): ` +
          `${left === 0 ? `its ${size} offers ran out` : `answers ${JSON.stringify(Object.fromEntries(refused))}`}`,
      );
    if (kind === 'max') max = row;
    measurements.rows.push({ ...row, round });
  }
}

/** Each store's offers and complete pick-ups a second, and the server's CPU for one, from the closed-loop rows. */
export function walletLines(rows: readonly Row[], format: WalletFormat): string[] {
  return [...new Set(rows.map((row) => row.store))].flatMap((store) => {
    const closed = (scenario: string) =>
      rows.find((row) => row.store === store && row.scenario === scenario && row.mode === 'max');
    const [offer, pickUp] = [closed('offer'), closed('pick-up')];
    if (!offer && !pickUp) return [];
    const cpu = (row: Row, per: number) =>
      row.server.cpuMicrosPerRequest === null
        ? ''
        : `, server CPU ${Math.round(row.server.cpuMicrosPerRequest * per).toLocaleString('en-GB')} µs each`;
    return [
      `wallet (${store}, ${format}): ` +
        [
          offer && `${Math.round(offer.rps).toLocaleString('en-GB')} offers/s${cpu(offer, 1)}`,
          pickUp &&
            `${Math.round(pickUp.rps / PICK_UP_REQUESTS).toLocaleString('en-GB')} complete pick-ups/s ` +
              `(token, nonce, credential)${cpu(pickUp, PICK_UP_REQUESTS)}`,
        ]
          .filter(Boolean)
          .join('; '),
    ];
  });
}
