// Screening a beneficiary against the list held in the database and recording its alerts: used by the
// beneficiary endpoints and the seed, in the caller's database transaction.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { type beneficiaries, riskSettings, screeningAlerts, screeningListEntries } from '../db/schema.ts';
import { screen, screeningSensitivities, sensitivityThresholds, type ScreeningSensitivity } from './screening.ts';
import type { DbWriter } from '../db/client.ts';

type BeneficiaryRow = typeof beneficiaries.$inferSelect;
const a = screeningAlerts;

export const sensitivityKey = 'screening.sensitivity';
export const defaultSensitivity: ScreeningSensitivity = 'medium';

export const displayName = (row: Pick<BeneficiaryRow, 'kind' | 'companyName' | 'firstName' | 'lastName'>) =>
  row.kind === 'company' ? (row.companyName ?? '') : `${row.firstName ?? ''} ${row.lastName ?? ''}`.trim();

const newId = (prefix: string) => `${prefix}${randomBytes(8).toString('hex').toUpperCase()}`;

export async function currentSensitivity(reader: DbWriter): Promise<{ sensitivity: ScreeningSensitivity; version: number }> {
  const [row] = await reader.select().from(riskSettings).where(eq(riskSettings.key, sensitivityKey));
  const value = row?.value as ScreeningSensitivity | undefined;
  return { sensitivity: value && screeningSensitivities.includes(value) ? value : defaultSensitivity, version: row?.version ?? 0 };
}

/**
 * Screens a beneficiary against the whole list and records an open alert for each possible match not already
 * alerted for the same list entry and screened name (a dismissed false positive is not raised again for the same name).
 */
export async function screenBeneficiary(tx: DbWriter, row: BeneficiaryRow): Promise<number> {
  const { sensitivity } = await currentSensitivity(tx);
  const entries = await tx.select().from(screeningListEntries);
  const names = [...new Set([displayName(row), row.nameOnBankAccount])];
  const matches = screen({ names, dateOfBirth: row.kind === 'person' ? row.dateOfBirth : null }, entries, sensitivityThresholds[sensitivity]);
  if (matches.length === 0) return 0;
  const existing = await tx.select({ entryId: a.entryId, screenedName: a.screenedName }).from(a).where(eq(a.beneficiaryId, row.id));
  const known = new Set(existing.map((alert) => `${alert.entryId}|${alert.screenedName}`));
  const fresh = matches.filter((match) => !known.has(`${match.entryId}|${match.screenedName}`));
  if (fresh.length === 0) return 0;
  await tx.insert(a).values(
    fresh.map((match) => ({
      id: newId('SA'),
      beneficiaryId: row.id,
      businessId: row.businessId,
      entryId: match.entryId,
      score: Math.round(match.score * 1000),
      matchedName: match.matchedName,
      screenedName: match.screenedName,
      status: 'open' as const,
    })),
  );
  return fresh.length;
}
