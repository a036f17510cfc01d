// Placeholder until the demo seed lands (issue 3): replaced by the generator's ensureDemoData.
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';

export async function ensureDemoData(_db: Db, _config: Config) {
  return { client: { clientId: '', clientSecret: '' }, staff: { email: '', password: '' } };
}
