import { PGlite } from '@electric-sql/pglite';
const c = await PGlite.create();
const r = await c.query<{v:string}>(`select version() v union all select string_agg(hashint8extended(i, 7)::text, ',')::text from generate_series(1,5) i union all select md5(string_agg(hashint8extended(i, i % 13)::text, ',' order by i)) from generate_series(1,100000) i`);
console.log(r.rows);
