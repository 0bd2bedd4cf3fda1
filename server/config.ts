// Runtime configuration from the environment, read once at start.
import { resolve } from 'node:path';

export type Config = {
  port: number;
  publicUrl: string;
  issuer: string;
  apiAudience: string;
  databaseUrl: string | undefined;
  dataDir: string;
  clientId: string;
  seedTransactions: number;
  /** files in this S3-compatible bucket (the SDK reads AWS_* itself); unset: a folder under dataDir */
  s3Bucket: string | undefined;
  /** CARD_DATA_KEY (base64 of 32 bytes); unset: a key file in dataDir (server/cards/card-keys.ts) */
  cardDataKey: string | undefined;
  /** CARD_DATA_PREVIOUS_KEYS, comma-separated: keys that only open what they sealed (rotation) */
  cardDataPreviousKeys: string[];
  /** SMTP_URL (smtp://user:pass@host:587, smtps://…); unset: mail is delivered locally to the outbox (server/mail/) */
  smtpUrl: string | undefined;
  /** MAIL_FROM; default 'Payments portal <no-reply@{PUBLIC_URL's host}>' */
  mailFrom: string;
  /** TRUSTED_PROXIES: addresses/CIDR ranges whose X-Forwarded-For is believed (server/client-address.ts); unset: none */
  trustedProxies: string | undefined;
};

export const portalClientId = 'portal';

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    port,
    publicUrl,
    issuer: `${publicUrl}/connect`,
    apiAudience: `${publicUrl}/api/portal`,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.DATA_DIR ?? './data'),
    clientId: portalClientId,
    seedTransactions: Number(env.SEED_TRANSACTIONS ?? 200_000),
    s3Bucket: env.S3_BUCKET || undefined,
    cardDataKey: env.CARD_DATA_KEY || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || `Payments portal <no-reply@${new URL(publicUrl).hostname}>`,
    trustedProxies: env.TRUSTED_PROXIES || undefined,
    cardDataPreviousKeys: (env.CARD_DATA_PREVIOUS_KEYS ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter(Boolean),
  };
}
