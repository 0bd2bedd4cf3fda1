// Server-rendered pages of the identity provider: en-GB, no inline script or style (strict CSP), escaped values.

export const stylesheetPath = '/connect/assets/sign-in.css';

export const messages = {
  invalidCredentials: 'The email address or password is incorrect.',
  tooManyAttempts: (time: string) => `Too many attempts. Try again after ${time}.`,
  interactionExpired: 'This sign-in page has expired. Go back to the portal and sign in again.',
  linkExpired: 'Oops that link has expired.',
  passwordsDiffer: 'The two passwords are not the same.',
  emailChanged: 'Your email address has been changed. Sign in with the new address.',
  emailTaken: 'This email address is already in use, so it cannot be yours here.',
  emailChangeUndone:
    'The change of your email address is undone and every session of your account has ended. If you did not ask for the change, choose a new password now.',
  emailChangeUndoTaken: 'Your previous email address now belongs to another account, so it cannot be restored. Contact your administrator.',
  wrongCode: 'That code is not right. Enter the current code from your authenticator app, or a recovery code.',
  passwordChanged: 'Your password has been changed. You can now sign in.',
  tooManyRequests: 'Too many requests. Please wait a few minutes and try again.',
  interactionSpent: 'Too many attempts on this page. Open the portal again to sign in.',
} as const;

/** The policy on every HTML page of the provider; form-action allows the redirect back to the portal. */
export function contentSecurityPolicy(publicUrl: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "frame-ancestors 'none'",
    `form-action 'self' ${new URL(publicUrl).origin}`,
  ].join('; ');
}

export function escapeHtml(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

const londonTime = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'Europe/London',
});

/** HH:mm in Europe/London, rounded up to the minute so that 'after HH:mm' is never too early. */
export function formatLockoutEnd(until: Date): string {
  const minute = 60_000;
  return londonTime.format(new Date(Math.ceil(until.getTime() / minute) * minute));
}

function layout(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)} – Payments portal</title>
<link rel="stylesheet" href="${stylesheetPath}">
</head>
<body>
<main class="card">
${body}
</main>
</body>
</html>
`;
}

function alert(message: string | undefined): string {
  return message ? `<p class="alert" role="alert">${escapeHtml(message)}</p>\n` : '';
}

/** The first empty field has focus on arrival (the email, or the password when the email is kept after an error): typing starts at once. */
export function signInPage(options: { action: string; email?: string; error?: string; forgotHref?: string }): string {
  return layout(
    'Sign in',
    `<h1>Sign in to the payments portal</h1>
${alert(options.error)}<form method="post" action="${escapeHtml(options.action)}">
<div class="field">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(options.email ?? '')}"${options.email ? '' : ' autofocus'}>
</div>
<div class="field">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${options.email ? ' autofocus' : ''}>
</div>
<button type="submit">Sign in</button>
</form>
<p class="secondary"><a href="${escapeHtml(options.forgotHref ?? '/connect/forgot-password')}">Forgot your password?</a></p>`,
  );
}

function problemList(problems: readonly string[] | undefined): string {
  if (!problems || problems.length === 0) return '';
  return `<div class="alert" role="alert"><ul>${problems.map((problem) => `<li>${escapeHtml(problem)}</li>`).join('')}</ul></div>\n`;
}

const newPasswordFields = `<div class="field">
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="12" aria-describedby="password-rule" autofocus>
<p class="hint" id="password-rule">At least 12 characters, hard to guess: several uncommon words work well.</p>
</div>
<div class="field">
<label for="confirm">Repeat the new password</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="12">
</div>`;

/** 'Forgot your password?': one field; the answer never says whether the email exists. */
export function forgotPasswordPage(options: { action: string; signInHref: string; message?: string; error?: string }): string {
  if (options.message) {
    return layout(
      'Reset your password',
      `<h1>Reset your password</h1>
<p role="status">${escapeHtml(options.message)}</p>
<p><a href="${escapeHtml(options.signInHref)}">Back to sign in</a></p>`,
    );
  }
  return layout(
    'Reset your password',
    `<h1>Reset your password</h1>
${alert(options.error)}<p>Enter the email address you sign in with. We will send it a link to choose a new password.</p>
<form method="post" action="${escapeHtml(options.action)}">
<div class="field">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required autofocus>
</div>
<button type="submit">Send the link</button>
</form>
<p class="secondary"><a href="${escapeHtml(options.signInHref)}">Back to sign in</a></p>`,
  );
}

/** The page a reset link opens: a new password twice (the secret travels in a hidden field, never in a log line). */
export function resetPasswordPage(options: { action: string; token: string; problems?: readonly string[] }): string {
  return layout(
    'Choose a new password',
    `<h1>Choose a new password</h1>
${problemList(options.problems)}<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="token" value="${escapeHtml(options.token)}">
${newPasswordFields}
<button type="submit">Change password</button>
</form>`,
  );
}

export function confirmEmailPage(options: { action: string; token: string }): string {
  return layout(
    'Confirm your new email address',
    `<h1>Confirm your new email address</h1>
<p>Sign in to the payments portal with this address from now on.</p>
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="token" value="${escapeHtml(options.token)}">
<button type="submit" autofocus>Confirm this address</button>
</form>`,
  );
}

/** The link sent to the old address when an email change is asked for: one button (a link scanner's GET changes nothing). */
export function undoEmailChangePage(options: { action: string; token: string }): string {
  return layout(
    'Undo the email address change',
    `<h1>Undo the email address change</h1>
<p>This cancels the change of your account's email address (or reverses it if it has already applied) and signs the account out everywhere.</p>
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="token" value="${escapeHtml(options.token)}">
<button type="submit" autofocus>Undo the change</button>
</form>`,
  );
}

/** After the right password of an account with two-factor sign-in: a code from the authenticator, or a recovery code. */
export function secondFactorPage(options: { action: string; challenge: string; error?: string }): string {
  return layout(
    'Two-factor sign-in',
    `<h1>Two-factor sign-in</h1>
${alert(options.error)}<p>Enter the 6-digit code from your authenticator app. Lost it? Enter one of your recovery codes.</p>
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="challenge" value="${escapeHtml(options.challenge)}">
<div class="field">
<label for="code">Code</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required maxlength="16" autofocus>
</div>
<button type="submit">Verify</button>
</form>`,
  );
}

/** After a right but expired password: a new one is chosen before the portal opens. */
export function expiredPasswordPage(options: { action: string; ticket: string; problems?: readonly string[] }): string {
  return layout(
    'Your password has expired',
    `<h1>Your password has expired</h1>
${problemList(options.problems)}<p>Choose a new password to continue to the portal.</p>
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="ticket" value="${escapeHtml(options.ticket)}">
${newPasswordFields}
<button type="submit">Change password and continue</button>
</form>`,
  );
}

export function messagePage(options: { title: string; message: string; link?: { href: string; text: string } }): string {
  const link = options.link ? `<p><a href="${escapeHtml(options.link.href)}">${escapeHtml(options.link.text)}</a></p>` : '';
  return layout(options.title, `<h1>${escapeHtml(options.title)}</h1>\n<p>${escapeHtml(options.message)}</p>\n${link}`);
}

/** RP-initiated logout confirmation; `form` is oidc-provider's own hidden form (xsrf token). */
export function signOutPage(options: { form: string; cancelHref: string }): string {
  return layout(
    'Sign out',
    `<h1>Sign out</h1>
<p>Do you want to sign out of the payments portal?</p>
${options.form}
<div class="actions">
<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>
<a href="${escapeHtml(options.cancelHref)}">Stay signed in</a>
</div>`,
  );
}

export function errorPage(options: { description: string; homeHref: string }): string {
  return layout(
    'Something went wrong',
    `<h1>Something went wrong</h1>
<p class="alert" role="alert">${escapeHtml(options.description)}</p>
<p><a href="${escapeHtml(options.homeHref)}">Back to the portal</a></p>`,
  );
}

export const signInCss = `*,*::before,*::after{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:100%;line-height:1.5;color:#1b1f24;background:#f3f5f7}
body{margin:0;min-height:100vh;display:flex;align-items:flex-start;justify-content:center;padding:4rem 1rem}
.card{width:100%;max-width:24rem;background:#fff;border:1px solid #d5dbe1;border-radius:.5rem;padding:2rem}
h1{font-size:1.5rem;margin:0 0 1.5rem}
.field{display:flex;flex-direction:column;margin-bottom:1rem}
label{font-weight:600;margin-bottom:.25rem}
input{font:inherit;padding:.5rem .625rem;border:1px solid #8a949e;border-radius:.25rem}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #0b5cad;outline-offset:2px}
button{font:inherit;font-weight:600;width:100%;padding:.625rem 1rem;border:0;border-radius:.25rem;background:#0b5cad;color:#fff;cursor:pointer}
button:hover{background:#084a8c}
.alert{margin:0 0 1rem;padding:.75rem 1rem;border-left:4px solid #b3261e;background:#fdecea;color:#5f1410}
.actions{display:flex;flex-direction:column;gap:.75rem;align-items:center}
.secondary{margin:1rem 0 0;text-align:center}
.hint{margin:.25rem 0 0;font-size:.875rem;color:#4a535c}
.alert ul{margin:0;padding-left:1.25rem}
a{color:#0b5cad}
`;
