// Server-rendered pages of the identity provider: en-GB, no inline script or style (strict CSP), escaped values.

export const stylesheetPath = '/connect/assets/sign-in.css';

export const messages = {
  invalidCredentials: 'The email address or password is incorrect.',
  locked: (time: string) =>
    `Your account is locked because of too many failed sign-in attempts. Try again after ${time}.`,
  interactionExpired: 'This sign-in page has expired. Go back to the portal and sign in again.',
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
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
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
export function signInPage(options: { action: string; email?: string; error?: string }): string {
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
</form>`,
  );
}

export function messagePage(options: { title: string; message: string; link?: { href: string; text: string } }): string {
  const link = options.link
    ? `<p><a href="${escapeHtml(options.link.href)}">${escapeHtml(options.link.text)}</a></p>`
    : '';
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
a{color:#0b5cad}
`;
