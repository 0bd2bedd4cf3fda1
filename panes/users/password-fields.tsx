// A new password twice, with the strength estimator's score and feedback (zxcvbn-ts, loaded on first use).
import { useEffect, useId, useState } from 'react';
import { estimatePassword, type PasswordStrength } from '../../src/contract/password-strength.ts';
import { minPasswordLength } from '../../src/contract/users.ts';

const scoreLabels = ['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong'];

export function PasswordFields({
  password,
  confirm,
  onPassword,
  onConfirm,
  userInputs,
  label = 'New password',
}: {
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  userInputs: readonly string[];
  label?: string;
}) {
  const ids = { password: useId(), confirm: useId(), feedback: useId() };
  const [strength, setStrength] = useState<PasswordStrength | null>(null);
  // The words the estimate penalises, by value: a new array of the same words is no reason to estimate again.
  const inputsKey = userInputs.join('\u0000');
  useEffect(() => {
    if (!password) {
      setStrength(null);
      return undefined;
    }
    let current = true;
    const timer = setTimeout(() => {
      void estimatePassword(password, inputsKey === '' ? [] : inputsKey.split('\u0000')).then((result) => {
        if (current) setStrength(result);
      });
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [password, inputsKey]);
  return (
    <>
      <div className="field">
        <label htmlFor={ids.password}>{label}</label>
        <input
          id={ids.password}
          type="password"
          autoComplete="new-password"
          required
          minLength={minPasswordLength}
          aria-describedby={ids.feedback}
          value={password}
          onChange={(event) => onPassword(event.target.value)}
        />
        <div id={ids.feedback} className="password-feedback" aria-live="polite">
          {strength ? (
            <>
              {/* A password the rules refuse (too short, too like the email…) never reads as strong, whatever its score. */}
              <meter
                min={0}
                max={4}
                low={2}
                high={3}
                optimum={4}
                value={strength.acceptable ? strength.score : Math.min(strength.score, 1)}
                aria-label="Password strength"
              />{' '}
              <span>{strength.acceptable ? (scoreLabels[strength.score] ?? '') : 'Not accepted yet'}</span>
              {strength.warning ? <p>{strength.warning}</p> : null}
              {strength.suggestions.length > 0 ? (
                <ul>
                  {strength.suggestions.map((suggestion) => (
                    <li key={suggestion}>{suggestion}</li>
                  ))}
                </ul>
              ) : null}
              {strength.problems.length > 0 ? (
                <ul>
                  {strength.problems.map((problem) => (
                    <li key={problem}>{problem}</li>
                  ))}
                </ul>
              ) : null}
            </>
          ) : (
            <p className="hint">At least {minPasswordLength} characters and hard to guess: several uncommon words work well.</p>
          )}
        </div>
      </div>
      <div className="field">
        <label htmlFor={ids.confirm}>Repeat the password</label>
        <input id={ids.confirm} type="password" autoComplete="new-password" required value={confirm} onChange={(event) => onConfirm(event.target.value)} />
        {confirm && confirm !== password ? <p className="field-problem">The two passwords are not the same.</p> : null}
      </div>
    </>
  );
}
