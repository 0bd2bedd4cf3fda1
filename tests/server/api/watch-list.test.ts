// The account watch list on PGlite and PostgreSQL: signals computed from transactions through the daily
// table (incrementally), the entry's score and trend, analysts' status changes (versioned, audited) and notes;
// internal-only access. Plus the signal rules as a table of cases.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { refreshWatchList, scoreOf, signalsAsOf, type DailySignals } from '../../../server/risk/watch-signals.ts';
import { watchEscalation, watchListEntryDetail, watchListList } from '../../../src/contract/watch-list-schemas.ts';
import { createTestApp, createTestDatabase, databaseKinds, fixture, insertFixtureWorld } from '../support.ts';
import { insertScreeningFixture, insertWatchTransactions, riskUsers } from './risk-fixtures.ts';

const { users } = fixture;
const day = 86_400_000;

describe('watch list signal rules', () => {
  const asOf = new Date('2026-11-20T00:00:00Z');
  const days = (count: number, make: (index: number) => Partial<DailySignals>): DailySignals[] =>
    Array.from({ length: count }, (_, index) => ({
      day: new Date(asOf.getTime() - (count - 1 - index) * day),
      payments: 10,
      paid: 9,
      declined: 1,
      smallDeclines: 0,
      refunds: 0,
      paidMilli: 90_000,
      ...make(index),
    }));

  it.each([
    ['a steady merchant', days(37, () => ({})), []],
    ['many refunds', days(37, () => ({ refunds: 2 })), ['refundRatio']],
    ['a decline spike this week', days(37, (index) => (index >= 30 ? { declined: 5, paid: 5 } : {})), ['declineSpike']],
    ['volume tripling this week', days(37, (index) => (index >= 30 ? { payments: 40, paid: 36, declined: 4 } : {})), ['volumeChange']],
    ['volume collapsing this week', days(37, (index) => (index >= 30 ? { payments: 2, paid: 2, declined: 0 } : {})), ['volumeChange']],
    ['card testing today', days(37, (index) => (index === 36 ? { payments: 30, declined: 21, smallDeclines: 20 } : {})), ['declineSpike', 'cardTesting']],
    [
      'small declines that are not most declines',
      days(37, (index) => (index === 36 ? { payments: 80, paid: 30, declined: 50, smallDeclines: 16 } : {})),
      ['declineSpike'],
    ],
    ['too few payments to judge', days(37, () => ({ payments: 0, paid: 0, declined: 0, refunds: 0 })), []],
  ])('%s', (_name, rows, expected) => {
    const signals = signalsAsOf(rows, asOf);
    expect(signals.map((signal) => signal.signal)).toEqual(expected);
    expect(scoreOf(signals) > 0).toBe(expected.length > 0);
  });

  it('scores by weight, up to twice past the threshold, capped at 100', () => {
    expect(scoreOf([{ signal: 'refundRatio', value: 0.12, threshold: 0.12 }])).toBe(25);
    expect(scoreOf([{ signal: 'refundRatio', value: 0.6, threshold: 0.12 }])).toBe(50);
    expect(scoreOf([{ signal: 'volumeChange', value: 1 / 6, threshold: 3 }])).toBe(40);
    expect(
      scoreOf([
        { signal: 'cardTesting', value: 60, threshold: 15 },
        { signal: 'declineSpike', value: 9, threshold: 2 },
      ]),
    ).toBe(100);
  });
});

describe.each(databaseKinds)('account watch list on %s', (kind) => {
  let database: Database;
  let call: ReturnType<typeof createTestApp>['call'];
  const now = new Date();
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await insertFixtureWorld(database);
    await insertScreeningFixture(database);
    await insertWatchTransactions(database, now);
    ({ call } = createTestApp(database));
  });
  afterAll(async () => database?.close());

  it('lists the merchant whose card-testing burst crosses the thresholds, with its signals and trend', async () => {
    const response = await call(riskUsers.risk, 'GET', '/account-watch-list');
    expect(response.status).toBe(200);
    const body = watchListList.assert(await response.json());
    expect(body.results.map((entry) => entry.merchantId)).toEqual(['M1a']);
    const [entry] = body.results;
    expect(entry).toMatchObject({ merchantName: 'Alpha Online', businessName: 'Alpha Trading Ltd', status: 'open', version: 1 });
    expect(entry?.signals.map((signal) => signal.signal)).toContain('cardTesting');
    expect(entry?.score).toBeGreaterThanOrEqual(40);
    expect(entry?.trend).toHaveLength(30);
    expect(entry?.trend.at(-1)).toBe(entry?.score);
    expect(entry?.trend[0]).toBe(0);
    expect(body.signalsRefreshedUtc).not.toBeNull();
  });

  it('refreshes incrementally: only the days since the last refresh are recomputed', async () => {
    const old = new Date(Math.floor(now.getTime() / day) * day - 40 * day);
    await database.db
      .update(schema.merchantRiskSignalsDaily)
      .set({ payments: 999 })
      .where(and(eq(schema.merchantRiskSignalsDaily.merchantId, 'M1a'), eq(schema.merchantRiskSignalsDaily.day, old)));
    expect(await refreshWatchList(database.db, new Date(now.getTime() + 60_000))).toBe(true);
    const [kept] = await database.db
      .select()
      .from(schema.merchantRiskSignalsDaily)
      .where(and(eq(schema.merchantRiskSignalsDaily.merchantId, 'M1a'), eq(schema.merchantRiskSignalsDaily.day, old)));
    expect(kept?.payments).toBe(999);
    const today = new Date(Math.floor(now.getTime() / day) * day);
    const [fresh] = await database.db
      .select()
      .from(schema.merchantRiskSignalsDaily)
      .where(and(eq(schema.merchantRiskSignalsDaily.merchantId, 'M1a'), eq(schema.merchantRiskSignalsDaily.day, today)));
    expect(fresh).toMatchObject({ payments: 20, declined: 20, smallDeclines: 20 });
    await database.db
      .update(schema.merchantRiskSignalsDaily)
      .set({ payments: 4 })
      .where(and(eq(schema.merchantRiskSignalsDaily.merchantId, 'M1a'), eq(schema.merchantRiskSignalsDaily.day, old)));
  });

  it('acknowledges and puts on monitoring with a version (409 when stale), adds notes; all audited', async () => {
    const acknowledged = await call(riskUsers.risk, 'PUT', '/account-watch-list/M1a/status', { status: 'acknowledged', version: 1 });
    expect(acknowledged.status).toBe(200);
    expect(await acknowledged.json()).toMatchObject({ status: 'acknowledged', version: 2 });
    expect((await call(riskUsers.risk, 'PUT', '/account-watch-list/M1a/status', { status: 'monitoring', version: 1 })).status).toBe(409);
    expect((await call(riskUsers.risk, 'PUT', '/account-watch-list/M1a/status', { status: 'escalated', version: 2 })).status).toBe(400);
    const note = await call(riskUsers.risk, 'POST', '/account-watch-list/M1a/notes', { text: 'Merchant confirmed a bot attack; 3-D Secure enforced.' });
    expect(note.status).toBe(201);
    expect((await call(riskUsers.risk, 'POST', '/account-watch-list/M1a/notes', { text: '' })).status).toBe(400);
    const detail = watchListEntryDetail.assert(await (await call(users.readonly, 'GET', '/account-watch-list/M1a')).json());
    expect(detail).toMatchObject({ status: 'acknowledged', statusChangedBy: 'u-risk Test' });
    expect(detail.notes.map((entry) => entry.text)).toEqual(['Merchant confirmed a bot attack; 3-D Secure enforced.']);
    const events = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.merchantId, 'M1a'));
    expect(events.map((event) => event.event).sort()).toEqual(['WatchListNoteAdded', 'WatchListStatusChanged']);
    // A later refresh keeps the analyst's status.
    await refreshWatchList(database.db, new Date(now.getTime() + 120_000));
    expect(
      watchListList
        .assert(await (await call(riskUsers.risk, 'GET', '/account-watch-list?status=[eq]acknowledged')).json())
        .results.map((entry) => entry.merchantId),
    ).toEqual(['M1a']);
  });

  it("escalates an entry to an informationRequest ticket in the merchant's business, linked and audited; once only", async () => {
    const before = watchListEntryDetail.assert(await (await call(riskUsers.risk, 'GET', '/account-watch-list/M1a')).json());
    expect(before.ticketId).toBeNull();
    expect((await call(users.readonly, 'POST', '/account-watch-list/M1a/ticket', { version: before.version })).status).toBe(403);
    expect((await call(users.owner, 'POST', '/account-watch-list/M1a/ticket', { version: before.version })).status).toBe(403);
    expect((await call(riskUsers.risk, 'POST', '/account-watch-list/M3a/ticket', { version: 1 })).status).toBe(404);
    expect((await call(riskUsers.risk, 'POST', '/account-watch-list/M1a/ticket', { version: 'one' })).status).toBe(400);
    expect((await call(riskUsers.risk, 'POST', '/account-watch-list/M1a/ticket', { version: before.version, priority: 'Urgent' })).status).toBe(400);
    expect((await call(riskUsers.risk, 'POST', '/account-watch-list/M1a/ticket', { version: before.version + 5 })).status).toBe(409);
    const escalated = await call(riskUsers.risk, 'POST', '/account-watch-list/M1a/ticket', { version: before.version });
    expect(escalated.status).toBe(201);
    const answer = watchEscalation.assert(await escalated.json());
    expect(answer.entry).toMatchObject({ ticketId: answer.ticketId, version: before.version + 1 });
    const [ticket] = await database.db.select().from(schema.tickets).where(eq(schema.tickets.id, answer.ticketId));
    expect(ticket).toMatchObject({
      businessId: 'B1',
      merchantId: 'M1a',
      type: 'informationRequest',
      status: 'Open',
      priority: 'High',
      createdBy: riskUsers.risk,
    });
    expect(ticket?.subject).toBe(`Risk review: Alpha Online (M1a), watch list score ${before.score}`);
    expect(ticket?.description).toContain(`risk score of ${before.score} out of 100`);
    expect(ticket?.description).toContain('Card testing (many small declines)');
    // The merchant's own people see the ticket in their business; the entry shows its link.
    const owned = await call(users.partner, 'GET', `/businesses/B1/tickets/${answer.ticketId}`);
    expect(owned.status).toBe(200);
    expect(watchListEntryDetail.assert(await (await call(riskUsers.risk, 'GET', '/account-watch-list/M1a')).json()).ticketId).toBe(answer.ticketId);
    // Once only, even with the fresh version.
    const again = await call(riskUsers.risk, 'POST', '/account-watch-list/M1a/ticket', { version: answer.entry.version });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain(answer.ticketId);
    const events = await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.merchantId, 'M1a'));
    expect(events.filter((event) => event.event === 'WatchListEscalated').map((event) => event.metaData)).toEqual([
      { ticketId: answer.ticketId, score: before.score },
    ]);
    expect(events.filter((event) => event.event === 'TicketCreated')).toHaveLength(1);
    // A later refresh keeps the link.
    await refreshWatchList(database.db, new Date(now.getTime() + 180_000));
    expect(watchListEntryDetail.assert(await (await call(riskUsers.risk, 'GET', '/account-watch-list/M1a')).json()).ticketId).toBe(answer.ticketId);
  });

  it('is internal only: business users are refused, read-only staff cannot act, unknown merchants are 404', async () => {
    expect((await call(users.partner, 'GET', '/account-watch-list')).status).toBe(403);
    expect((await call(users.owner, 'GET', '/account-watch-list/M1a')).status).toBe(403);
    expect((await call(users.readonly, 'PUT', '/account-watch-list/M1a/status', { status: 'open', version: 2 })).status).toBe(403);
    expect((await call(users.readonly, 'POST', '/account-watch-list/M1a/notes', { text: 'x' })).status).toBe(403);
    expect((await call(riskUsers.risk, 'GET', '/account-watch-list/M3a')).status).toBe(404);
    expect((await call(riskUsers.risk, 'GET', '/account-watch-list?sort=colour')).status).toBe(400);
  });
});
