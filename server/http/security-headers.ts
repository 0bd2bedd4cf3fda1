// Response headers every part of the server agrees on.

/** Sent on every answer when PUBLIC_URL is https: a year, subdomains included (the portal owns its host). */
export const strictTransportSecurity = 'max-age=31536000; includeSubDomains';
