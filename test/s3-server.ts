import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { loadConfig, type S3Config } from '../server/config.js';

export interface TestS3Server {
  /** `S3_*` and `AWS_*` variables that point a server at this bucket. */
  env: Record<string, string>;
  config: S3Config;
  close(): Promise<void>;
}

const credentials = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

/**
 * An S3-compatible server (s3rver, from npm) on a free port with one bucket, its objects in `directory` (kept) or
 * in a temp folder (removed on close). Credentials reach the SDK through its default chain (the environment), as
 * in production.
 */
export async function startTestS3Server(options: { directory?: string } = {}): Promise<TestS3Server> {
  const directory = options.directory ?? mkdtempSync(path.join(tmpdir(), 'sitefile-s3-'));
  const bucket = 'sitefile-test';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const env = {
    S3_BUCKET: bucket,
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: 'us-east-1',
    S3_FORCE_PATH_STYLE: 'true',
  };
  Object.assign(process.env, credentials);
  return {
    env: { ...env, ...credentials },
    config: loadConfig(env).s3!,
    async close() {
      await server.close();
      if (!options.directory) await rm(directory, { recursive: true, force: true });
    },
  };
}
