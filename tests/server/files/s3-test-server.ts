// A local S3-compatible server for tests and benchmarks: s3rver in this process, over a temporary folder, on a port
// of 127.0.0.1 (ephemeral unless given). `env` is what a server process needs to use it as its FileStore (the SDK's
// own variables plus S3_BUCKET); s3rver accepts the credentials S3RVER/S3RVER.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export type S3TestEnv = {
  S3_BUCKET: string;
  AWS_ENDPOINT_URL_S3: string;
  AWS_REGION: string;
  AWS_ACCESS_KEY_ID: string;
  AWS_SECRET_ACCESS_KEY: string;
};

export type S3TestServer = { endpoint: string; bucket: string; directory: string; env: S3TestEnv; close: () => Promise<void> };

export async function startS3TestServer(options: { port?: number; bucket?: string } = {}): Promise<S3TestServer> {
  const bucket = options.bucket ?? 'portal-files';
  const directory = mkdtempSync(join(tmpdir(), 'portal-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: options.port ?? 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    directory,
    env: { S3_BUCKET: bucket, AWS_ENDPOINT_URL_S3: endpoint, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' },
    close: async () => {
      // The SDK keeps connections alive; close would wait for them otherwise.
      server.httpServer?.closeAllConnections();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
