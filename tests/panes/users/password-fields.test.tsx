// The strength shown beside a new password agrees with the rules: a password they refuse (here: too short, though
// the estimator finds it hard to guess) never reads 'Strong'; an accepted one shows the estimator's word.
import { render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { PasswordFields } from '../../../panes/users/password-fields.tsx';

function Form({ initial }: { initial: string }) {
  const [password, setPassword] = useState(initial);
  const [confirm, setConfirm] = useState(initial);
  return <PasswordFields password={password} confirm={confirm} onPassword={setPassword} onConfirm={setConfirm} userInputs={['ada@example.test']} />;
}

describe('the new password fields', { timeout: 30_000 }, () => {
  it('do not call a password strong while the rules refuse it', async () => {
    render(<Form initial="Qz7!vR2#k" />);
    expect(await screen.findByText('The password needs at least 12 characters.', {}, { timeout: 20_000 })).toBeTruthy();
    expect(screen.getByText('Not accepted yet')).toBeTruthy();
    expect(screen.queryByText(/^(Strong|Very strong)$/)).toBeNull();
    expect(
      Number(screen.getByRole('meter', { name: 'Password strength' }).getAttribute('aria-valuenow') ?? screen.getByRole('meter').getAttribute('value')),
    ).toBeLessThanOrEqual(1);
  });

  it("show the estimator's word for an accepted password", async () => {
    render(<Form initial="copper lantern orbit meadow" />);
    expect(await screen.findByText(/^(Strong|Very strong)$/, {}, { timeout: 20_000 })).toBeTruthy();
    expect(screen.queryByText('Not accepted yet')).toBeNull();
  });
});
