import pg from 'pg';
import { candidatePasses } from '/work/main/src/match/keys.ts';
const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1/test' });
await c.connect();
await c.query('SET search_path = sugg1m');
const [surname, forenames, date] = process.argv.slice(2);
const passes = candidatePasses({ surname, forenames, date });
const keys = passes.flatMap((p) => p.keys); const of = passes.flatMap((p, i) => p.keys.map(() => i + 1));
console.log('passes', passes.map((p) => `${p.keys.length}/${p.limit}`).join(' '), 'keys', keys.length);
const sql = `EXPLAIN (ANALYZE, BUFFERS, TIMING) WITH hits AS (
           SELECT q.pass, k.id, count(*) AS shared, min(q.at) AS first
             FROM unnest($1::bigint[], $2::int[]) WITH ORDINALITY AS q(key, pass, at) JOIN birth_suggestion_key k ON k.key = q.key
            GROUP BY q.pass, k.id),
         ranked AS (
           SELECT id, row_number() OVER (PARTITION BY pass ORDER BY shared DESC, first, id) AS n, ($3::int[])[pass] AS cap FROM hits),
         chosen AS (SELECT DISTINCT id FROM ranked WHERE n <= cap)
         SELECT c.id::text AS id, to_char(s.date, 'YYYY-MM-DD') AS date, s.surname, s.forenames,
                EXISTS (SELECT FROM ranked WHERE n > cap) AS truncated
           FROM chosen c JOIN birth_search_key s ON s.id = c.id
          ORDER BY c.id`;
const params = [`{${keys.join(',')}}`, `{${of.join(',')}}`, `{${passes.map((p) => p.limit).join(',')}}`];
for (let i = 0; i < 3; i++) await c.query(sql, params);
const { rows } = await c.query(sql, params);
console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
await c.end();
