// The palette's record search: results grouped by kind, an answer of an older query never shown under a
// newer one, completion of field names and values, problems explained inline, and Enter on a field query opening
// the filtered overview (Shift+Enter beside).
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { CommandPalette } from '../../src/app/palette.tsx';
import { useShortcutBinder } from '../../src/app/shortcut-binder.ts';
import { useAppServices } from '../../src/app/app-services.tsx';
import { currentLayout } from '../../src/state/workspace-store.ts';
import { fakeApi, merchantContext, renderWithServices, resetStores, signIn } from './support.tsx';

function Harness() {
  const { registry, commandServices } = useAppServices();
  useShortcutBinder(registry, commandServices);
  return <CommandPalette />;
}

const permissions = ['Mapi.Transactions.Read', 'Portal.PaymentJobs.Read', 'Mapi.Users.Read'];
const transaction = (reference: string) => ({
  kind: 'transaction',
  id: reference,
  title: `Transaction ${reference}`,
  description: 'paid · EUR 12.00 · Little Wren',
  path: `/transactions/${reference}`,
  context: { business: { id: 'B1', title: 'Alpha' }, merchant: { id: 'M1', title: 'Little Wren' } },
});

type Deferred = { resolve: (value: unknown) => void; promise: Promise<unknown> };
function deferred(): Deferred {
  let resolve: (value: unknown) => void = () => undefined;
  const promise = new Promise((done) => {
    resolve = done;
  });
  return { resolve, promise };
}

async function openPalette(user: ReturnType<typeof userEvent.setup>) {
  await user.keyboard('{Control>}k{/Control}');
  return screen.findByRole('combobox', { name: 'Command palette' });
}

describe('palette record search', () => {
  beforeEach(() => {
    resetStores();
    fakeApi();
    signIn({ permissions, context: merchantContext });
  }, 20_000);

  it('never lets the answer of an older query replace the newer one’s', async () => {
    const answers = new Map<string, Deferred>();
    fakeApi({
      '/search': (options) => {
        const term = (options as { query: { term: string } }).query.term;
        const answer = deferred();
        answers.set(term, answer);
        return answer.promise;
      },
    });
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    await openPalette(user);
    await user.keyboard('TX6D');
    await waitFor(() => expect(answers.has('TX6D')).toBe(true), { timeout: 8000 });
    // While it is looked up, the status line says so; the list holds only options and groups (no progressbar: axe).
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Looking up records…'));
    expect(within(screen.getByRole('listbox')).queryByRole('progressbar')).toBeNull();
    await user.keyboard('E23E');
    await waitFor(() => expect(answers.has('TX6DE23E')).toBe(true), { timeout: 8000 });
    // The newer answer arrives first, the older one after it.
    answers.get('TX6DE23E')?.resolve({ results: [transaction('TX6DE23E07A1')] });
    await screen.findByRole('option', { name: /TX6DE23E07A1/ }, { timeout: 8000 });
    answers.get('TX6D')?.resolve({ results: [transaction('TX6D00000001'), transaction('TX6DE23E07A1')] });
    await new Promise((done) => setTimeout(done, 100));
    const group = screen.getByRole('group', { name: 'Transactions' });
    expect(
      within(group)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([expect.stringContaining('TX6DE23E07A1')]);
    expect(screen.queryByText(/TX6D00000001/)).toBeNull();
  }, 20_000);

  it('groups records under a heading per kind and opens one with Enter', async () => {
    fakeApi({
      '/search': () => ({
        results: [
          transaction('TX6DE23E07A1'),
          { kind: 'user', id: 'u-jo', title: 'Jo Wren', description: 'User · jo@wren.test', path: '/users/u-jo', context: {} },
        ],
      }),
    });
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    await openPalette(user);
    await user.keyboard('TX6DE23E');
    const transactions = await screen.findByRole('group', { name: 'Transactions' }, { timeout: 8000 });
    expect(within(screen.getByRole('group', { name: 'Users' })).getByRole('option').textContent).toContain('Jo Wren');
    expect(within(transactions).getByRole('option').getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(currentLayout().paths).toEqual(['/transactions/TX6DE23E07A1']));
  }, 20_000);

  it('completes field names and values as you type', async () => {
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    const input = await openPalette(user);
    await user.keyboard('sta');
    const complete = await screen.findByRole('group', { name: 'Complete' }, { timeout: 8000 });
    // A field name is offered after the commands that match (Enter stays theirs); arrows or a click reach it.
    const option = within(complete).getByRole('option');
    expect(option.textContent).toContain('status:');
    await user.click(option);
    await waitFor(() => expect((input as HTMLInputElement).value).toBe('status:'));
    await user.keyboard('pa');
    await waitFor(() => expect(within(screen.getByRole('group', { name: 'Complete' })).getAllByRole('option')[0]?.textContent).toContain('status:paid'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect((input as HTMLInputElement).value).toBe('status:paid '));
  }, 20_000);

  it('explains invalid syntax inline, where it is', async () => {
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    await openPalette(user);
    await user.paste('status:payed amount:>100');
    const status = await screen.findByText(/is not one of/, {}, { timeout: 8000 });
    expect(status.closest('[role="status"]')).not.toBeNull();
    expect(status.querySelector('mark')?.textContent).toBe('status:payed');
  }, 20_000);

  it('opens the transactions overview with the field query as its filters, beside with Shift+Enter', async () => {
    fakeApi({
      '/search': () => ({ results: [] }),
      '/search/merchants': () => ({ results: [{ id: 'M7', name: 'Little Wren', businessId: 'B1', businessName: 'Alpha' }] }),
    });
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    await openPalette(user);
    await user.paste('status:paid amount:>=100 currency:eur merchant:"Little Wren" is:refunded');
    const overview = await screen.findByRole('group', { name: 'Overview' }, { timeout: 8000 });
    expect(within(overview).getByRole('option').getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Shift>}{Enter}{/Shift}');
    await waitFor(() => expect(currentLayout().paths.length).toBeGreaterThan(0));
    const path = currentLayout().paths.at(-1) ?? '';
    const url = new URL(path, 'https://portal.test');
    expect(url.pathname).toBe('/transactions');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      status: '[eq]paid',
      amount: '[gte]100',
      currency: '[eq]EUR',
      merchantid: '[eq]M7',
      kind: '[eq]refund',
      scope: 'all',
    });
  }, 20_000);

  it('opens a card’s last four with the preview’s scope and filters, and names what it could not use', async () => {
    const terms: string[] = [];
    fakeApi({
      '/search': (options) => {
        terms.push((options as { query: { term: string } }).query.term);
        return { results: [transaction('TX6DE23E07A1')] };
      },
    });
    const user = userEvent.setup();
    renderWithServices(<Harness />);
    await openPalette(user);
    // The amount has no currency (compared in each row's own, as the preview does); colour:red and hi are not used.
    await user.paste('5100 status:paid amount:>100 colour:red hi date:yesterday');
    expect(await screen.findByText(/'colour' is not a field/, {}, { timeout: 8000 })).toBeTruthy();
    expect(screen.getByText(/'hi' is not used/).closest('[role="status"]')).not.toBeNull();
    const overview = await screen.findByRole('group', { name: 'Overview' }, { timeout: 8000 });
    expect(within(overview).getByRole('option').textContent).toContain('last4:5100');
    await waitFor(() => expect(terms.at(-1)).toBe('5100 status:paid amount:>100 colour:red hi date:yesterday'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(currentLayout().paths.at(-1) ?? '').toMatch(/^\/transactions\?/));
    const url = new URL(currentLayout().paths.at(-1) ?? '', 'https://portal.test');
    const params = Object.fromEntries(url.searchParams);
    // The preview looked through everything the user may see, whatever the applied context: so does the list.
    expect(params).toMatchObject({ last4: '[eq]5100', status: '[eq]paid', amount: '[gte]100.001', scope: 'all', unused: 'colour:red hi' });
    expect(params.date).toMatch(/^\[gte\]\d{4}-\d{2}-\d{2}T00:00:00\[and\]\[lte\]\d{4}-\d{2}-\d{2}T23:59:59/);
    expect(params).not.toHaveProperty('currency');
    expect(params).not.toHaveProperty('searchterm');
  }, 20_000);
});
