import type { AppContext } from '../context.js';
import { upsertApp } from './queries.js';

export const ADDIN_CLIENT_ID = 'sitefile-addin';

/** Public clients of our own, registered at start-up (PKCE, no secret). `resources` lists the token
 *  audiences the app may ask for; the first is its default. */
export const FIRST_PARTY_APPS: readonly {
  clientId: string;
  name: string;
  redirectPath: string;
  resources: readonly ('api' | 'mcp')[];
}[] = [
  {
    clientId: ADDIN_CLIENT_ID,
    name: 'Sitefile for Outlook',
    redirectPath: '/addin/auth-callback.html',
    resources: ['api'],
  },
];

/** Whether a client is one of ours: its name and redirect URI are trusted. Every other client registered
 *  itself (RFC 7591, anonymously) and is shown as unverified. */
export const isVerifiedClient = (clientId: string): boolean =>
  FIRST_PARTY_APPS.some((firstParty) => firstParty.clientId === clientId);

export async function registerFirstPartyApps(app: AppContext): Promise<void> {
  for (const firstParty of FIRST_PARTY_APPS) {
    await upsertApp(app.db, {
      clientId: firstParty.clientId,
      clientSecretHash: null,
      metadata: {
        client_id: firstParty.clientId,
        client_name: firstParty.name,
        redirect_uris: [`${app.config.publicUrl}${firstParty.redirectPath}`],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    });
  }
}
