// The one FileStore of a process, chosen by configuration: S3_BUCKET set → that bucket (every node shares it);
// otherwise the folder ${DATA_DIR}/files (one machine, `npm start` unchanged).
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { FileStore } from './file-store.ts';
import { createFolderStore } from './folder-store.ts';
import { createS3Store } from './s3-store.ts';

export const filesFolderOf = (dataDir: string) => join(dataDir, 'files');

export function openFileStore(config: Pick<Config, 'dataDir' | 's3Bucket'>, env: NodeJS.ProcessEnv = process.env): FileStore {
  if (config.s3Bucket) return createS3Store({ bucket: config.s3Bucket, env });
  return createFolderStore(filesFolderOf(config.dataDir));
}

/** Where the store is, for the start log. */
export function describeFileStore(config: Pick<Config, 'dataDir' | 's3Bucket'>, env: NodeJS.ProcessEnv = process.env): string {
  if (!config.s3Bucket) return `folder ${filesFolderOf(config.dataDir)}`;
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL;
  return `S3 bucket ${config.s3Bucket}${endpoint ? ` at ${endpoint}` : ''}`;
}
