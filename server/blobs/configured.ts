import path from 'node:path';
import type { Config } from '../config.js';
import { createS3BlobStore } from './s3.js';
import { type BlobStore, createFsBlobStore } from './store.js';

/** The store the configuration names: the bucket when `S3_BUCKET` is set, otherwise `DATA_DIR/blobs`. */
export const createBlobStore = (config: Config): BlobStore =>
  config.s3 ? createS3BlobStore(config.s3) : createFsBlobStore(path.join(config.dataDir, 'blobs'));
