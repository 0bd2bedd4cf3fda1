// GET /outbox and /outbox/{id}: Technical admins read every message the portal queued or sent, newest first;
// nobody else may (internal read-only included); filters are declared, anything else is a 400.
import { describe, expect, it } from 'vitest';
import { queueEmail } from '../../../server/mail/outbox.ts';
import { databaseKinds, fixture, useFixtureApp } from '../support.ts';

const content = (subject: string) => ({
  template: 'test',
  subject,
  heading: subject,
  paragraphs: ['<b>not markup</b>'],
  action: { label: 'Open', url: 'https://portal.test/x' },
});

for (const kind of databaseKinds) {
  describe(`the outbox API on ${kind}`, () => {
    const harness = useFixtureApp(kind);

    it('lists every message newest first for a Technical admin, with filters, and shows one with both bodies', async () => {
      const first = await queueEmail(harness.database.db, 'Jo@Example.com', content('First message'));
      await new Promise((done) => setTimeout(done, 15));
      const second = await queueEmail(harness.database.db, 'sam@example.com', { ...content('Second message'), template: 'other' });
      const list = await harness.call(fixture.users.admin, 'GET', '/outbox?pagesize=10');
      expect(list.status).toBe(200);
      const page = (await list.json()) as { results: { id: string; subject: string; status: string }[]; numberOfResults: number };
      expect(page.numberOfResults).toBe(2);
      expect(page.results.map((row) => row.id)).toEqual([second.id, first.id]);
      expect(page.results[0]).toMatchObject({ subject: 'Second message', status: 'queued' });

      const byRecipient = (await (await harness.call(fixture.users.admin, 'GET', `/outbox?recipient=${encodeURIComponent('[eq]jo@example.COM')}`)).json()) as {
        results: { id: string }[];
      };
      expect(byRecipient.results.map((row) => row.id)).toEqual([first.id]);
      const byTemplate = (await (await harness.call(fixture.users.admin, 'GET', '/outbox?template=[eq]other&status=[eq]queued')).json()) as {
        results: { id: string }[];
      };
      expect(byTemplate.results.map((row) => row.id)).toEqual([second.id]);

      const one = await harness.call(fixture.users.admin, 'GET', `/outbox/${first.id}`);
      expect(one.status).toBe(200);
      expect(one.headers.get('cache-control')).toBe('no-store');
      const message = (await one.json()) as { html: string; text: string; recipient: string };
      expect(message.recipient).toBe('Jo@Example.com');
      expect(message.html).toContain('&lt;b&gt;not markup&lt;/b&gt;');
      expect(message.text).toContain('Open: https://portal.test/x');
    });

    it('searches recipient or subject, in any case, with % and _ as plain characters', async () => {
      const jo = await queueEmail(harness.database.db, 'Jo.Smith@Searchable.test', content('Your payment link'));
      const sale = await queueEmail(harness.database.db, 'sam@searchable.test', content('100% off: Summer_Sale'));
      const other = await queueEmail(harness.database.db, 'alex@shop.test', { ...content('Weekly report'), template: 'other' });
      const found = async (term: string, extra = '') => {
        const response = await harness.call(fixture.users.admin, 'GET', `/outbox?searchterm=${encodeURIComponent(`[eq]${term}`)}${extra}`);
        expect(response.status, term).toBe(200);
        return ((await response.json()) as { results: { id: string }[] }).results.map((row) => row.id).sort();
      };
      expect(await found('jo.smith@SEARCHABLE')).toEqual([jo.id]);
      expect(await found('PAYMENT LINK')).toEqual([jo.id]);
      expect(await found('searchable.test')).toEqual([jo.id, sale.id].sort());
      expect(await found('100%')).toEqual([sale.id]);
      expect(await found('r_s')).toEqual([sale.id]);
      // Not wildcards: '%' matches only a percent sign, '_' only an underscore.
      expect(await found('%')).toEqual([sale.id]);
      expect(await found('y_l')).toEqual([]);
      expect(await found('o%o')).toEqual([]);
      expect(await found('  weekly  ')).toEqual([other.id]);
      // With the other filters.
      expect(await found('searchable', '&template=[eq]test&pagesize=10')).toEqual([jo.id, sale.id].sort());
      expect(await found('searchable', '&template=[eq]other')).toEqual([]);
      expect((await harness.call(fixture.users.admin, 'GET', `/outbox?searchterm=${encodeURIComponent(`[eq]${'x'.repeat(101)}`)}`)).status).toBe(400);
      expect((await harness.call(fixture.users.admin, 'GET', `/outbox?searchterm=${encodeURIComponent('[eq]a\u0001b')}`)).status).toBe(400);
    });

    it('refuses everyone but Technical admins, internal read-only staff included', async () => {
      for (const user of [fixture.users.readonly, fixture.users.owner, fixture.users.partner, fixture.users.merchantOnly]) {
        expect((await harness.call(user, 'GET', '/outbox')).status).toBe(403);
        expect((await harness.call(user, 'GET', '/outbox/EMX')).status).toBe(403);
      }
      expect((await harness.call(null, 'GET', '/outbox')).status).toBe(401);
    });

    it('answers 404 for an unknown or malformed id and 400 for undeclared or bad filters', async () => {
      expect((await harness.call(fixture.users.admin, 'GET', '/outbox/EMNOPE')).status).toBe(404);
      expect((await harness.call(fixture.users.admin, 'GET', `/outbox/${'x'.repeat(80)}`)).status).toBe(404);
      const undeclared = await harness.call(fixture.users.admin, 'GET', '/outbox?html=[eq]x');
      expect(undeclared.status).toBe(400);
      expect(JSON.stringify(await undeclared.json())).toContain("'html' is not a filter of this list");
      expect((await harness.call(fixture.users.admin, 'GET', '/outbox?status=[eq]lost')).status).toBe(400);
    });
  });
}
