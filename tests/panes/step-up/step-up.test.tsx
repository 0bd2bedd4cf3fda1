// The step-up dialog (panes/step-up) against a fake Portal API: a sensitive call refused with the step-up 403 opens
// the dialog (password, and the code when the server asks for it), a wrong password is said in the dialog, the right
// one closes it and the call is made again; cancelling rejects the call; another 403 is a toast, not a dialog.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/api/api-error.ts';
import { stepUpMessages } from '../../../src/contract/step-up.ts';
import { toastStore } from '../../../src/state/toast-store.ts';
import { useStepUp } from '../../../panes/step-up/step-up.tsx';
import { fakeApi, renderWithServices, resetStores, signIn } from '../../app/support.tsx';

const refusal = (message: string) => new ApiError({ status: 403, messages: [message], kind: 'http', handled: false });

function Sensitive({ call }: { call: () => Promise<string> }) {
  const stepUp = useStepUp();
  const [result, setResult] = useState('nothing yet');
  return (
    <div>
      <button
        type="button"
        onClick={() => {
          stepUp.run(call).then(setResult, () => setResult('refused'));
        }}
      >
        Reveal
      </button>
      <output aria-label="Result">{result}</output>
      {stepUp.dialog}
    </div>
  );
}

describe('the step-up dialog', () => {
  beforeEach(() => {
    resetStores();
    signIn({ permissions: [] });
  });

  it('asks for the password when the server asks, says a wrong one in the dialog, and retries the call after the right one', async () => {
    const api = fakeApi();
    const post = vi.mocked(api.post);
    post.mockRejectedValueOnce(new ApiError({ status: 400, messages: [stepUpMessages.wrongPassword], kind: 'http', handled: false }));
    post.mockResolvedValueOnce({ validUntilUtc: '2026-11-25T12:05:00.000Z' });
    const call = vi.fn<() => Promise<string>>().mockRejectedValueOnce(refusal(stepUpMessages.passwordRequired)).mockResolvedValueOnce('4111 1111 1111 1111');
    renderWithServices(<Sensitive call={call} />);
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Reveal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    const password = screen.getByLabelText('Password');
    await waitFor(() => expect(document.activeElement).toBe(password));
    expect(screen.queryByLabelText('Code from your authenticator app')).toBeNull();
    expect((screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement).disabled).toBe(true);

    await user.type(password, 'wrong one{Enter}');
    expect((await screen.findByRole('alert')).textContent).toContain(stepUpMessages.wrongPassword);
    expect(post).toHaveBeenLastCalledWith('/user/step-up', { password: 'wrong one' }, { handleErrors: false });
    // The field is emptied and keeps the focus for the next try.
    expect((password as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(password);
    expect(call).toHaveBeenCalledTimes(1);

    await user.type(password, 'portal-demo{Enter}');
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    expect(post).toHaveBeenLastCalledWith('/user/step-up', { password: 'portal-demo' }, { handleErrors: false });
    expect(call).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('status', { name: 'Result' }).textContent).toContain('4111 1111 1111 1111');
  });

  it('asks for the authenticator code too when the user has a second factor', async () => {
    const api = fakeApi();
    const post = vi.mocked(api.post);
    post.mockResolvedValueOnce({ validUntilUtc: '2026-11-25T12:05:00.000Z' });
    const call = vi.fn<() => Promise<string>>().mockRejectedValueOnce(refusal(stepUpMessages.passwordAndCodeRequired)).mockResolvedValueOnce('done');
    renderWithServices(<Sensitive call={call} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Reveal' }));
    await screen.findByRole('dialog', { name: 'Confirm it is you' });
    await user.type(screen.getByLabelText('Password'), 'portal-demo');
    expect((screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByLabelText('Code from your authenticator app'), '123456{Enter}');
    await waitFor(() => expect(screen.getByRole('status', { name: 'Result' }).textContent).toContain('done'));
    expect(post).toHaveBeenCalledWith('/user/step-up', { password: 'portal-demo', code: '123456' }, { handleErrors: false });
  });

  it('cancelling with Escape rejects the call and makes no request', async () => {
    const api = fakeApi();
    const call = vi.fn<() => Promise<string>>().mockRejectedValue(refusal(stepUpMessages.passwordRequired));
    renderWithServices(<Sensitive call={call} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Reveal' }));
    await screen.findByRole('dialog', { name: 'Confirm it is you' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Password')));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('status', { name: 'Result' }).textContent).toContain('refused');
    expect(api.post).not.toHaveBeenCalled();
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('shows another 403 as a toast, without the dialog', async () => {
    fakeApi();
    const call = vi.fn<() => Promise<string>>().mockRejectedValue(refusal('You do not have the correct permissions.'));
    renderWithServices(<Sensitive call={call} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Reveal' }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'Result' }).textContent).toContain('refused'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(toastStore.toasts.map((toast) => toast.message)).toContain('You do not have the correct permissions.');
  });
});
