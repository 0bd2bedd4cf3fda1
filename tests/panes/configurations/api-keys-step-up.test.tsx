// Creating an API key asks to confirm it is you, like replacing one. The server's step-up 403 opens the
// step-up dialog from the 'New API key' dialog; after the password the key is created and shown once.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiKeysPanel } from '../../../panes/configurations/api-keys-panel.tsx';
import { ApiError } from '../../../src/api/api-error.ts';
import { stepUpMessages } from '../../../src/contract/step-up.ts';
import { fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

vi.setConfig({ testTimeout: 20_000 });

const path = '/businesses/B1/merchants/M1/configurations/C1';
const created = {
  apiKey: {
    id: 'KEY0123456789ABCDEF',
    configurationId: 'C1',
    name: 'Web shop',
    description: '',
    prefix: 'pk_live_abcdef',
    expiresAt: null,
    revokedAt: null,
    createdAt: '2026-11-02T09:00:00.000Z',
    replacesId: null,
    status: 'active',
  },
  secret: `pk_live_${'a'.repeat(43)}`,
};

describe('creating an API key', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: ['Mapi.Configurations.Read', 'Mapi.ApiKeys.Manage'] });
  });

  it('asks for the password when the server wants a step-up, then creates the key and shows it once', async () => {
    const api = fakeApi({ [`${path}/api-keys`]: () => ({ results: [], numberOfResults: 0 }) });
    const post = vi.mocked(api.post);
    post.mockImplementation(async (target: string) => {
      if (target === '/user/step-up') return { validUntilUtc: '2026-11-02T09:05:00.000Z' };
      if (post.mock.calls.filter(([called]) => called === `${path}/api-keys`).length === 1) {
        throw new ApiError({ status: 403, messages: [stepUpMessages.passwordRequired], kind: 'http', handled: false });
      }
      return created;
    });
    renderWithServices(<ApiKeysPanel businessId="B1" merchantId="M1" configurationId="C1" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New API key' }));
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Web shop');
    await user.click(screen.getByRole('button', { name: 'Create API key' }));
    // The create call let the 403 through to the panel (no error toast of its own), and the step-up dialog asks.
    const options = post.mock.calls[0]?.[2] as { handleErrors: (status: number) => boolean };
    expect(options.handleErrors(403)).toBe(false);
    await screen.findByRole('dialog', { name: 'Confirm it is you' });
    await user.type(screen.getByLabelText('Password'), 'portal-demo{Enter}');
    await waitFor(() => expect(post.mock.calls.filter(([called]) => called === `${path}/api-keys`)).toHaveLength(2));
    expect(post).toHaveBeenCalledWith('/user/step-up', { password: 'portal-demo' }, { handleErrors: false });
    expect(await screen.findByText(created.secret, {})).toBeTruthy();
  });
});
