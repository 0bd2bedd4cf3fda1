// The one catalogue of user-visible sentences the spec words exactly. It lives in the contract because the
// HTTP client, the session, the commands and the server all speak it, and the contract imports nothing.

export const messages = {
  noPermissions: 'You do not have the correct permissions.',
  refreshTokenError: 'Could not refresh token, please login again.',
  accessTokenNotRefreshed: 'Whoops! Access token could not be refreshed.',
  inactiveLoggedOut: 'You have been inactive and logged out automatically.',
  generalError: 'Whoops! Something went wrong.',
  recordNotFound: 'The requested record was not found.',
  reportQueued: 'Your report has been queued.',
  noGraphData: 'No graph data available.',
  conflictTitle: 'Someone updated this view',
  conflictText: 'This view was changed by someone else since you opened it. Stay to keep your changes here, or discard them and load the latest version.',
  conflictStay: 'Stay',
  conflictDiscard: 'Discard changes',
  leaveFormTitle: 'Leave without saving?',
  leaveFormText: 'You have unsaved changes. If you leave, they will be lost.',
  leaveFormStay: 'Stay',
  leaveFormLeave: 'Leave',
  inactivityWarningTitle: 'Are you still there?',
  inactivityWarningStay: 'Stay signed in',
  chunkLoadFailed: 'This screen could not be loaded. Check your connection and try again.',
  linkCopied: 'Link copied to the clipboard.',
  linkNotCopied: 'The link could not be copied. Copy it from the address bar instead.',
  notFoundTitle: 'Page not found',
  notFoundText: 'The page you asked for does not exist, or you cannot open it.',
  signedOutTitle: 'You are signed out',
  signedOutText: 'You have signed out of the payments portal.',
  /** the spec words no message for it: an administrator locked the account while a tab was open */
  accountLockedSignedOut: 'Your account has been locked, so you have been signed out. Ask your administrator to unlock it.',
  signInAgain: 'Sign in again',
  signingIn: 'Signing you in…',
} as const;

/** 'Your password expires in 3 days.' (1 day in the singular). */
export function passwordExpiresMessage(days: number): string {
  return `Your password expires in ${days} ${days === 1 ? 'day' : 'days'}.`;
}

export function unreadNotificationMessage(title: string): string {
  return `New notification: ${title}`;
}

export function inactivityWarningMessage(seconds: number): string {
  return `You will be signed out in ${seconds} ${seconds === 1 ? 'second' : 'seconds'} because you have been inactive.`;
}
