// New passwords are checked on the server with the estimator the forms show (src/contract/password-strength.ts).
import { estimatePassword } from '../../src/contract/password-strength.ts';

/** Reasons a new password is refused (with the estimator's warning), or an empty list. */
export async function checkNewPassword(password: string, userInputs: readonly string[]): Promise<string[]> {
  const strength = await estimatePassword(password, userInputs);
  if (strength.acceptable) return [];
  return [...strength.problems, ...(strength.warning ? [strength.warning] : []), ...strength.suggestions].slice(0, 4);
}
