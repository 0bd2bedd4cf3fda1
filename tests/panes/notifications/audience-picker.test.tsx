// The notification editor's audience, by keyboard: businesses and partners found by name, Enter adds a chip,
// Backspace (in the empty field) and Delete (on a chip) remove them, the line says who will see it, the saved body
// keeps the API's ids; 'Publish at' is the portal's date and time entry (dd/mm/yyyy, 24-hour, year ≤ 9999); the
// toolbar's names start with what the buttons show.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { AudiencePicker, type AudienceIds, audienceSummary } from '../../../panes/notifications/audience-picker.tsx';
import { EditNotificationPane, NewNotificationPane } from '../../../panes/notifications/notification-editor-pane.tsx';
import { DateTimeField } from '../../../src/ui/date-time-field.tsx';
import { readDate, readDateTime, readMonth, stepDate, stepTime } from '../../../src/ui/date-time-model.ts';
import { useState } from 'react';
import { fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

vi.setConfig({ testTimeout: 20_000 });

const candidates = [
  { kind: 'business', id: 'B1', name: 'Alpha Retail', partnerName: 'North Partners' },
  { kind: 'business', id: 'B7', name: 'Alpine Books', partnerName: null },
  { kind: 'partner', id: 'P1', name: 'Alpha Partners', partnerName: null },
];
const audienceAnswers = {
  '/notifications/audience': (options: unknown) => {
    const query = (options as { query: { term?: string; ids?: string } }).query;
    if (query.ids) return { results: candidates.filter((candidate) => query.ids?.split(',').includes(candidate.id)) };
    const term = (query.term ?? '').toLowerCase();
    return { results: candidates.filter((candidate) => candidate.name.toLowerCase().includes(term)) };
  },
};

function Picker({ initial, onValue }: { initial: AudienceIds; onValue: (value: AudienceIds) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <AudiencePicker
        value={value}
        onChange={(next) => {
          setValue(next);
          onValue(next);
        }}
      />
      <p>{audienceSummary('allUsers', value)}</p>
    </>
  );
}

describe('who reads it', () => {
  it.each([
    [{ businessIds: [], partnerIds: [] }, 'allUsers', 'Every user.'],
    [{ businessIds: ['B1', 'B2', 'B3'], partnerIds: [] }, 'allUsers', "Users of 3 businesses and their partners' users. Internal users see it too."],
    [
      { businessIds: ['B1'], partnerIds: ['P1'] },
      'allUsers',
      "Users of 1 business and their partners' users, and the partner-level users of 1 partner. Internal users see it too.",
    ],
    [{ businessIds: [], partnerIds: ['P1', 'P2'] }, 'allUsers', 'The partner-level users of 2 partners. Internal users see it too.'],
    [{ businessIds: ['B1'], partnerIds: [] }, 'internalUsers', 'Internal users only.'],
  ] as const)('%j for %s', (audience, restriction, line) => {
    expect(audienceSummary(restriction, { businessIds: [...audience.businessIds], partnerIds: [...audience.partnerIds] })).toBe(line);
  });
});

describe('the audience picker', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Portal.Notifications.Create'], paths: ['/notifications/add'] });
  });

  it('adds by name with the keyboard and removes with Backspace and Delete', async () => {
    fakeApi(audienceAnswers);
    const onValue = vi.fn();
    renderWithServices(<Picker initial={{ businessIds: [], partnerIds: [] }} onValue={onValue} />);
    const user = userEvent.setup();
    const field = screen.getByRole('combobox', { name: 'Add a business or partner' });
    await user.click(field);
    await user.keyboard('alp');
    const listbox = await screen.findByRole('listbox', { name: 'Businesses and partners' });
    await waitFor(() =>
      expect(
        within(listbox)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['Alpha Retail Business B1 of North Partners', 'Alpine Books Business B7', 'Alpha Partners Partner P1']),
    );
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onValue).toHaveBeenLastCalledWith({ businessIds: ['B7'], partnerIds: [] });
    expect(field).toHaveProperty('value', '');
    await user.keyboard('alpha');
    await waitFor(() => expect(screen.getAllByRole('option').map((option) => option.textContent?.split(' ')[0])).toEqual(['Alpha', 'Alpha']));
    await user.keyboard('{Enter}');
    expect(onValue).toHaveBeenLastCalledWith({ businessIds: ['B7', 'B1'], partnerIds: [] });
    expect(screen.getByText("Users of 2 businesses and their partners' users. Internal users see it too.")).toBeTruthy();
    const chips = screen.getByRole('list', { name: 'Chosen businesses and partners' });
    expect(
      within(chips)
        .getAllByRole('button')
        .map((chip) => chip.getAttribute('aria-label')),
    ).toEqual(['Alpine Books, business: remove', 'Alpha Retail, business: remove']);
    // Backspace in the empty field removes the last chip; ← reaches the chips and Delete removes the focused one.
    await user.keyboard('{Backspace}');
    expect(onValue).toHaveBeenLastCalledWith({ businessIds: ['B7'], partnerIds: [] });
    await user.click(field);
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Alpine Books, business: remove' }));
    await user.keyboard('{Delete}');
    expect(onValue).toHaveBeenLastCalledWith({ businessIds: [], partnerIds: [] });
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(screen.getByText('Every user.')).toBeTruthy();
  });

  it('names the ids a notification already has', async () => {
    fakeApi(audienceAnswers);
    renderWithServices(<Picker initial={{ businessIds: ['B1'], partnerIds: ['P1'] }} onValue={() => undefined} />);
    expect(await screen.findByRole('button', { name: 'Alpha Retail, business: remove' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Alpha Partners, partner: remove' })).toBeTruthy();
  });
});

describe('the date and time entry', () => {
  it.each([
    ['25/11/2026', '14:30', { value: '2026-11-25T14:30' }],
    ['5/1/2027', '9:05', { value: '2027-01-05T09:05' }],
    ['25/11/20260', '14:30', { problem: 'The year must be 9999 or earlier.' }],
    ['25/11/10000', '14:30', { problem: 'The year must be 9999 or earlier.' }],
    ['31/02/2026', '14:30', { problem: 'That month has 28 days.' }],
    ['25/11/26', '14:30', { problem: 'Write the year with four digits, like 2026.' }],
    ['25/11/2026', '2:30 pm', { problem: 'Enter a time as hh:mm, 24-hour.' }],
    ['25/11/2026', '24:00', { problem: 'Enter a time between 00:00 and 23:59.' }],
  ])('%s %s', (date, time, expected) => {
    expect(readDateTime(date, time)).toEqual(expected);
  });
  it('steps days, months and 5 minutes', () => {
    expect(stepDate('31/01/2026', { days: 1 })).toBe('01/02/2026');
    expect(stepDate('31/01/2026', { months: 1 })).toBe('28/02/2026');
    expect(stepDate('31/12/9999', { days: 1 })).toBeNull();
    expect(stepTime('09:03', 5)).toBe('09:05');
    expect(stepTime('23:55', 5)).toBe('00:00');
    expect(stepTime('09:05', -5)).toBe('09:00');
    expect(readDate('2026-11-25')).toEqual({ value: '2026-11-25' });
    expect(readMonth('10/2026')).toEqual({ value: '2026-10' });
    expect(readMonth('Oct 2026')).toEqual({ value: '2026-10' });
    expect(readMonth('10/20260')).toEqual({ problem: 'The year must be 9999 or earlier.' });
  });

  it('is typed and stepped by keyboard, and says what is wrong', async () => {
    const onChange = vi.fn();
    renderWithServices(<DateTimeField label="Publish at" value="" onChange={onChange} />);
    const user = userEvent.setup();
    const group = screen.getByRole('group', { name: 'Publish at' });
    const date = within(group).getByRole('textbox', { name: 'Date' });
    const time = within(group).getByRole('textbox', { name: 'Time' });
    expect(date.getAttribute('placeholder')).toBe('dd/mm/yyyy');
    await user.click(date);
    await user.keyboard('24/11/2026{ArrowUp}{Tab}14:03{ArrowUp}');
    expect(onChange).toHaveBeenLastCalledWith({ value: '2026-11-25T14:05', problem: null });
    await user.clear(date);
    await user.type(date, '25/11/20261');
    await user.tab();
    expect(onChange).toHaveBeenLastCalledWith({ value: null, problem: 'The year must be 9999 or earlier.' });
    expect(screen.getByRole('alert').textContent).toBe('The year must be 9999 or earlier.');
    expect(date.getAttribute('aria-invalid')).toBe('true');
    expect(time).toHaveProperty('value', '14:05');
  });
});

describe('the notification editor', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Portal.Notifications.Create'], paths: ['/notifications/add'] });
  });

  it('names the toolbar buttons by what they show first', async () => {
    fakeApi(audienceAnswers);
    renderWithServices(<NewNotificationPane params={{}} search="" capability="New notification" />);
    const toolbar = await screen.findByRole('toolbar', { name: 'Formatting' });
    const names = within(toolbar)
      .getAllByRole('button')
      .map((button) => [button.textContent ?? '', button.getAttribute('aria-label') ?? '']);
    for (const [text = '', name = ''] of names) expect(name.toLowerCase().startsWith(text.toLowerCase())).toBe(true);
    expect(within(toolbar).getByRole('button', { name: 'H1, Heading 1' })).toBeTruthy();
    expect(within(toolbar).getByRole('button', { name: 'B, Bold' }).getAttribute('aria-keyshortcuts')).toBe('Control+B');
  });

  it('saves the picked audience as ids and the publication time from the portal’s date and time entry', async () => {
    const api = fakeApi({
      ...audienceAnswers,
      '/notifications/NTF1': () => ({
        reference: 'NTF1',
        title: 'Maintenance',
        status: 'draft',
        viewRestriction: 'allUsers',
        publishAtUtc: null,
        publishedUtc: null,
        lastEditedUtc: '2026-11-01T10:00:00.000Z',
        audience: null,
        readCount: 0,
        content: JSON.stringify({ blocks: [{ type: 'paragraph', text: 'Sunday night.' }] }),
        version: 3,
      }),
    });
    (api.put as Mock).mockImplementation(async () => undefined);
    renderWithServices(<EditNotificationPane params={{ reference: 'NTF1' }} search="" capability="Notification editing" />);
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Edit notification NTF1' });
    await user.click(screen.getByRole('combobox', { name: 'Add a business or partner' }));
    await user.keyboard('alpine');
    await screen.findByRole('option', { name: 'Alpine Books Business B7' });
    await user.keyboard('{Enter}');
    expect(screen.getByText("Who will see it: Users of 1 business and their partners' users. Internal users see it too.")).toBeTruthy();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'readyForPublication');
    const publishAt = screen.getByRole('group', { name: 'Publish at (optional; your time zone)' });
    await user.type(within(publishAt).getByRole('textbox', { name: 'Date' }), '25/11/99999');
    await user.type(within(publishAt).getByRole('textbox', { name: 'Time' }), '14:30');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'The year must be 9999 or earlier.',
      'Publish at: The year must be 9999 or earlier.',
    ]);
    expect(api.put).not.toHaveBeenCalled();
    const date = within(publishAt).getByRole('textbox', { name: 'Date' });
    await user.clear(date);
    await user.type(date, '25/11/2026');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.put).toHaveBeenCalled());
    const [path, body] = (api.put as Mock).mock.calls[0] as [string, { audience: unknown; publishAtUtc: string; status: string }];
    expect(path).toBe('/notifications/NTF1');
    expect(body.audience).toEqual({ partnerIds: [], businessIds: ['B7'] });
    expect(body.status).toBe('readyForPublication');
    expect(body.publishAtUtc).toBe(new Date(2026, 10, 25, 14, 30).toISOString());
  });
});
