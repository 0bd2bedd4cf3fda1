// Step-up authentication: sensitive actions (revealing a full card number, replacing an API key, deleting a
// user) need the password (and the second factor's code, when the user has one) entered again within the last
// 5 minutes in this session. Without it the server answers 403 with one of these messages, and the client asks for
// the password in a dialog (POST /user/step-up), then retries the action. No arktype here: the panes that show the
// dialog read only these constants.

/** How long one step-up lasts, in minutes. */
export const stepUpMinutes = 5;

export const stepUpMessages = {
  /** 403: the action needs a recent step-up; the user has no second factor */
  passwordRequired: 'Confirm it is you: enter your password again to continue.',
  /** 403: the action needs a recent step-up; the user has a second factor, so a code is asked for too */
  passwordAndCodeRequired: 'Confirm it is you: enter your password and a code from your authenticator app to continue.',
  wrongPassword: 'That password is not right.',
  codeNeeded: 'Enter the code from your authenticator app, or a recovery code.',
  wrongCode: 'That code is not right. Enter the current code from your authenticator app, or a recovery code.',
} as const;

/** Which step-up a 403's messages ask for, or null when the 403 is about something else. */
export function stepUpAskedFor(messages: readonly string[]): 'password' | 'passwordAndCode' | null {
  if (messages.includes(stepUpMessages.passwordAndCodeRequired)) return 'passwordAndCode';
  if (messages.includes(stepUpMessages.passwordRequired)) return 'password';
  return null;
}
