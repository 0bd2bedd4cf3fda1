// The ticket screens against a fake Portal API: the conversation (internal notes for staff only, Ctrl+Enter,
// older comments, truncated file names, confirmed removal) and the new ticket form (type from ?type=, checks).
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NewTicketPane, typeFromSearch } from '../../../panes/tickets/new-ticket-pane.tsx';
import { TicketDetailPane } from '../../../panes/tickets/ticket-detail-pane.tsx';
import type { TicketComment, TicketDetail } from '../../../src/contract/ticket-schemas.ts';
import { uploadMessages } from '../../../src/contract/tickets.ts';
import { requestOfTicket } from '../../../src/state/ticket-requests.ts';
import { toastStore } from '../../../src/state/toast-store.ts';
import { fakeApi, merchantContext, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

vi.setConfig({ testTimeout: 20_000 });

const longName = 'quarterly-settlement-report-november.pdf';

const ticket = (overrides: Partial<TicketDetail> = {}): TicketDetail => ({
  ticketId: 'TCK1',
  businessId: 'B1',
  businessName: 'Alpha Trading',
  merchantId: null,
  merchantName: null,
  type: 'bug',
  status: 'Open',
  priority: 'High',
  subject: 'Export fails',
  description: 'The export stops at 10%.',
  createdUtc: '2026-11-01T10:00:00.000Z',
  lastUpdatedUtc: '2026-11-02T10:00:00.000Z',
  createdBy: { userId: 'user-9', name: 'Olive Owner' },
  assignee: null,
  version: 3,
  linkedTransactionReference: 'TX0001',
  linkedPaymentJobReference: null,
  attachments: [
    {
      ticketAttachmentId: 'TCA1',
      ticketCommentId: null,
      filename: longName,
      mimeType: 'application/pdf',
      size: 2048,
      uploadedBy: { userId: 'user-9', name: 'Olive Owner' },
      createdUtc: '2026-11-01T10:00:00.000Z',
      removable: true,
    },
  ],
  allAttachments: [],
  commentCount: 2,
  ...overrides,
});

const comment = (id: string, text: string, overrides: Partial<TicketComment> = {}): TicketComment => ({
  ticketCommentId: id,
  ticketId: 'TCK1',
  text,
  internal: false,
  author: { userId: 'user-9', name: 'Olive Owner', staff: false },
  createdUtc: '2026-11-02T10:00:00.000Z',
  lastUpdatedUtc: '2026-11-02T10:00:00.000Z',
  version: 1,
  attachments: [],
  editable: false,
  ...overrides,
});

const render = () => renderWithServices(<TicketDetailPane params={{ ticketId: 'TCK1' }} search="" capability="Support ticket" />);

describe('the ticket conversation', () => {
  beforeEach(() => resetStores());

  it('shows the request, its files cut after 20 characters with the full name for screen readers, and the comments newest last', async () => {
    signIn({ permissions: ['Portal.Tickets.Read', 'Portal.Tickets.Create'], context: merchantContext, paths: ['/tickets/TCK1'] });
    fakeApi({
      '/tickets/TCK1': () => ticket(),
      '/tickets/TCK1/comments': () => ({ results: [comment('C1', 'First reply'), comment('C2', 'Second reply')], numberOfResults: 2, hasOlder: false }),
    });
    render();
    expect(await screen.findByRole('heading', { name: 'Export fails', level: 1 })).toBeTruthy();
    const download = screen.getByRole('button', { name: /^Download quarterly-settlement-report-november\.pdf/ });
    expect(download.querySelector('[aria-hidden="true"]')?.textContent).toBe('quarterly-settlement…');
    expect(download.querySelector('[title]')?.getAttribute('title')).toBe(longName);
    const messages = await screen.findAllByRole('article', { name: /^Comment by/ });
    expect(messages.map((message) => within(message).getByText(/reply$/).textContent)).toEqual(['First reply', 'Second reply']);
    expect(screen.getByRole('link', { name: 'Transaction TX0001' }).getAttribute('href')).toBe('/transactions/TX0001');
    // Not staff: no internal-note switch, no workflow controls.
    expect(screen.queryByRole('checkbox', { name: 'Internal note' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Status' })).toBeNull();
  });

  it('sends an internal note with Ctrl+Enter for staff, and marks internal notes', async () => {
    signIn({
      permissions: ['Portal.Tickets.Read', 'Portal.Tickets.Create', 'Portal.Tickets.Read.Internal'],
      context: merchantContext,
      paths: ['/tickets/TCK1'],
    });
    const api = fakeApi({
      '/tickets/TCK1': () => ticket(),
      '/tickets/TCK1/comments': () => ({
        results: [comment('C1', 'Cache issue', { internal: true, author: { userId: 'user-1', name: 'Ada Lovelace', staff: true } })],
        numberOfResults: 1,
        hasOlder: false,
      }),
      '/ticket-assignees': () => ({ results: [{ userId: 'user-1', name: 'Ada Lovelace' }] }),
    });
    api.post = (async () => ({ ticketCommentId: 'C9' })) as never;
    const posted: unknown[] = [];
    const post = api.post;
    api.post = (async (path: string, body: unknown) => {
      posted.push([path, body]);
      return post(path, body);
    }) as never;
    render();
    expect(await screen.findByRole('article', { name: 'Internal note by Ada Lovelace' })).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Internal note' }));
    const composer = screen.getByRole('textbox', { name: 'Internal note' });
    await user.type(composer, 'Waiting for finance');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(posted).toEqual([['/tickets/TCK1/comments', { text: 'Waiting for finance', internal: true }]]));
    await waitFor(() => expect((composer as HTMLTextAreaElement).value).toBe(''));
  });

  it('loads the 20 comments before the oldest shown on "Show older comments"', async () => {
    signIn({ permissions: ['Portal.Tickets.Read'], context: merchantContext, paths: ['/tickets/TCK1'] });
    const api = fakeApi({
      '/tickets/TCK1': () => ticket(),
      '/tickets/TCK1/comments': (options) =>
        (options as { query?: { before?: string } }).query?.before === 'C21'
          ? { results: [comment('C1', 'Oldest reply')], numberOfResults: 21, hasOlder: false }
          : { results: [comment('C21', 'Newest reply')], numberOfResults: 21, hasOlder: true },
    });
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Show older comments' }));
    await screen.findByText('Oldest reply');
    const texts = screen.getAllByRole('article', { name: /^Comment by/ }).map((message) => message.querySelector('.ticket-message-text')?.textContent);
    expect(texts).toEqual(['Oldest reply', 'Newest reply']);
    expect(api.get).toHaveBeenCalledWith('/tickets/TCK1/comments', expect.objectContaining({ query: { before: 'C21' } }));
    expect(screen.queryByRole('button', { name: 'Show older comments' })).toBeNull();
  });

  it('asks before removing a file, and keeps it when told to', async () => {
    signIn({ permissions: ['Portal.Tickets.Read', 'Portal.Tickets.Create'], context: merchantContext, paths: ['/tickets/TCK1'] });
    const api = fakeApi({ '/tickets/TCK1': () => ticket(), '/tickets/TCK1/comments': () => ({ results: [], numberOfResults: 0, hasOlder: false }) });
    const deleted: string[] = [];
    api.delete = (async (path: string) => {
      deleted.push(path);
    }) as never;
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `Remove ${longName}` }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove this file?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(deleted).toEqual([]);
    await user.click(screen.getByRole('button', { name: `Remove ${longName}` }));
    await user.click(within(screen.getByRole('alertdialog', { name: 'Remove this file?' })).getByRole('button', { name: 'Remove file' }));
    await waitFor(() => expect(deleted).toEqual(['/tickets/TCK1/attachments/TCA1']));
  });

  it('edits one’s own comment in place (Ctrl+Enter saves with its version) and deletes a comment after asking', async () => {
    signIn({ permissions: ['Portal.Tickets.Read', 'Portal.Tickets.Create'], context: merchantContext, paths: ['/tickets/TCK1'] });
    let comments = [
      comment('C1', 'Their reply', { author: { userId: 'user-1', name: 'Ada Lovelace', staff: true } }),
      comment('C2', 'My reply wiht a typo', { editable: true, version: 2 }),
    ];
    const api = fakeApi({
      '/tickets/TCK1': () => ticket(),
      '/tickets/TCK1/comments': () => ({ results: comments, numberOfResults: comments.length, hasOlder: false }),
    });
    const put = api.put as unknown as ReturnType<typeof vi.fn>;
    put.mockImplementation(async (_path: string, body: { text: string }) => {
      comments = [comments[0]!, comment('C2', body.text, { editable: true, version: 3 })];
      return comments[1];
    });
    const deleted: string[] = [];
    api.delete = (async (path: string) => {
      deleted.push(path);
      comments = [comments[0]!];
    }) as never;
    render();
    const user = userEvent.setup();
    const theirs = await screen.findByRole('article', { name: 'Comment by Ada Lovelace' });
    // Not one's own: neither edit nor delete (not staff).
    expect(within(theirs).queryByRole('button', { name: 'Edit this comment' })).toBeNull();
    expect(within(theirs).queryByRole('button', { name: 'Delete this comment' })).toBeNull();
    const mine = screen.getByRole('article', { name: 'Comment by Olive Owner' });
    await user.click(within(mine).getByRole('button', { name: 'Edit this comment' }));
    const editor = screen.getByRole('textbox', { name: 'Edit comment' });
    expect(document.activeElement).toBe(editor);
    await user.clear(editor);
    await user.type(editor, 'My reply with no typo');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(put.mock.calls[0]?.slice(0, 2)).toEqual(['/tickets/TCK1/comments/C2', { text: 'My reply with no typo', version: 2 }]));
    expect(await screen.findByText('My reply with no typo')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Edit comment' })).toBeNull();
    await user.click(within(screen.getByRole('article', { name: 'Comment by Olive Owner' })).getByRole('button', { name: 'Delete this comment' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this comment?' });
    expect(dialog.textContent).toContain('The comment by Olive Owner will be deleted for everyone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete comment' }));
    await waitFor(() => expect(deleted).toEqual(['/tickets/TCK1/comments/C2']));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Comment by Olive Owner' })).toBeNull());
  });

  it("'Edit my last comment' opens the caller's latest comment; Escape leaves it unchanged", async () => {
    signIn({ permissions: ['Portal.Tickets.Read', 'Portal.Tickets.Create'], context: merchantContext, paths: ['/tickets/TCK1'] });
    const api = fakeApi({
      '/tickets/TCK1': () => ticket(),
      '/tickets/TCK1/comments': () => ({
        results: [
          comment('C1', 'Older of mine', { editable: true }),
          comment('C2', 'Latest of mine', { editable: true }),
          comment('C3', 'Support answer', { author: { userId: 'user-1', name: 'Ada Lovelace', staff: true } }),
        ],
        numberOfResults: 3,
        hasOlder: false,
      }),
    });
    render();
    await screen.findByText('Support answer', undefined);
    act(() => requestOfTicket('TCK1', 'editLastComment'));
    const editor = await screen.findByRole('textbox', { name: 'Edit comment' });
    expect((editor as HTMLTextAreaElement).value).toBe('Latest of mine');
    const user = userEvent.setup();
    await user.type(editor, ' and more');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Edit comment' })).toBeNull();
    expect(screen.getByText('Latest of mine')).toBeTruthy();
    expect(api.put).not.toHaveBeenCalled();
  });

  it('refuses a file over 5 MB before sending it, with the spec’s message', async () => {
    signIn({ permissions: ['Portal.Tickets.Read', 'Portal.Tickets.Create'], context: merchantContext, paths: ['/tickets/TCK1'] });
    fakeApi({ '/tickets/TCK1': () => ticket(), '/tickets/TCK1/comments': () => ({ results: [], numberOfResults: 0, hasOlder: false }) });
    const { container } = render();
    await screen.findByRole('button', { name: 'Attach files…' });
    const input = container.querySelector<HTMLInputElement>('input[type="file"]');
    const big = new File([new Uint8Array(5_242_881)], 'huge.png', { type: 'image/png' });
    fireEvent.change(input as HTMLInputElement, { target: { files: [big] } });
    expect(toastStore.toasts.map((toast) => toast.message)).toContain(`huge.png: ${uploadMessages.tooLarge}`);
    expect(screen.queryByRole('list', { name: 'Files to attach' })).toBeNull();
    const fine = new File([new Uint8Array(10)], 'shot.png', { type: 'image/png' });
    fireEvent.change(input as HTMLInputElement, { target: { files: [fine] } });
    expect(within(screen.getByRole('list', { name: 'Files to attach' })).getByText('shot.png')).toBeTruthy();
  });
});

describe('the new ticket form', () => {
  beforeEach(() => resetStores());

  it('takes its type from ?type=, else general', () => {
    expect(typeFromSearch('?type=bug')).toBe('bug');
    expect(typeFromSearch('?type=featureRequest')).toBe('featureRequest');
    expect(typeFromSearch('?type=<script>')).toBe('general');
    expect(typeFromSearch('')).toBe('general');
  });

  it('says what is missing, then sends the ticket to the applied context with Ctrl+Enter', async () => {
    signIn({ permissions: ['Portal.Tickets.Create'], context: merchantContext, paths: ['/tickets/add?type=bug'] });
    const api = fakeApi();
    const posted: unknown[] = [];
    api.post = (async (path: string, body: unknown) => {
      posted.push([path, body]);
      return { ticketId: 'TCKNEW' };
    }) as never;
    renderWithServices(<NewTicketPane params={{}} search="?type=bug&transaction=TX0001" capability="New support ticket" />);
    expect((screen.getByRole('combobox', { name: 'Type' }) as HTMLSelectElement).value).toBe('bug');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send ticket' }));
    expect(screen.getByText('Subject is required')).toBeTruthy();
    expect(screen.getByText('Description is required')).toBeTruthy();
    expect(posted).toEqual([]);
    await user.type(screen.getByRole('textbox', { name: /Subject/ }), 'Refund button missing');
    await user.type(screen.getByRole('textbox', { name: /Description/ }), 'On captured payments');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() =>
      expect(posted).toEqual([
        [
          '/businesses/B1/merchants/M1/tickets',
          {
            type: 'bug',
            priority: 'Medium',
            subject: 'Refund button missing',
            description: 'On captured payments',
            linkedTransactionReference: 'TX0001',
          },
        ],
      ]),
    );
  });

  it('asks for a business context first', () => {
    signIn({ permissions: ['Portal.Tickets.Create'], context: {}, paths: ['/tickets/add'] });
    fakeApi();
    renderWithServices(<NewTicketPane params={{}} search="" capability="New support ticket" />);
    expect(screen.getByRole('alert').textContent).toContain('Business ID is required.');
  });
});
