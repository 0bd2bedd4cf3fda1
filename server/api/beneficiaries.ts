// Beneficiaries of a business, screened against the sanctions and PEP list on creation and on every change
//, and the screening alerts risk analysts resolve.
//
// {business} = /businesses/{businessId}. An unreachable business, or a beneficiary of another, answers 404; a
// reachable one without the permission 403. Business rules refused: 422 with the reason.
//
// | method | path                                              | permission                | answer                                  |
// |--------|---------------------------------------------------|---------------------------|-----------------------------------------|
// | GET    | {business}/beneficiaries                          | Mapi.Beneficiary.Read     | { results, numberOfResults } (list convention; filters status, kind; sort created, name, status) |
// | GET    | {business}/beneficiaries/{id}                     | Mapi.Beneficiary.Read     | the beneficiary, its alerts, whether the caller may approve it |
// | POST   | {business}/beneficiaries                          | Mapi.Beneficiary.Create   | 201, status Referred, screened; IBAN mod-97 and BIC checked (400) |
// | PUT    | {business}/beneficiaries/{id}                     | Mapi.Beneficiary.Create   | changed, back to Referred, screened again; 409 on a stale version |
// | PUT    | {business}/beneficiaries/{id}/status  { status }  | Mapi.Beneficiary.Approve  | Approved: not by its creator or last changer (four eyes, 422), not with open or confirmed alerts (422), not by someone they invited in the last 7 days (403), only from a sign-in with two-factor (403); every owner of the business is emailed |
// | PUT    | {business}/beneficiaries/{id}/alerts/{alertId}    | Mapi.Screening.Resolve    | { decision: confirmed or dismissed, reason, version }; a confirmed match rejects the beneficiary |
// | GET    | /screening-alerts                                 | Mapi.Screening.Resolve at root | every business's alerts, with business and beneficiary names (filter status; sort created, score) |
// | GET    | /screening/settings                               | Mapi.Screening.Resolve at root | { sensitivity, threshold, version } |
// | PUT    | /screening/settings  { sensitivity, version }     | Mapi.Screening.Resolve at root | the settings; 409 on a stale version |
// Every write is audited (BeneficiaryCreated, BeneficiaryChanged, BeneficiaryStatusChanged, ScreeningAlertResolved,
// ScreeningSettingsChanged) in its own database transaction.
//
// Who changed what: last_changed_by is whoever last changed the details (four eyes: they cannot approve them);
// status_changed_by and status_changed_utc whoever approved or rejected it and when. The answer's lastChangedBy is
// the latest of the two, with its time.
import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import {
  alertDecisionBody,
  beneficiaryBody,
  beneficiaryStatusBody,
  beneficiaryUpdateBody,
  screeningSettingsBody,
  type BeneficiaryBody,
} from '../../src/contract/beneficiary-schemas.ts';
import {
  approverTwoFactorMessage,
  beneficiaryListSpec,
  fourEyesMessage,
  independentApproverDays,
  independentApproverMessage,
  openAlertsMessage,
  screeningAlertListSpec,
} from '../../src/contract/beneficiaries.ts';
import type { Beneficiary, BeneficiaryListItem, ScreeningAlert } from '../../src/contract/beneficiary-schemas.ts';
import { bicProblem, ibanProblem, normaliseIban } from '../../src/contract/iban.ts';
import type { PermissionName } from '../../src/contract/permissions.ts';
import { recordAudit } from '../audit/record.ts';
import type { Db, DbWriter } from '../db/client.ts';
import { now } from '../clock.ts';
import {
  auditEvents,
  beneficiaries,
  businesses,
  riskSettings,
  screeningAlerts,
  screeningListEntries,
  userInvitations,
  userRoles,
  users,
} from '../db/schema.ts';
import { portalLink } from '../mail/compose.ts';
import { isPlausibleEmailAddress, queueEmail } from '../mail/outbox.ts';
import { resolveContext, type Principal } from '../policy/principal.ts';
import { permissionsOfRoles } from '../policy/role-permissions.ts';
import { sensitivityThresholds } from '../risk/screening.ts';
import { currentSensitivity, displayName, screenBeneficiary, sensitivityKey } from '../risk/screen-beneficiary.ts';
import { type AppEnv, type Deps, readBody, requirePermission } from '../http/env.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import {
  filterCondition,
  orderByOf,
  orderKeysOf,
  parseListRequest,
  singleValuedQuery,
  assertResourceMatchesSpec,
  type ListResource,
} from '../http/list-sql.ts';

const b = beneficiaries;
const a = screeningAlerts;

export const beneficiaryResource: ListResource = {
  spec: beneficiaryListSpec,
  filters: { status: { type: 'equals', column: b.status }, kind: { type: 'equals', column: b.kind } },
  sorts: {
    created: [
      { expression: b.createdUtc, descending: false },
      { expression: b.id, descending: false },
    ],
    name: [
      { expression: sql`lower(coalesce(${b.companyName}, ${b.lastName} || ' ' || ${b.firstName}))`, descending: false },
      { expression: b.id, descending: false },
    ],
    status: [
      { expression: b.status, descending: false },
      { expression: b.id, descending: false },
    ],
  },
};
assertResourceMatchesSpec(beneficiaryResource);

export const alertResource: ListResource = {
  spec: screeningAlertListSpec,
  filters: { status: { type: 'equals', column: a.status } },
  sorts: {
    created: [
      { expression: a.createdUtc, descending: false },
      { expression: a.id, descending: false },
    ],
    score: [
      { expression: a.score, descending: false },
      { expression: a.id, descending: false },
    ],
  },
};
assertResourceMatchesSpec(alertResource);

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
const newId = (prefix: string) => `${prefix}${randomBytes(8).toString('hex').toUpperCase()}`;

type BeneficiaryRow = typeof beneficiaries.$inferSelect;

/** The body's own rules beyond its shape: what a company or a person needs, IBAN checksum, BIC format. */
function checkBody(body: BeneficiaryBody): { iban: string; bic: string } {
  const problems: string[] = [];
  if (body.kind === 'company' && !body.companyName?.trim()) problems.push('A company needs its company name.');
  if (body.kind === 'person') {
    if (!body.firstName?.trim() || !body.lastName?.trim()) problems.push('A person needs a first and a last name.');
    if (!body.dateOfBirth) problems.push('A person needs a date of birth.');
  }
  if (body.dateOfBirth) {
    const date = new Date(`${body.dateOfBirth}T00:00:00Z`);
    if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== body.dateOfBirth || date.getTime() > Date.now())
      problems.push('The date of birth is not a past date.');
  }
  const ibanIssue = ibanProblem(body.iban);
  if (ibanIssue) problems.push(ibanIssue);
  const bicIssue = bicProblem(body.bic);
  if (bicIssue) problems.push(bicIssue);
  if (problems.length > 0) throw badRequest(problems);
  return { iban: normaliseIban(body.iban), bic: body.bic.trim().toUpperCase() };
}

async function alertsOf(reader: DbWriter, where: SQL | undefined, order: SQL[], limit = 500, offset = 0): Promise<ScreeningAlert[]> {
  const rows = await reader
    .select({ alert: a, entry: screeningListEntries, beneficiary: b, businessName: businesses.name })
    .from(a)
    .innerJoin(screeningListEntries, eq(screeningListEntries.id, a.entryId))
    .innerJoin(b, eq(b.id, a.beneficiaryId))
    .leftJoin(businesses, eq(businesses.id, a.businessId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  const resolverIds = [...new Set(rows.map((row) => row.alert.resolvedBy).filter((id): id is string => id !== null))];
  const names = await userNames(reader, resolverIds);
  return rows.map(({ alert, entry, beneficiary, businessName }) => ({
    alertId: alert.id,
    beneficiaryId: alert.beneficiaryId,
    businessId: alert.businessId,
    // The business's name for people reading the queue; its id when the business row is gone.
    businessName: businessName ?? alert.businessId,
    beneficiaryName: displayName(beneficiary),
    entryId: entry.id,
    list: entry.list,
    listedName: entry.name,
    matchedName: alert.matchedName,
    screenedName: alert.screenedName,
    listedDateOfBirth: entry.dateOfBirth,
    listedCountry: entry.country,
    listedReason: entry.reason,
    score: alert.score / 1000,
    status: alert.status,
    reason: alert.reason,
    resolvedBy: alert.resolvedBy ? (names.get(alert.resolvedBy) ?? alert.resolvedBy) : null,
    resolvedUtc: alert.resolvedUtc?.toISOString() ?? null,
    createdUtc: alert.createdUtc.toISOString(),
    version: alert.version,
  }));
}

async function userNames(reader: DbWriter, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await reader.select({ id: users.id, givenName: users.givenName, familyName: users.familyName }).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, `${row.givenName} ${row.familyName}`]));
}

/** Root-level only: a permission that a root role of the caller confers (risk analysts work across businesses). */
function requireRootPermission(principal: Principal, permission: PermissionName): void {
  const roots = principal.grants.filter((grant) => grant.level === 'root').map((grant) => grant.role);
  if (!permissionsOfRoles(roots).has(permission)) throw forbidden();
}

export function beneficiaryRoutes({ database, publicUrl }: Deps) {
  const { db } = database;
  const routes = new Hono<AppEnv>();
  const prefix = '/businesses/:businessId/beneficiaries';

  async function businessOf(c: Context<AppEnv>, permission: PermissionName) {
    const businessId = c.req.param('businessId') ?? '';
    if (!idPattern.test(businessId)) throw notFound();
    const resolved = await resolveContext(database, c.get('principal'), businessId);
    if (!resolved) throw notFound();
    requirePermission(resolved.permissions, permission);
    return { businessId: resolved.business.id, permissions: resolved.permissions };
  }

  async function findBeneficiary(reader: DbWriter, businessId: string, id: string): Promise<BeneficiaryRow> {
    if (!idPattern.test(id)) throw notFound();
    const [row] = await reader
      .select()
      .from(b)
      .where(and(eq(b.id, id), eq(b.businessId, businessId)));
    if (!row) throw notFound();
    return row;
  }

  const audit = (tx: DbWriter, c: Context<AppEnv>, event: string, businessId: string | null, metaData: Record<string, unknown>) =>
    recordAudit(tx, c.get('principal'), event, { businessId, merchantId: null }, metaData, { at: now() });

  async function blockingAlerts(reader: DbWriter, id: string): Promise<number> {
    const [row] = await reader
      .select({ value: count() })
      .from(a)
      .where(and(eq(a.beneficiaryId, id), inArray(a.status, ['open', 'confirmed'])));
    return Number(row?.value ?? 0);
  }

  /**
   * Whether its creator or last changer brought the caller in within the last 7 days: an invitation they sent (to a
   * new or a pending account), or access they gave an existing account to this business (invited again, or roles
   * added). Such an approver may be the same person under a second account, so is not a second pair of eyes.
   */
  async function invitedByAuthor(reader: DbWriter, row: BeneficiaryRow, approverId: string): Promise<boolean> {
    const authors = [...new Set([row.createdBy, row.lastChangedBy])];
    const since = new Date(now().getTime() - independentApproverDays * 86_400_000);
    const [invitation] = await reader
      .select({ id: userInvitations.id })
      .from(userInvitations)
      .where(and(eq(userInvitations.userId, approverId), inArray(userInvitations.invitedBy, authors), gte(userInvitations.createdAt, since)))
      .limit(1);
    if (invitation) return true;
    const e = auditEvents;
    const [granted] = await reader
      .select({ id: e.id })
      .from(e)
      .where(
        and(
          eq(e.businessId, row.businessId),
          gte(e.dateTimeUtc, since),
          inArray(e.userId, authors),
          inArray(e.event, ['UserInvited', 'UserAccessGranted', 'UserUpdated']),
          sql`${e.metaData}->>'targetUserId' = ${approverId}`,
          // A change of someone's names is no grant: only an update that added roles counts.
          sql`(${e.event} <> 'UserUpdated' OR (CASE WHEN jsonb_typeof(${e.metaData}->'added') = 'array' THEN jsonb_array_length(${e.metaData}->'added') ELSE 0 END) > 0)`,
        ),
      )
      .limit(1);
    return granted !== undefined;
  }

  type Refusal = { status: 403 | 422; message: string };

  /**
   * Why the caller may not approve it now, or null. The record's own state first (four eyes, alerts: 422), then
   * whether the caller is an independent second person signed in with two-factor (403).
   */
  async function approvalRefusal(
    reader: DbWriter,
    row: BeneficiaryRow,
    principal: Principal,
    permissions: Set<PermissionName>,
    amr: readonly string[],
  ): Promise<Refusal | null> {
    if (!permissions.has('Mapi.Beneficiary.Approve')) return { status: 403, message: 'You do not have the correct permissions.' };
    if (row.createdBy === principal.userId || row.lastChangedBy === principal.userId) return { status: 422, message: fourEyesMessage };
    if ((await blockingAlerts(reader, row.id)) > 0) return { status: 422, message: openAlertsMessage };
    if (await invitedByAuthor(reader, row, principal.userId)) return { status: 403, message: independentApproverMessage };
    if (!amr.includes('otp')) return { status: 403, message: approverTwoFactorMessage };
    return null;
  }

  /** Every owner of the business is told of an approval (a second account of one owner cannot approve unseen). */
  async function tellOwnersOfApproval(tx: DbWriter, row: BeneficiaryRow, approver: Principal): Promise<number> {
    const [business] = await tx.select({ name: businesses.name }).from(businesses).where(eq(businesses.id, row.businessId));
    const owners = await tx
      .selectDistinct({ email: users.email })
      .from(userRoles)
      .innerJoin(users, eq(users.id, userRoles.userId))
      .where(and(eq(userRoles.role, 'Owner'), eq(userRoles.level, 'business'), eq(userRoles.businessId, row.businessId)));
    const names = await userNames(tx, [row.createdBy]);
    const approverName = `${approver.givenName} ${approver.familyName}`.trim() || approver.email;
    const name = displayName(row);
    const recipients = owners.map((owner) => owner.email).filter(isPlausibleEmailAddress);
    for (const recipient of recipients) {
      await queueEmail(tx as Db, recipient, {
        template: 'beneficiaryApproved',
        subject: `Beneficiary approved: ${name}`,
        heading: 'A beneficiary was approved',
        paragraphs: [
          `${approverName} approved ${name} (account ending ${row.iban.slice(-4)}) as a payout beneficiary of ${business?.name ?? row.businessId}. It was set up by ${names.get(row.createdBy) ?? row.createdBy}.`,
          'Payouts to this beneficiary are now possible. If you do not recognise this approval, reject the beneficiary and tell your administrator at once.',
        ],
        action: { label: 'Open the beneficiary', url: portalLink(publicUrl, `/business/${row.businessId}/beneficiaries/${row.id}`) },
        footer: 'You receive this email because you are an owner of this business.',
      });
    }
    return recipients.length;
  }

  async function toListItems(rows: BeneficiaryRow[]): Promise<BeneficiaryListItem[]> {
    const ids = rows.map((row) => row.id);
    const open =
      ids.length === 0
        ? []
        : await db
            .select({ id: a.beneficiaryId, value: count() })
            .from(a)
            .where(and(inArray(a.beneficiaryId, ids), eq(a.status, 'open')))
            .groupBy(a.beneficiaryId);
    const openOf = new Map(open.map((row) => [row.id, Number(row.value)]));
    return rows.map((row) => ({
      beneficiaryId: row.id,
      businessId: row.businessId,
      kind: row.kind,
      name: displayName(row),
      nameOnBankAccount: row.nameOnBankAccount,
      iban: row.iban,
      bic: row.bic,
      status: row.status,
      openAlerts: openOf.get(row.id) ?? 0,
      createdUtc: row.createdUtc.toISOString(),
    }));
  }

  async function toBeneficiary(row: BeneficiaryRow, c: Context<AppEnv>, permissions: Set<PermissionName>): Promise<Beneficiary> {
    const [item] = await toListItems([row]);
    const names = await userNames(db, [row.createdBy, row.lastChangedBy, ...(row.statusChangedBy ? [row.statusChangedBy] : [])]);
    const refusal = await approvalRefusal(db, row, c.get('principal'), permissions, c.get('amr') ?? []);
    // The latest change is the approval or rejection while nothing changed after it (a change of details moves
    // lastUpdatedUtc past it), else the change of details.
    const statusIsLatest = row.statusChangedBy !== null && row.statusChangedUtc !== null && row.statusChangedUtc.getTime() >= row.lastUpdatedUtc.getTime();
    const latestChanger = statusIsLatest && row.statusChangedBy ? row.statusChangedBy : row.lastChangedBy;
    const [business] = await db.select({ name: businesses.name }).from(businesses).where(eq(businesses.id, row.businessId));
    return {
      ...(item as BeneficiaryListItem),
      // Named for people: a risk analyst arrives from the alert queue across businesses.
      businessName: business?.name ?? row.businessId,
      companyName: row.companyName,
      firstName: row.firstName,
      lastName: row.lastName,
      dateOfBirth: row.dateOfBirth,
      countryIso3166Alpha2: row.countryIso3166Alpha2,
      createdBy: names.get(row.createdBy) ?? row.createdBy,
      lastChangedBy: names.get(latestChanger) ?? latestChanger,
      statusChangedBy: row.statusChangedBy ? (names.get(row.statusChangedBy) ?? row.statusChangedBy) : null,
      statusChangedUtc: row.statusChangedUtc?.toISOString() ?? null,
      lastUpdatedUtc: row.lastUpdatedUtc.toISOString(),
      version: row.version,
      alerts: await alertsOf(db, eq(a.beneficiaryId, row.id), [desc(a.createdUtc), asc(a.id)]),
      approvable: refusal === null,
      approvalRefusal: refusal?.message ?? null,
    };
  }

  routes.get(prefix, async (c) => {
    const { businessId } = await businessOf(c, 'Mapi.Beneficiary.Read');
    const query = parseListRequest(singleValuedQuery(c), beneficiaryListSpec);
    const sort = query.sort[0] ?? { field: 'created', descending: true };
    const where = and(eq(b.businessId, businessId), filterCondition(beneficiaryResource, query.filters, c.get('timeZone')));
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(b)
        .where(where)
        .orderBy(...orderByOf(orderKeysOf(beneficiaryResource, sort)))
        .limit(query.pageSize)
        .offset((query.pageNumber - 1) * query.pageSize),
      db.select({ value: count() }).from(b).where(where),
    ]);
    return c.json({ results: await toListItems(rows), numberOfResults: Number(total?.value ?? 0) });
  });

  routes.get(`${prefix}/:beneficiaryId`, async (c) => {
    const { businessId, permissions } = await businessOf(c, 'Mapi.Beneficiary.Read');
    const row = await findBeneficiary(db, businessId, c.req.param('beneficiaryId'));
    return c.json(await toBeneficiary(row, c, permissions));
  });

  routes.post(prefix, async (c) => {
    const { businessId, permissions } = await businessOf(c, 'Mapi.Beneficiary.Create');
    const body = await readBody(c, beneficiaryBody);
    const { iban, bic } = checkBody(body);
    const userId = c.get('principal').userId;
    const row = await db.transaction(async (tx) => {
      const at = now();
      const [inserted] = await tx
        .insert(b)
        .values({
          id: newId('BEN'),
          businessId,
          kind: body.kind,
          companyName: body.kind === 'company' ? (body.companyName?.trim() ?? null) : null,
          firstName: body.kind === 'person' ? (body.firstName?.trim() ?? null) : null,
          lastName: body.kind === 'person' ? (body.lastName?.trim() ?? null) : null,
          dateOfBirth: body.kind === 'person' ? (body.dateOfBirth ?? null) : null,
          countryIso3166Alpha2: body.countryIso3166Alpha2 ?? null,
          nameOnBankAccount: body.nameOnBankAccount.trim(),
          iban,
          bic,
          status: 'Referred',
          createdBy: userId,
          lastChangedBy: userId,
          createdUtc: at,
          lastUpdatedUtc: at,
        })
        .returning();
      if (!inserted) throw new Error('beneficiary insert returned nothing');
      const alerts = await screenBeneficiary(tx, inserted);
      await audit(tx, c, 'BeneficiaryCreated', businessId, { beneficiaryId: inserted.id, screeningAlerts: alerts });
      return inserted;
    });
    return c.json(await toBeneficiary(row, c, permissions), 201);
  });

  routes.put(`${prefix}/:beneficiaryId`, async (c) => {
    const { businessId, permissions } = await businessOf(c, 'Mapi.Beneficiary.Create');
    const id = c.req.param('beneficiaryId');
    await findBeneficiary(db, businessId, id);
    const body = await readBody(c, beneficiaryUpdateBody);
    const { iban, bic } = checkBody(body);
    const userId = c.get('principal').userId;
    const row = await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(b)
        .set({
          kind: body.kind,
          companyName: body.kind === 'company' ? (body.companyName?.trim() ?? null) : null,
          firstName: body.kind === 'person' ? (body.firstName?.trim() ?? null) : null,
          lastName: body.kind === 'person' ? (body.lastName?.trim() ?? null) : null,
          dateOfBirth: body.kind === 'person' ? (body.dateOfBirth ?? null) : null,
          countryIso3166Alpha2: body.countryIso3166Alpha2 ?? null,
          nameOnBankAccount: body.nameOnBankAccount.trim(),
          iban,
          bic,
          // A change needs a new approval: whoever changed it cannot give it. No one has decided on the changed details yet.
          status: 'Referred',
          lastChangedBy: userId,
          statusChangedBy: null,
          statusChangedUtc: null,
          lastUpdatedUtc: now(),
          version: sql`${b.version} + 1`,
        })
        .where(and(eq(b.id, id), eq(b.businessId, businessId), eq(b.version, body.version)))
        .returning();
      if (!updated) throw conflict();
      const alerts = await screenBeneficiary(tx, updated);
      await audit(tx, c, 'BeneficiaryChanged', businessId, { beneficiaryId: id, version: updated.version, screeningAlerts: alerts });
      return updated;
    });
    return c.json(await toBeneficiary(row, c, permissions));
  });

  routes.put(`${prefix}/:beneficiaryId/status`, async (c) => {
    const { businessId, permissions } = await businessOf(c, 'Mapi.Beneficiary.Approve');
    const id = c.req.param('beneficiaryId');
    await findBeneficiary(db, businessId, id);
    const body = await readBody(c, beneficiaryStatusBody);
    const principal = c.get('principal');
    const row = await db.transaction(async (tx) => {
      // Locked: an alert raised or a change made meanwhile is seen before the approval commits.
      const [current] = await tx
        .select()
        .from(b)
        .where(and(eq(b.id, id), eq(b.businessId, businessId)))
        .for('update');
      if (!current) throw notFound();
      if (body.version !== undefined && body.version !== current.version) throw conflict();
      if (body.status === 'Approved') {
        const refusal = await approvalRefusal(tx, current, principal, permissions, c.get('amr') ?? []);
        if (refusal) throw new ApiError(refusal.status, refusal.message);
      }
      // The decision and its time are recorded as the latest change (shown as 'Last changed by').
      const at = now();
      const [updated] = await tx
        .update(b)
        .set({ status: body.status, statusChangedBy: principal.userId, statusChangedUtc: at, lastUpdatedUtc: at, version: sql`${b.version} + 1` })
        .where(eq(b.id, id))
        .returning();
      if (!updated) throw notFound();
      const ownersTold = body.status === 'Approved' ? await tellOwnersOfApproval(tx, updated, principal) : 0;
      await audit(tx, c, 'BeneficiaryStatusChanged', businessId, {
        beneficiaryId: id,
        from: current.status,
        to: body.status,
        ...(body.status === 'Approved' ? { ownersTold } : {}),
      });
      return updated;
    });
    return c.json(await toBeneficiary(row, c, permissions));
  });

  routes.put(`${prefix}/:beneficiaryId/alerts/:alertId`, async (c) => {
    const { businessId, permissions } = await businessOf(c, 'Mapi.Screening.Resolve');
    const id = c.req.param('beneficiaryId');
    const alertId = c.req.param('alertId');
    await findBeneficiary(db, businessId, id);
    if (!idPattern.test(alertId)) throw notFound();
    const body = await readBody(c, alertDecisionBody);
    const principal = c.get('principal');
    const row = await db.transaction(async (tx) => {
      const [alert] = await tx
        .select()
        .from(a)
        .where(and(eq(a.id, alertId), eq(a.beneficiaryId, id)))
        .for('update');
      if (!alert) throw notFound();
      if (alert.version !== body.version) throw conflict();
      if (alert.status !== 'open') throw new ApiError(422, 'This alert has already been resolved.');
      await tx
        .update(a)
        .set({ status: body.decision, reason: body.reason.trim(), resolvedBy: principal.userId, resolvedUtc: new Date(), version: sql`${a.version} + 1` })
        .where(eq(a.id, alertId));
      await audit(tx, c, 'ScreeningAlertResolved', businessId, {
        beneficiaryId: id,
        alertId,
        entryId: alert.entryId,
        decision: body.decision,
        reason: body.reason.trim(),
      });
      const [current] = await tx.select().from(b).where(eq(b.id, id));
      if (!current) throw notFound();
      if (body.decision === 'confirmed' && current.status !== 'Rejected') {
        // A true match is never paid: the beneficiary is rejected with the decision.
        const at = now();
        const [rejected] = await tx
          .update(b)
          .set({ status: 'Rejected', statusChangedBy: principal.userId, statusChangedUtc: at, lastUpdatedUtc: at, version: sql`${b.version} + 1` })
          .where(eq(b.id, id))
          .returning();
        await audit(tx, c, 'BeneficiaryStatusChanged', businessId, { beneficiaryId: id, from: current.status, to: 'Rejected', alertId });
        return rejected ?? current;
      }
      return current;
    });
    return c.json(await toBeneficiary(row, c, permissions));
  });

  routes.get('/screening-alerts', async (c) => {
    requireRootPermission(c.get('principal'), 'Mapi.Screening.Resolve');
    const query = parseListRequest(singleValuedQuery(c), screeningAlertListSpec);
    const sort = query.sort[0] ?? { field: 'created', descending: true };
    const where = filterCondition(alertResource, query.filters, c.get('timeZone'));
    const [results, [total]] = await Promise.all([
      alertsOf(db, where, orderByOf(orderKeysOf(alertResource, sort)), query.pageSize, (query.pageNumber - 1) * query.pageSize),
      db.select({ value: count() }).from(a).where(where),
    ]);
    return c.json({ results, numberOfResults: Number(total?.value ?? 0) });
  });

  routes.get('/screening/settings', async (c) => {
    requireRootPermission(c.get('principal'), 'Mapi.Screening.Resolve');
    const { sensitivity, version } = await currentSensitivity(db);
    return c.json({ sensitivity, threshold: sensitivityThresholds[sensitivity], version });
  });

  routes.put('/screening/settings', async (c) => {
    requireRootPermission(c.get('principal'), 'Mapi.Screening.Resolve');
    const body = await readBody(c, screeningSettingsBody);
    const userId = c.get('principal').userId;
    const saved = await db.transaction(async (tx) => {
      const current = await currentSensitivity(tx);
      if (current.version !== body.version) throw conflict();
      const version = current.version + 1;
      await tx
        .insert(riskSettings)
        .values({ key: sensitivityKey, value: body.sensitivity, updatedBy: userId, version })
        .onConflictDoUpdate({ target: riskSettings.key, set: { value: body.sensitivity, updatedBy: userId, updatedUtc: new Date(), version } });
      await audit(tx, c, 'ScreeningSettingsChanged', null, { from: current.sensitivity, to: body.sensitivity });
      return { sensitivity: body.sensitivity, version };
    });
    return c.json({ ...saved, threshold: sensitivityThresholds[saved.sensitivity] });
  });

  return routes;
}
