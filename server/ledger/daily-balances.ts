// The ledger's day checkpoints (ledger_daily_balances): per account, business day and category, the count and sum
// of the day's credits and debits. The one way entries are inserted (insertLedgerEntries) adds them to their
// checkpoints in the same statement, so a checkpoint is always the sum of its entries; a statement then reads its
// opening balance, totals and each row's running balance from a few hundred checkpoints and the entries of at most
// a day either side, instead of summing every entry of the period (statement.ts).
//
// A day is the business's (periods.ts), cut by PostgreSQL's AT TIME ZONE with the zone of the account's business, here
// and in the readers alike, so a day holds 23, 24 or 25 hours of entries. The provider's own accounts (clearing,
// bank: no business) keep no checkpoints: every payment posts to them, and a row per currency and day would make all
// payments wait for each other; their statements sum entries as before. Rows are added in key order, so two
// writers never wait for each other's checkpoints in opposite orders.
import { sql, type SQL } from 'drizzle-orm';
import type { Db, DbWriter } from '../db/client.ts';
import { defaultBusinessTimeZone } from './periods.ts';

type Reader = Pick<Db, 'execute'>;
type Row = Record<string, unknown>;
const rowsOf = async (reader: Reader, query: SQL): Promise<Row[]> => ((await reader.execute(query)) as unknown as { rows: Row[] }).rows;

const defaultZone = sql.raw(`'${defaultBusinessTimeZone}'`);

/** The business day of an instant in a zone (both SQL), as the checkpoints cut it. */
export const sqlBusinessDay = (instant: SQL, zone: SQL) => sql`((${instant}) AT TIME ZONE ${zone})::date`;

/**
 * An instant at or before the first of a business day: its midnight less three hours, whatever the zone does with a
 * midnight that a clock change skips or repeats. Bounds an index range that a day filter then cuts exactly.
 */
const dayFloor = (day: SQL, zone: SQL) => sql`((((${day})::date)::timestamp AT TIME ZONE ${zone}) - interval '3 hours')`;

/** The checkpoint rows of some entries (a relation with account_id, category, amount_minor, value_at), in key order. */
function checkpointRowsOf(entries: SQL): SQL {
  return sql`SELECT i.account_id, ${sqlBusinessDay(sql`i.value_at`, sql`coalesce(b.time_zone, ${defaultZone})`)} AS day, i.category,
      count(*) FILTER (WHERE i.amount_minor >= 0) AS credits, coalesce(sum(i.amount_minor) FILTER (WHERE i.amount_minor >= 0), 0) AS credits_minor,
      count(*) FILTER (WHERE i.amount_minor < 0) AS debits, coalesce(sum(i.amount_minor) FILTER (WHERE i.amount_minor < 0), 0) AS debits_minor
    FROM ${entries} i
    JOIN ledger_accounts a ON a.id = i.account_id AND a.business_id IS NOT NULL
    LEFT JOIN businesses b ON b.id = a.business_id
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`;
}

const upsertCheckpoints = (rows: SQL) => sql`INSERT INTO ledger_daily_balances (account_id, day, category, credits, credits_minor, debits, debits_minor) ${rows}
  ON CONFLICT (account_id, day, category) DO UPDATE SET
    credits = ledger_daily_balances.credits + excluded.credits, credits_minor = ledger_daily_balances.credits_minor + excluded.credits_minor,
    debits = ledger_daily_balances.debits + excluded.debits, debits_minor = ledger_daily_balances.debits_minor + excluded.debits_minor`;

/**
 * Inserts ledger entries and adds them to their checkpoints, in one statement. `insert` is an INSERT INTO
 * ledger_entries … without RETURNING (a drizzle insert's getSQL() or raw SQL). Returns how many entries it inserted.
 */
export async function insertLedgerEntries(writer: DbWriter, insert: SQL): Promise<number> {
  const rows = await rowsOf(
    writer,
    sql`WITH inserted AS (${insert} RETURNING account_id, category, amount_minor, value_at),
    added AS (${upsertCheckpoints(checkpointRowsOf(sql`inserted`))})
    SELECT count(*)::int AS n FROM inserted`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** Rebuilds every checkpoint from the entries (the seed after its bulk load; a repair). */
export async function rebuildDailyBalances(writer: DbWriter): Promise<void> {
  await writer.execute(sql`DELETE FROM ledger_daily_balances`);
  await writer.execute(upsertCheckpoints(checkpointRowsOf(sql`ledger_entries`)));
}

/**
 * Where checkpoints and entries disagree (the invariant the property tests hold after every step): per account, day
 * and category, what the checkpoint says and what the entries sum to. Empty when the checkpoints are right.
 */
export async function dailyBalanceDiscrepancies(
  reader: Reader,
): Promise<{ accountId: string; day: string; category: string; checkpoint: string; entries: string }[]> {
  const rows = await rowsOf(
    reader,
    sql`WITH actual AS (${checkpointRowsOf(sql`ledger_entries`)})
    SELECT coalesce(c.account_id, x.account_id) AS account_id, coalesce(c.day, x.day)::text AS day, coalesce(c.category, x.category) AS category,
      coalesce(c.credits || '/' || c.credits_minor || '/' || c.debits || '/' || c.debits_minor, 'none') AS checkpoint,
      coalesce(x.credits || '/' || x.credits_minor || '/' || x.debits || '/' || x.debits_minor, 'none') AS entries
    FROM ledger_daily_balances c FULL JOIN actual x ON x.account_id = c.account_id AND x.day = c.day AND x.category = c.category
    WHERE c.account_id IS NULL OR x.account_id IS NULL OR (c.credits, c.credits_minor, c.debits, c.debits_minor) <> (x.credits, x.credits_minor, x.debits, x.debits_minor)
    ORDER BY 1, 2, 3`,
  );
  return rows.map((row) => ({
    accountId: String(row.account_id),
    day: String(row.day),
    category: String(row.category),
    checkpoint: String(row.checkpoint),
    entries: String(row.entries),
  }));
}

/** The zone an account's checkpoints are cut in, or null when it keeps none (the provider's accounts, no such account). */
export async function checkpointZone(reader: Reader, accountId: string): Promise<string | null> {
  const [row] = await rowsOf(
    reader,
    sql`SELECT coalesce(b.time_zone, ${defaultZone}) AS zone FROM ledger_accounts a LEFT JOIN businesses b ON b.id = a.business_id
    WHERE a.id = ${accountId} AND a.business_id IS NOT NULL`,
  );
  return row ? String(row.zone) : null;
}

export type PeriodBounds = { start: Date | null; end: Date | null };

/**
 * The period's movements per business day and category (day 'YYYY-MM-DD', credits, creditsMinor, debits, debitsMinor
 * as SQL columns): the checkpoints of its days, less the entries of its first day before the start and of its last
 * day after the end (a period cut mid-day). The entries read are at most a day at each end.
 */
export function periodCheckpoints(accountId: string, zone: string, period: PeriodBounds): SQL {
  const z = sql`${zone}::text`;
  const startDay = period.start ? sqlBusinessDay(sql`${period.start}::timestamptz`, z) : null;
  const endDay = period.end ? sqlBusinessDay(sql`${period.end}::timestamptz`, z) : null;
  const edge = (where: SQL) => sql`SELECT ${sqlBusinessDay(sql`e.value_at`, z)} AS day, e.category,
      -count(*) FILTER (WHERE e.amount_minor >= 0) AS credits, -coalesce(sum(e.amount_minor) FILTER (WHERE e.amount_minor >= 0), 0) AS credits_minor,
      -count(*) FILTER (WHERE e.amount_minor < 0) AS debits, -coalesce(sum(e.amount_minor) FILTER (WHERE e.amount_minor < 0), 0) AS debits_minor
    FROM ledger_entries e WHERE e.account_id = ${accountId} AND ${where} GROUP BY 1, 2`;
  const parts: SQL[] = [
    sql`SELECT d.day, d.category, d.credits::bigint AS credits, d.credits_minor::numeric AS credits_minor, d.debits::bigint AS debits, d.debits_minor::numeric AS debits_minor
    FROM ledger_daily_balances d WHERE d.account_id = ${accountId}${startDay ? sql` AND d.day >= ${startDay}` : sql``}${endDay ? sql` AND d.day <= ${endDay}` : sql``}`,
  ];
  if (period.start && startDay) {
    parts.push(
      edge(sql`e.value_at >= ${dayFloor(startDay, z)} AND e.value_at < ${period.start}::timestamptz AND ${sqlBusinessDay(sql`e.value_at`, z)} >= ${startDay}`),
    );
  }
  if (period.end && endDay) {
    parts.push(
      edge(
        sql`e.value_at > ${period.end}::timestamptz AND e.value_at < ${dayFloor(sql`${endDay} + 1`, z)} + interval '6 hours' AND ${sqlBusinessDay(sql`e.value_at`, z)} <= ${endDay}`,
      ),
    );
  }
  return sql.join(parts, sql` UNION ALL `);
}

/** The balance before a period's start: the checkpoints of the days before its first, and that day's entries before it. */
export async function openingBalanceOf(reader: Reader, accountId: string, zone: string, start: Date): Promise<number> {
  const z = sql`${zone}::text`;
  const startDay = sqlBusinessDay(sql`${start}::timestamptz`, z);
  const [row] = await rowsOf(
    reader,
    sql`SELECT
      (SELECT coalesce(sum(d.credits_minor + d.debits_minor), 0) FROM ledger_daily_balances d WHERE d.account_id = ${accountId} AND d.day < ${startDay})
      + (SELECT coalesce(sum(e.amount_minor), 0) FROM ledger_entries e WHERE e.account_id = ${accountId}
          AND e.value_at >= ${dayFloor(startDay, z)} AND e.value_at < ${start}::timestamptz AND ${sqlBusinessDay(sql`e.value_at`, z)} >= ${startDay}) AS opening`,
  );
  return Number(row?.opening ?? 0);
}

/**
 * The balance after each of some entries (by id): everything posted to the account up to and including it in
 * (value date, id) order, which is the statement's running balance whatever its period (its opening balance is
 * everything before). The checkpoints of the days before the entry's, plus its own day's entries up to it.
 */
export async function balancesAfterEntries(reader: Reader, accountId: string, zone: string, entryIds: readonly number[]): Promise<Map<number, number>> {
  if (entryIds.length === 0) return new Map();
  const z = sql`${zone}::text`;
  const rows = await rowsOf(
    reader,
    sql`WITH page AS (
      SELECT e.id, e.value_at, ${sqlBusinessDay(sql`e.value_at`, z)} AS day FROM ledger_entries e
      WHERE e.account_id = ${accountId} AND e.id IN (${sql.join(
        entryIds.map((id) => sql`${id}`),
        sql`, `,
      )})
    ), before_day AS (
      SELECT d.day, sum(sum(d.credits_minor + d.debits_minor)) OVER (ORDER BY d.day) - sum(d.credits_minor + d.debits_minor) AS before
      FROM ledger_daily_balances d WHERE d.account_id = ${accountId} AND d.day <= (SELECT max(day) FROM page) GROUP BY d.day
    )
    SELECT p.id, coalesce(b.before, 0) + (SELECT coalesce(sum(x.amount_minor), 0) FROM ledger_entries x
        WHERE x.account_id = ${accountId} AND x.value_at >= ${dayFloor(sql`p.day`, z)} AND x.value_at <= p.value_at
          AND (x.value_at < p.value_at OR x.id <= p.id) AND ${sqlBusinessDay(sql`x.value_at`, z)} = p.day) AS balance
    FROM page p LEFT JOIN before_day b ON b.day = p.day`,
  );
  return new Map(rows.map((row) => [Number(row.id), Number(row.balance)]));
}
