// Users, roles and identity on PGlite and PostgreSQL: every call, who may do what, privilege escalation
// attempts, cross-tenant reads and writes, versions, audit events, invitations and password resets followed from the
// outbound email's link.
import { beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../server/identity/passwords.ts';
import * as schema from '../../../server/db/schema.ts';
import { databaseKinds, fixture, grantStepUp, useFixtureApp } from '../support.ts';
import { stepUpMessages } from '../../../src/contract/step-up.ts';

const { users } = fixture;
const service = 'u-service';
const ownerB1 = 'u-owner-b1';
const twoBusinesses = 'u-two';
const strongPassword = 'Violet-harbour-kettle-93';

type Detail = {
  userId: string;
  email: string;
  version: number;
  status: string;
  givenName: string;
  lockoutEndDateUtc: string | null;
  policyStructure: {
    portalPolicy: {
      roles: string[];
      partnerPolicy: { partnerId: string; roles: string[] } | null;
      businessPolicies: { businessId: string; roles: string[]; merchantPolicies: { merchantId: string; roles: string[] }[] }[];
    };
  };
  allowed: Record<string, boolean>;
  invitation: { state: string } | null;
};
type ListAnswer = { results: { userId: string; email: string; roles: string[]; status: string; internal: boolean }[]; numberOfResults: number };

const policy = (businessId: string, roles: string[], merchantPolicies: { merchantId: string; roles: string[] }[] = []) => ({
  roles: [],
  businessPolicies: [{ businessId, roles, merchantPolicies }],
});

describe.each(databaseKinds)('users, roles and identity on %s', (kind) => {
  const harness = useFixtureApp(kind);
  let emailSerial = 0;
  const freshEmail = (label: string) => `${label}.${kind}.${++emailSerial}@invitee.test`;

  beforeAll(async () => {
    const { db } = harness.database;
    const passwordHash = await hashPassword(strongPassword);
    await db.insert(schema.users).values([
      { id: service, email: 'service@fixture.test', givenName: 'Sam', familyName: 'Service', passwordHash, internal: true },
      { id: ownerB1, email: 'owner-b1@fixture.test', givenName: 'Olga', familyName: 'Alpha', passwordHash },
      { id: twoBusinesses, email: 'two@fixture.test', givenName: 'Tara', familyName: 'Two', passwordHash },
    ]);
    await db.insert(schema.userRoles).values([
      { userId: service, role: 'CustomerService', level: 'root' },
      { userId: ownerB1, role: 'Owner', level: 'business', businessId: 'B1' },
      { userId: twoBusinesses, role: 'Finance', level: 'business', businessId: 'B3' },
      { userId: twoBusinesses, role: 'Sales', level: 'business', businessId: 'B1' },
    ]);
  });

  const json = async <T>(response: Response) => (await response.json()) as T;
  const get = async <T>(userId: string, path: string) => {
    const response = await harness.call(userId, 'GET', path);
    expect(response.status, `GET ${path} as ${userId}`).toBe(200);
    return json<T>(response);
  };
  const messages = async (response: Response) =>
    (await json<{ errorReport: { errors: { message: string }[] } }>(response)).errorReport.errors.map((error) => error.message);
  const auditCount = async (event: string, targetUserId?: string) => {
    const rows = await harness.database.query<{ n: string }>(
      `SELECT count(*) AS n FROM audit_events WHERE event = $1 AND ($2::text IS NULL OR meta_data->>'targetUserId' = $2)`,
      [event, targetUserId ?? null],
    );
    return Number(rows[0]?.n ?? 0);
  };
  const lastEmailTo = async (recipient: string) => {
    const rows = await harness.database.query<{ subject: string; text: string; template: string }>(
      'SELECT subject, text, template FROM outbound_emails WHERE recipient = $1 ORDER BY created_at DESC, id DESC LIMIT 1',
      [recipient],
    );
    return rows[0];
  };
  const linkParameter = (text: string, path: string, name: string) => {
    const match = new RegExp(`https?://[^\\s]+${path}\\?[^\\s]+`).exec(text);
    expect(match, `a ${path} link in the email`).not.toBeNull();
    return new URL(match?.[0] ?? 'http://x').searchParams.get(name) ?? '';
  };
  const publicCall = (method: string, path: string, body?: unknown) => harness.call(null, method, `/../public${path}`, body);
  /** What the invitation page asks with a link's secret: in a POST body, never in the (logged) path. */
  const lookup = (inviteId: string) => publicCall('POST', '/user-invites/lookup', { inviteId });

  async function invite(caller: string, body: unknown) {
    return harness.call(caller, 'POST', '/users', body);
  }
  async function invited(caller: string, email: string, access = policy('B3', ['Finance'])) {
    const response = await invite(caller, { emails: [email], policy: access });
    expect(response.status, (await response.clone().text()).slice(0, 300)).toBe(201);
    const { users: created } = await json<{ users: { userId: string }[] }>(response);
    return created[0]?.userId ?? '';
  }
  async function accepted(email: string, caller = users.owner, access = policy('B3', ['Finance'])) {
    const userId = await invited(caller, email, access);
    const mail = await lastEmailTo(email);
    const inviteId = linkParameter(mail?.text ?? '', '/user-invite', 'InviteId');
    const response = await publicCall('POST', '/user-invites/accept', { inviteId, givenName: 'New', familyName: 'Person', password: strongPassword });
    expect(response.status).toBe(200);
    return userId;
  }

  describe('GET /user/users', () => {
    it('lists every user, internal ones included, to a technical admin, with list totals', async () => {
      const body = await get<ListAnswer>(users.admin, '/user/users?pagesize=100');
      expect(body.numberOfResults).toBeGreaterThanOrEqual(10);
      expect(body.results.map((user) => user.userId)).toEqual(expect.arrayContaining([users.admin, users.owner, service]));
      expect(body.results.find((user) => user.userId === users.admin)?.internal).toBe(true);
    });

    it('lists to an owner only the users of their own business, never internal users, and only their roles there', async () => {
      const body = await get<ListAnswer>(users.owner, '/user/users?pagesize=100');
      const ids = body.results.map((user) => user.userId);
      expect(ids).toContain(users.owner);
      expect(ids).toContain(twoBusinesses);
      expect(ids).not.toContain(users.finance);
      expect(ids).not.toContain(users.admin);
      expect(ids).not.toContain(ownerB1);
      // The B1 role of the two-business user is not the B3 owner's business.
      expect(body.results.find((user) => user.userId === twoBusinesses)?.roles).toEqual(['Finance']);
    });

    it('lists a partner owner the users of the partner’s businesses', async () => {
      const ids = (await get<ListAnswer>(users.partner, '/user/users?pagesize=100')).results.map((user) => user.userId);
      expect(ids).toEqual(expect.arrayContaining([users.finance, ownerB1, users.merchantOnly, twoBusinesses]));
      expect(ids).not.toContain(users.owner);
    });

    it('filters by role, email, name, business, locked and status', async () => {
      const byRole = await get<ListAnswer>(users.admin, '/user/users?role=[eq]Finance&pagesize=100');
      expect(byRole.results.every((user) => user.roles.includes('Finance'))).toBe(true);
      expect(byRole.results.map((user) => user.userId)).toContain(users.finance);
      expect((await get<ListAnswer>(users.admin, '/user/users?email=[eq]owner-b1@')).results.map((user) => user.userId)).toEqual([ownerB1]);
      expect((await get<ListAnswer>(users.admin, '/user/users?name=[eq]olga alp')).results.map((user) => user.userId)).toEqual([ownerB1]);
      const inB3 = (await get<ListAnswer>(users.admin, '/user/users?business=[eq]B3&pagesize=100')).results.map((user) => user.userId);
      expect(inB3).toEqual(expect.arrayContaining([users.owner, twoBusinesses]));
      expect(inB3).not.toContain(users.finance);
      const unlocked = await get<ListAnswer>(users.admin, '/user/users?locked=[eq]false&pagesize=100');
      expect(unlocked.results.every((user) => user.status !== 'locked')).toBe(true);
      expect((await get<ListAnswer>(users.admin, '/user/users?locked=[eq]true&pagesize=100')).results.every((user) => user.status === 'locked')).toBe(true);
    });

    it('sorts by email descending and pages', async () => {
      const body = await get<ListAnswer>(users.admin, '/user/users?sort=-email&pagesize=10');
      const emails = body.results.map((user) => user.email);
      expect(emails).toEqual([...emails].sort((a, b) => b.localeCompare(a)));
      expect(body.results.length).toBe(10);
    });

    it('refuses callers without the permission anywhere (403) and undeclared filters (400)', async () => {
      expect((await harness.call(users.finance, 'GET', '/user/users')).status).toBe(403);
      expect((await harness.call(users.nobody, 'GET', '/user/users')).status).toBe(403);
      expect((await harness.call(users.merchantOnly, 'GET', '/user/users')).status).toBe(403);
      const bad = await harness.call(users.admin, 'GET', '/user/users?password=[eq]x');
      expect(bad.status).toBe(400);
      expect((await messages(bad))[0]).toContain('password');
      expect((await harness.call(users.admin, 'GET', '/user/users?role=[eq]Wizard')).status).toBe(400);
    });
  });

  describe('GET /users/{id}', () => {
    it('shows a technical admin the whole policy, and what they may do', async () => {
      const body = await get<Detail>(users.admin, `/users/${twoBusinesses}`);
      expect(body.policyStructure.portalPolicy.businessPolicies.map((business) => business.businessId).sort()).toEqual(['B1', 'B3']);
      expect(body.allowed).toEqual({ update: true, lock: true, delete: true, resetPassword: true, resetSecondFactor: true });
    });

    it('shows an owner only the part of the policy in their business, and they may edit but not lock or delete', async () => {
      const body = await get<Detail>(users.owner, `/users/${twoBusinesses}`);
      expect(body.policyStructure.portalPolicy.businessPolicies).toEqual([expect.objectContaining({ businessId: 'B3', roles: ['Finance'] })]);
      expect(body.allowed).toEqual({ update: true, lock: false, delete: false, resetPassword: false, resetSecondFactor: false });
    });

    it('answers 404 for a user of another tenant, an internal user, and an unknown id', async () => {
      expect((await harness.call(users.owner, 'GET', `/users/${users.finance}`)).status).toBe(404);
      expect((await harness.call(users.owner, 'GET', `/users/${users.admin}`)).status).toBe(404);
      expect((await harness.call(users.admin, 'GET', '/users/USR-nope')).status).toBe(404);
      expect((await harness.call(users.finance, 'GET', `/users/${users.owner}`)).status).toBe(404);
    });

    it('lets anyone read themself', async () => {
      expect((await get<Detail>(users.nobody, `/users/${users.nobody}`)).userId).toBe(users.nobody);
    });
  });

  describe('POST /users (invitations)', () => {
    it('invites several emails at once with the same access, queues an invitation email each, and audits', async () => {
      const emails = [freshEmail('a'), freshEmail('b')];
      const response = await invite(users.owner, { emails, policy: policy('B3', ['Finance', 'Sales']) });
      expect(response.status).toBe(201);
      const { users: created } = await json<{ users: { userId: string; email: string }[] }>(response);
      expect(created.map((user) => user.email)).toEqual(emails);
      for (const user of created) {
        const detail = await get<Detail>(users.owner, `/users/${user.userId}`);
        expect(detail.status).toBe('invited');
        expect(detail.invitation?.state).toBe('pending');
        expect(detail.policyStructure.portalPolicy.businessPolicies[0]?.roles.sort()).toEqual(['Finance', 'Sales']);
        const mail = await lastEmailTo(user.email);
        expect(mail?.template).toBe('userInvitation');
        expect(linkParameter(mail?.text ?? '', '/user-invite', 'InviteId').length).toBeGreaterThan(30);
        expect(await auditCount('UserInvited', user.userId)).toBe(1);
      }
    });

    it('grants merchant roles under a business', async () => {
      const userId = await invited(ownerB1, freshEmail('m'), policy('B1', [], [{ merchantId: 'M1a', roles: ['VirtualTerminal'] }]));
      const detail = await get<Detail>(users.admin, `/users/${userId}`);
      expect(detail.policyStructure.portalPolicy.businessPolicies[0]?.merchantPolicies).toEqual([
        expect.objectContaining({ merchantId: 'M1a', roles: ['VirtualTerminal'] }),
      ]);
    });

    it('names what is missing: a business, or a role in a business', async () => {
      const none = await invite(users.admin, { emails: [freshEmail('n')], policy: { roles: [], businessPolicies: [] } });
      expect(none.status).toBe(400);
      expect(await messages(none)).toEqual(['A user needs at least one business.']);
      const empty = await invite(users.owner, { emails: [freshEmail('e')], policy: policy('B3', []) });
      expect(empty.status).toBe(400);
      expect(await messages(empty)).toEqual(['Gamma Foods plc needs at least one business or merchant role.']);
    });

    it('refuses a role at a level its kind does not allow (Owner on a merchant, Finance at root)', async () => {
      const ownerOnMerchant = await invite(users.admin, { emails: [freshEmail('o')], policy: policy('B3', [], [{ merchantId: 'M3a', roles: ['Owner'] }]) });
      expect(ownerOnMerchant.status).toBe(400);
      const financeAtRoot = await invite(users.admin, { emails: [freshEmail('r')], policy: { roles: ['Finance'], businessPolicies: [] } });
      expect(financeAtRoot.status).toBe(400);
    });

    it('refuses escalation: an owner granting in another business, an internal role, or a merchant of another business', async () => {
      const before = await auditCount('UserAdministrationRefused');
      expect((await invite(users.owner, { emails: [freshEmail('x')], policy: policy('B2', ['Finance']) })).status).toBe(403);
      expect((await invite(users.owner, { emails: [freshEmail('x')], policy: { roles: ['TechnicalAdmin'], businessPolicies: [] } })).status).toBe(403);
      expect((await invite(users.owner, { emails: [freshEmail('x')], policy: policy('B3', [], [{ merchantId: 'M1a', roles: ['Finance'] }]) })).status).toBe(
        403,
      );
      expect((await invite(users.owner, { emails: [freshEmail('x')], policy: policy('NOPE', ['Finance']) })).status).toBe(403);
      expect(await auditCount('UserAdministrationRefused')).toBe(before + 4);
    });

    it('lets customer service invite external users only with roles whose permissions it holds', async () => {
      expect((await invite(service, { emails: [freshEmail('cs')], policy: policy('B1', ['Finance']) })).status).toBe(201);
      const owner = await invite(service, { emails: [freshEmail('cs')], policy: policy('B1', ['Owner']) });
      expect(owner.status).toBe(403);
      expect((await messages(owner))[0]).toContain('You cannot grant Owner');
      expect((await invite(service, { emails: [freshEmail('cs')], policy: { roles: ['CustomerService'], businessPolicies: [] } })).status).toBe(403);
    });

    it('lets a technical admin invite internal users; internal and external access do not mix', async () => {
      expect((await invite(users.admin, { emails: [freshEmail('int')], policy: { roles: ['CustomerService'], businessPolicies: [] } })).status).toBe(201);
      expect(
        (
          await invite(users.admin, {
            emails: [freshEmail('mix')],
            policy: { roles: ['RiskAnalyst'], businessPolicies: [{ businessId: 'B1', roles: ['Finance'], merchantPolicies: [] }] },
          })
        ).status,
      ).toBe(400);
    });

    it('refuses callers without the permission, existing emails, repeated emails and malformed bodies', async () => {
      expect((await invite(users.finance, { emails: [freshEmail('f')], policy: policy('B2', ['Finance']) })).status).toBe(403);
      expect((await invite(users.readonly, { emails: [freshEmail('f')], policy: policy('B2', ['Finance']) })).status).toBe(403);
      // An existing account the caller can see but whose access cannot join (an internal user given a business role).
      const existing = await invite(users.admin, { emails: ['READONLY@fixture.test'], policy: policy('B3', ['Finance']) });
      expect(existing.status).toBe(400);
      expect((await messages(existing))[0]).toContain('A user with this email address already exists.');
      const email = freshEmail('twice');
      expect((await invite(users.admin, { emails: [email, email.toUpperCase()], policy: policy('B3', ['Finance']) })).status).toBe(400);
      expect((await invite(users.admin, { emails: ['not-an-email'], policy: policy('B3', ['Finance']) })).status).toBe(400);
      expect((await invite(users.admin, { emails: [], policy: policy('B3', ['Finance']) })).status).toBe(400);
      expect((await invite(users.admin, { emails: [freshEmail('w')], policy: policy('B3', ['Wizard']) })).status).toBe(400);
    });
  });

  describe('the invitation link (public)', () => {
    it('opens, refuses a weak password with the estimator’s feedback, accepts a strong one once, and sends a welcome email', async () => {
      const email = freshEmail('accept');
      const userId = await invited(users.owner, email);
      const inviteId = linkParameter((await lastEmailTo(email))?.text ?? '', '/user-invite', 'InviteId');
      const preview = await lookup(inviteId);
      expect(preview.status).toBe(200);
      expect(await json<{ email: string }>(preview)).toMatchObject({ email });
      const weak = await publicCall('POST', '/user-invites/accept', { inviteId, givenName: 'Nia', familyName: 'Jones', password: 'password1234' });
      expect(weak.status).toBe(400);
      expect(await messages(weak)).toEqual(expect.arrayContaining(['The password is too easy to guess.']));
      const ok = await publicCall('POST', '/user-invites/accept', { inviteId, givenName: 'Nia', familyName: 'Jones', password: strongPassword });
      expect(ok.status).toBe(200);
      expect((await json<{ message: string }>(ok)).message).toContain('welcome email');
      expect((await lastEmailTo(email))?.template).toBe('userWelcome');
      const detail = await get<Detail>(users.owner, `/users/${userId}`);
      expect(detail).toMatchObject({ status: 'active', givenName: 'Nia', invitation: { state: 'accepted' } });
      const again = await publicCall('POST', '/user-invites/accept', { inviteId, givenName: 'Nia', familyName: 'Jones', password: strongPassword });
      expect(again.status).toBe(410);
      expect(await messages(again)).toEqual(['Oops that link has expired.']);
      expect((await lookup(inviteId)).status).toBe(410);
    });

    it('refuses an expired, a revoked and an unknown link with the spec message', async () => {
      const email = freshEmail('expired');
      const userId = await invited(users.owner, email);
      const inviteId = linkParameter((await lastEmailTo(email))?.text ?? '', '/user-invite', 'InviteId');
      await harness.database.query(`UPDATE user_invitations SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [userId]);
      expect(await messages(await lookup(inviteId))).toEqual(['Oops that link has expired.']);

      const revokedEmail = freshEmail('revoked');
      const revokedUser = await invited(users.owner, revokedEmail);
      const revokedId = linkParameter((await lastEmailTo(revokedEmail))?.text ?? '', '/user-invite', 'InviteId');
      expect((await harness.call(users.owner, 'DELETE', `/users/${revokedUser}/invitation`)).status).toBe(204);
      expect((await lookup(revokedId)).status).toBe(410);
      expect(await auditCount('InvitationRevoked', revokedUser)).toBe(1);
      expect((await lookup('A'.repeat(43))).status).toBe(410);
    });

    it('re-sends an invitation: a new link works, the old one no longer does', async () => {
      const email = freshEmail('resend');
      const userId = await invited(users.owner, email);
      const first = linkParameter((await lastEmailTo(email))?.text ?? '', '/user-invite', 'InviteId');
      expect((await harness.call(users.owner, 'POST', `/users/${userId}/invitation`)).status).toBe(202);
      const second = linkParameter((await lastEmailTo(email))?.text ?? '', '/user-invite', 'InviteId');
      expect(second).not.toBe(first);
      expect((await lookup(first)).status).toBe(410);
      expect((await lookup(second)).status).toBe(200);
      expect((await harness.call(users.finance, 'POST', `/users/${userId}/invitation`)).status).toBe(404);
    });
  });

  describe('PUT /users/{id}', () => {
    it('updates names and roles, bumps the version, refuses the stale version with 409, and audits', async () => {
      const userId = await accepted(freshEmail('upd'));
      const before = await get<Detail>(users.owner, `/users/${userId}`);
      const response = await harness.call(users.owner, 'PUT', `/users/${userId}`, {
        version: before.version,
        givenName: 'Renamed',
        familyName: 'Person',
        policy: policy('B3', ['Sales'], [{ merchantId: 'M3b', roles: ['Finance'] }]),
      });
      expect(response.status).toBe(200);
      const after = await json<Detail>(response);
      expect(after.version).toBe(before.version + 1);
      expect(after.givenName).toBe('Renamed');
      expect(after.policyStructure.portalPolicy.businessPolicies[0]).toMatchObject({
        roles: ['Sales'],
        merchantPolicies: [{ merchantId: 'M3b', roles: ['Finance'] }],
      });
      const stale = await harness.call(users.owner, 'PUT', `/users/${userId}`, {
        version: before.version,
        givenName: 'X',
        familyName: 'Y',
        policy: policy('B3', ['Sales']),
      });
      expect(stale.status).toBe(409);
      expect(await auditCount('UserUpdated', userId)).toBe(1);
    });

    it('keeps the parts of a policy an owner cannot see, and refuses their writes outside their business', async () => {
      const detail = await get<Detail>(users.owner, `/users/${twoBusinesses}`);
      const ok = await harness.call(users.owner, 'PUT', `/users/${twoBusinesses}`, {
        version: detail.version,
        givenName: 'Tara',
        familyName: 'Two',
        policy: policy('B3', ['Finance', 'Sales']),
      });
      expect(ok.status).toBe(200);
      const whole = await get<Detail>(users.admin, `/users/${twoBusinesses}`);
      expect(whole.policyStructure.portalPolicy.businessPolicies.find((business) => business.businessId === 'B1')?.roles).toEqual(['Sales']);
      const outside = await harness.call(users.owner, 'PUT', `/users/${twoBusinesses}`, {
        version: whole.version,
        givenName: 'Tara',
        familyName: 'Two',
        policy: {
          roles: [],
          businessPolicies: [
            { businessId: 'B3', roles: ['Finance'], merchantPolicies: [] },
            { businessId: 'B1', roles: ['Owner'], merchantPolicies: [] },
          ],
        },
      });
      expect(outside.status).toBe(403);
      expect((await get<Detail>(users.admin, `/users/${twoBusinesses}`)).version).toBe(whole.version);
    });

    it('refuses an owner’s write to another tenant’s user with 404, and audits it', async () => {
      const before = await auditCount('UserAdministrationRefused', users.finance);
      const response = await harness.call(users.owner, 'PUT', `/users/${users.finance}`, {
        version: 1,
        givenName: 'Hijack',
        familyName: 'Attempt',
        policy: policy('B3', ['Owner']),
      });
      expect(response.status).toBe(404);
      expect(await auditCount('UserAdministrationRefused', users.finance)).toBe(before + 1);
    });

    it('refuses changing one’s own access, customer service editing an internal user, and a reader editing anyone', async () => {
      const self = await get<Detail>(users.owner, `/users/${users.owner}`);
      expect(
        (
          await harness.call(users.owner, 'PUT', `/users/${users.owner}`, {
            version: self.version,
            givenName: 'Me',
            familyName: 'Me',
            policy: policy('B3', ['Owner']),
          })
        ).status,
      ).toBe(403);
      const admin = await get<Detail>(service, `/users/${users.admin}`);
      expect(
        (
          await harness.call(service, 'PUT', `/users/${users.admin}`, {
            version: admin.version,
            givenName: 'A',
            familyName: 'B',
            policy: { roles: ['TechnicalAdmin'], businessPolicies: [] },
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await harness.call(users.readonly, 'PUT', `/users/${users.finance}`, {
            version: 1,
            givenName: 'A',
            familyName: 'B',
            policy: policy('B2', ['Finance']),
          })
        ).status,
      ).toBe(403);
    });

    it('ends the user’s sessions when a role is taken away', async () => {
      const userId = await accepted(freshEmail('revoke'), users.owner, policy('B3', ['Finance', 'Sales']));
      await harness.database.db.insert(schema.oidcPayloads).values({ id: `sess-${userId}`, type: 'Session', payload: { accountId: userId } });
      const detail = await get<Detail>(users.owner, `/users/${userId}`);
      expect(
        (
          await harness.call(users.owner, 'PUT', `/users/${userId}`, {
            version: detail.version,
            givenName: 'New',
            familyName: 'Person',
            policy: policy('B3', ['Finance']),
          })
        ).status,
      ).toBe(200);
      expect(await harness.database.query('SELECT 1 FROM oidc_payloads WHERE id = $1', [`sess-${userId}`])).toEqual([]);
    });
  });

  describe('PUT /users/{id}/login (lock and unlock)', () => {
    it('locks (sign-in refused, API tokens refused, sessions ended) and unlocks, with audit events', async () => {
      const userId = await accepted(freshEmail('lock'));
      await harness.database.db.insert(schema.oidcPayloads).values({ id: `sess-${userId}`, type: 'Session', payload: { accountId: userId } });
      expect((await harness.call(userId, 'GET', '/user/permissions')).status).toBe(200);
      const detail = await get<Detail>(users.admin, `/users/${userId}`);
      const locked = await harness.call(users.admin, 'PUT', `/users/${userId}/login`, { version: detail.version, locked: true });
      expect(locked.status).toBe(200);
      const lockedBody = await json<Detail>(locked);
      expect(lockedBody.status).toBe('locked');
      expect(new Date(lockedBody.lockoutEndDateUtc ?? 0).getTime()).toBeGreaterThan(Date.now());
      expect((await harness.call(userId, 'GET', '/user/permissions')).status).toBe(401);
      expect(await harness.database.query('SELECT 1 FROM oidc_payloads WHERE id = $1', [`sess-${userId}`])).toEqual([]);
      expect((await get<ListAnswer>(users.admin, `/user/users?locked=[eq]true&email=[eq]${encodeURIComponent(lockedBody.email)}`)).numberOfResults).toBe(1);
      const stale = await harness.call(users.admin, 'PUT', `/users/${userId}/login`, { version: detail.version, locked: false });
      expect(stale.status).toBe(409);
      const unlocked = await harness.call(users.admin, 'PUT', `/users/${userId}/login`, { version: lockedBody.version, locked: false });
      expect(await json<Detail>(unlocked)).toMatchObject({ status: 'active', lockoutEndDateUtc: null });
      expect((await harness.call(userId, 'GET', '/user/permissions')).status).toBe(200);
      expect(await auditCount('UserLocked', userId)).toBe(1);
      expect(await auditCount('UserUnlocked', userId)).toBe(1);
    });

    it('refuses an owner locking a user who also works for another business, and a lock in the past', async () => {
      const detail = await get<Detail>(users.admin, `/users/${twoBusinesses}`);
      expect((await harness.call(users.owner, 'PUT', `/users/${twoBusinesses}/login`, { version: detail.version, locked: true })).status).toBe(403);
      expect(
        (
          await harness.call(users.admin, 'PUT', `/users/${twoBusinesses}/login`, {
            version: detail.version,
            locked: true,
            lockoutEndDateUtc: '2020-01-01T00:00:00Z',
          })
        ).status,
      ).toBe(400);
      expect((await harness.call(users.owner, 'PUT', `/users/${users.finance}/login`, { version: 1, locked: true })).status).toBe(404);
    });
  });

  describe('DELETE /users/{id}', () => {
    it('needs both acknowledgements; deletes, audits, ends sessions, and refuses the email afterwards', async () => {
      const email = freshEmail('del');
      const userId = await accepted(email);
      const detail = await get<Detail>(users.owner, `/users/${userId}`);
      const half = await harness.call(users.owner, 'DELETE', `/users/${userId}`, {
        version: detail.version,
        acknowledgeAccessLoss: true,
        acknowledgeEmailBlocked: false,
      });
      expect(half.status).toBe(400);
      expect(await auditCount('UserDeletionFailed', userId)).toBe(1);
      // Both acknowledged, but no recent step-up: 403 asking for the password, nothing deleted.
      const unconfirmed = await harness.call(users.owner, 'DELETE', `/users/${userId}`, {
        version: detail.version,
        acknowledgeAccessLoss: true,
        acknowledgeEmailBlocked: true,
      });
      expect(unconfirmed.status).toBe(403);
      expect(JSON.stringify(await unconfirmed.json())).toContain(stepUpMessages.passwordRequired);
      expect((await harness.call(users.admin, 'GET', `/users/${userId}`)).status).toBe(200);
      await grantStepUp(harness.database, users.owner);
      const done = await harness.call(users.owner, 'DELETE', `/users/${userId}`, {
        version: detail.version,
        acknowledgeAccessLoss: true,
        acknowledgeEmailBlocked: true,
      });
      expect(done.status).toBe(204);
      expect(await auditCount('UserDeletionSuccessful', userId)).toBe(1);
      expect((await harness.call(users.admin, 'GET', `/users/${userId}`)).status).toBe(404);
      const again = await invite(users.admin, { emails: [email.toUpperCase()], policy: policy('B3', ['Finance']) });
      expect(again.status).toBe(400);
      expect((await messages(again))[0]).toContain('cannot be registered again');
    });

    it('refuses without the permission (customer service, readers), across tenants, and on a stale version; each audited as failed', async () => {
      const userId = await accepted(freshEmail('keep'));
      const detail = await get<Detail>(users.admin, `/users/${userId}`);
      const body = { version: detail.version, acknowledgeAccessLoss: true, acknowledgeEmailBlocked: true };
      expect((await harness.call(service, 'DELETE', `/users/${userId}`, body)).status).toBe(403);
      expect((await harness.call(users.readonly, 'DELETE', `/users/${userId}`, body)).status).toBe(403);
      expect((await harness.call(ownerB1, 'DELETE', `/users/${userId}`, body)).status).toBe(404);
      await grantStepUp(harness.database, users.admin);
      expect((await harness.call(users.admin, 'DELETE', `/users/${userId}`, { ...body, version: detail.version + 5 })).status).toBe(409);
      expect(await auditCount('UserDeletionFailed', userId)).toBe(4);
      expect((await harness.call(users.admin, 'GET', `/users/${userId}`)).status).toBe(200);
      expect((await harness.call(users.admin, 'DELETE', `/users/${users.admin}`, body)).status).toBe(400);
    });
  });

  describe('password reset', () => {
    it('sends a single-use reset link (administrator), which sets a new password once', async () => {
      const email = freshEmail('reset');
      const userId = await accepted(email);
      expect((await harness.call(users.owner, 'POST', `/users/${userId}/password-reset-email`)).status).toBe(202);
      const mail = await lastEmailTo(email);
      expect(mail?.template).toBe('passwordReset');
      const token = linkParameter(mail?.text ?? '', '/connect/reset-password', 'token');
      const weak = await publicCall('POST', '/password-resets', { token, password: 'short' });
      expect(weak.status).toBe(400);
      const ok = await publicCall('POST', '/password-resets', { token, password: 'Another-quiet-lantern-58' });
      expect(ok.status).toBe(200);
      expect((await publicCall('POST', '/password-resets', { token, password: 'Another-quiet-lantern-59' })).status).toBe(410);
      expect(await auditCount('PasswordResetEmailSent', userId)).toBe(1);
      expect(await auditCount('PasswordReset', userId)).toBe(1);
    });

    it('refuses an expired link', async () => {
      const email = freshEmail('reset-exp');
      const userId = await accepted(email);
      await publicCall('POST', '/password-reset-requests', { email });
      const token = linkParameter((await lastEmailTo(email))?.text ?? '', '/connect/reset-password', 'token');
      await harness.database.query(`UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [userId]);
      const response = await publicCall('POST', '/password-resets', { token, password: 'Another-quiet-lantern-58' });
      expect(response.status).toBe(410);
      expect(await messages(response)).toEqual(['Oops that link has expired.']);
    });

    it('answers a request the same whether the email exists or not, and rate-limits per email', async () => {
      const known = freshEmail('known');
      await accepted(known);
      const a = await publicCall('POST', '/password-reset-requests', { email: known });
      const b = await publicCall('POST', '/password-reset-requests', { email: 'nobody-here@invitee.test' });
      expect(a.status).toBe(202);
      expect(b.status).toBe(202);
      expect(await a.json()).toEqual(await b.json());
      expect((await lastEmailTo(known))?.template).toBe('passwordReset');
      expect(await lastEmailTo('nobody-here@invitee.test')).toBeUndefined();
      for (let n = 0; n < 2; n += 1) expect((await publicCall('POST', '/password-reset-requests', { email: 'nobody-here@invitee.test' })).status).toBe(202);
      expect((await publicCall('POST', '/password-reset-requests', { email: 'nobody-here@invitee.test' })).status).toBe(429);
    });

    it('refuses the reset email to an owner for a user beyond their business', async () => {
      expect((await harness.call(users.owner, 'POST', `/users/${twoBusinesses}/password-reset-email`)).status).toBe(403);
      expect((await harness.call(users.owner, 'POST', `/users/${users.finance}/password-reset-email`)).status).toBe(404);
    });
  });

  describe('own profile', () => {
    it('PATCH /users changes the caller’s names with a version, refuses stale versions and email changes', async () => {
      const me = await get<Detail>(users.nobody, `/users/${users.nobody}`);
      const response = await harness.call(users.nobody, 'PATCH', '/users', { version: me.version, givenName: 'Noah', phoneNumber: '+44 20 7946 0000' });
      expect(response.status).toBe(200);
      expect(await json<Detail>(response)).toMatchObject({ givenName: 'Noah', phoneNumber: '+44 20 7946 0000', version: me.version + 1 });
      expect((await harness.call(users.nobody, 'PATCH', '/users', { version: me.version, givenName: 'Stale' })).status).toBe(409);
      await grantStepUp(harness.database, users.nobody);
      expect((await harness.call(users.nobody, 'PATCH', '/users', { version: me.version + 1, email: 'OWNER@fixture.test' })).status).toBe(400);
      // A new address is emailed a confirmation link; the account keeps the old one until it is confirmed.
      const changed = await harness.call(users.nobody, 'PATCH', '/users', { version: me.version + 1, email: `new.${kind}@else.test` });
      expect(changed.status).toBe(200);
      expect((await json<Detail>(changed)).email).toBe('nobody@fixture.test');
      const mail = await lastEmailTo(`new.${kind}@else.test`);
      expect(mail?.template).toBe('emailChangeConfirmation');
      expect(linkParameter(mail?.text ?? '', '/connect/confirm-email', 'token').length).toBeGreaterThan(30);
      expect(await auditCount('OwnProfileUpdated', users.nobody)).toBe(2);
    });

    it('PUT /user/password needs the current password and a strong new one', async () => {
      expect((await harness.call(ownerB1, 'PUT', '/user/password', { currentPassword: 'wrong', newPassword: 'Another-quiet-lantern-58' })).status).toBe(400);
      expect((await harness.call(ownerB1, 'PUT', '/user/password', { currentPassword: strongPassword, newPassword: 'abc' })).status).toBe(400);
      expect((await harness.call(ownerB1, 'PUT', '/user/password', { currentPassword: strongPassword, newPassword: 'Another-quiet-lantern-58' })).status).toBe(
        204,
      );
      expect(await auditCount('PasswordChanged', ownerB1)).toBe(1);
    });
  });

  describe('partner users', () => {
    it('lists a partner’s users to its owner and to internal readers; 404 for another partner or tenant', async () => {
      const list = await get<ListAnswer>(users.partner, '/partners/P1/users');
      expect(list.results.map((user) => user.userId)).toEqual([users.partner]);
      expect((await get<ListAnswer>(users.readonly, '/partners/P1/users')).numberOfResults).toBeGreaterThanOrEqual(1);
      expect((await harness.call(users.partner, 'GET', '/partners/P2/users')).status).toBe(404);
      expect((await harness.call(users.owner, 'GET', '/partners/P1/users')).status).toBe(404);
      expect((await harness.call(users.admin, 'GET', '/partners/NOPE/users')).status).toBe(404);
    });

    it('invites and updates partner users within what the caller holds at the partner', async () => {
      const email = freshEmail('partner');
      const response = await harness.call(users.partner, 'POST', '/partners/P1/users', { emails: [email], roles: ['Finance'] });
      expect(response.status).toBe(201);
      const userId = (await json<{ users: { userId: string }[] }>(response)).users[0]?.userId ?? '';
      const detail = await get<Detail>(users.partner, `/users/${userId}`);
      expect(detail.policyStructure.portalPolicy.partnerPolicy).toMatchObject({ partnerId: 'P1', roles: ['Finance'] });
      const updated = await harness.call(users.partner, 'PUT', `/partners/P1/users/${userId}`, { version: detail.version, roles: ['Finance', 'Sales'] });
      expect(updated.status).toBe(200);
      expect((await json<Detail>(updated)).policyStructure.portalPolicy.partnerPolicy?.roles.sort()).toEqual(['Finance', 'Sales']);
      expect((await harness.call(users.partner, 'PUT', `/partners/P1/users/${userId}`, { version: detail.version, roles: ['Finance'] })).status).toBe(409);
      expect((await harness.call(users.partner, 'POST', '/partners/P1/users', { emails: [freshEmail('p')], roles: ['TechnicalAdmin'] })).status).toBe(400);
      expect((await harness.call(users.readonly, 'POST', '/partners/P1/users', { emails: [freshEmail('p')], roles: ['Finance'] })).status).toBe(403);
      expect((await harness.call(users.partner, 'PUT', `/partners/P2/users/${userId}`, { version: 1, roles: ['Finance'] })).status).toBe(404);
      expect((await harness.call(users.partner, 'PUT', `/partners/P1/users/${users.finance}`, { version: 1, roles: ['Finance'] })).status).toBe(404);
    });
  });

  it('GET /users/{id}/audit-events lists what happened to the user, an owner only within their business', async () => {
    const userId = await accepted(freshEmail('trail'));
    const detail = await get<Detail>(users.owner, `/users/${userId}`);
    await harness.call(users.owner, 'PUT', `/users/${userId}/login`, { version: detail.version, locked: true });
    await harness.database.db
      .insert(schema.auditEvents)
      .values({ userId: users.admin, event: 'UserUpdated', dateTimeUtc: new Date(), businessId: 'B2', metaData: { targetUserId: userId } });
    const asOwner = await get<{ results: { event: string; actor: string }[] }>(users.owner, `/users/${userId}/audit-events`);
    expect(asOwner.results.map((event) => event.event)).toEqual(['UserLocked', 'InvitationAccepted', 'UserInvited']);
    expect(asOwner.results[0]?.actor).toBe('u-owner Test');
    const asAdmin = await get<{ results: { event: string }[] }>(users.admin, `/users/${userId}/audit-events`);
    expect(asAdmin.results.map((event) => event.event)).toEqual(['UserUpdated', 'UserLocked', 'InvitationAccepted', 'UserInvited']);
    expect((await harness.call(users.finance, 'GET', `/users/${userId}/audit-events`)).status).toBe(404);
  });

  it('lists the caller’s sessions and signs out everywhere', async () => {
    const { db } = harness.database;
    await db.insert(schema.oidcPayloads).values([
      { id: 'sess-a', type: 'Session', payload: { accountId: users.finance, loginTs: 1_790_000_000 }, expiresAt: new Date(Date.now() + 3_600_000) },
      { id: 'sess-b', type: 'Session', payload: { accountId: users.owner, loginTs: 1_790_000_000 }, expiresAt: new Date(Date.now() + 3_600_000) },
    ]);
    const mine = await get<{ results: { signedInUtc: string }[] }>(users.finance, '/user/sessions');
    expect(mine.results).toEqual([{ signedInUtc: new Date(1_790_000_000_000).toISOString(), expiresUtc: expect.any(String) }]);
    expect((await harness.call(users.finance, 'POST', '/user/sessions/revocation')).status).toBe(400);
    expect((await harness.call(users.finance, 'POST', '/user/sessions/revocation', { confirm: true })).status).toBe(204);
    expect((await get<{ results: unknown[] }>(users.finance, '/user/sessions')).results).toEqual([]);
    expect(await harness.database.query(`SELECT id FROM oidc_payloads WHERE id = 'sess-b'`)).toHaveLength(1);
    expect(await auditCount('SignedOutEverywhere', users.finance)).toBe(1);
  });

  it('answers hostile input on the public calls with a 4xx and an errorReport, never a 5xx', async () => {
    const bodies: [string, string][] = [
      ['not json', 'application/json'],
      ['[]', 'application/json'],
      ['null', 'application/json'],
      ['{"inviteId":"\\u0000"}', 'application/json'],
      [JSON.stringify({ inviteId: 'x'.repeat(5000), givenName: 'a', familyName: 'b', password: 'c' }), 'application/json'],
      [JSON.stringify({ token: "' OR 1=1 --", password: 'x' }), 'application/json'],
      [JSON.stringify({ email: 'a@b.c' }), 'text/plain'],
      [JSON.stringify({ email: '<script>@x' }), 'application/json'],
      [JSON.stringify({ email: 42 }), 'application/json'],
    ];
    for (const path of ['/user-invites/accept', '/password-reset-requests', '/password-resets']) {
      for (const [body, type] of bodies) {
        const response = await harness.call(null, 'POST', `/../public${path}`, body, { 'content-type': type });
        expect(response.status, `${path} ${body.slice(0, 40)}`).toBeGreaterThanOrEqual(400);
        expect(response.status, `${path} ${body.slice(0, 40)}`).toBeLessThan(500);
        expect((await response.json()) as object).toHaveProperty('errorReport.errors.0.message');
      }
    }
    for (const id of ['%00', '..%2F..%2Fetc', 'x'.repeat(3000), "' OR 1=1 --"]) {
      const response = await harness.call(null, 'GET', `/../public/user-invites/${id}`);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    for (const [body, type] of bodies) {
      const response = await harness.call(null, 'POST', '/../public/user-invites/lookup', body, { 'content-type': type });
      expect(response.status, `lookup ${body.slice(0, 40)}`).toBeGreaterThanOrEqual(400);
      expect(response.status, `lookup ${body.slice(0, 40)}`).toBeLessThan(500);
    }
  });

  it('GET /user/role-groups names groups with their roles and targets', async () => {
    const { results } = await get<{ results: { name: string; roles: string[]; targets: string[] }[] }>(users.owner, '/user/role-groups');
    expect(results.find((group) => group.name === 'Administrator')).toEqual(expect.objectContaining({ roles: ['Owner'], targets: ['business'] }));
  });
});
