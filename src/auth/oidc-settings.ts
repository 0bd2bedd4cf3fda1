// Where the browser finds the identity provider: the same origin as the app.

export type OidcSettings = {
  issuer: string;
  clientId: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
  scope: string;
  /** resource indicator on authorize and token requests: the access token is a JWT for the Portal API */
  resource: string;
  /** http is allowed only on this machine */
  allowInsecureRequests: boolean;
};

export function oidcSettings(origin: string = globalThis.location.origin): OidcSettings {
  const { protocol, hostname } = new URL(origin);
  return {
    issuer: `${origin}/connect`,
    clientId: 'portal',
    redirectUri: `${origin}/sign-in`,
    postLogoutRedirectUri: `${origin}/signed-out`,
    scope: 'openid profile identity portal offline_access',
    resource: `${origin}/api/portal`,
    allowInsecureRequests: protocol === 'http:' && (hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]'),
  };
}
