import { Button, Text } from '@fluentui/react-components';
import { useState } from 'react';
import type { MyOrganization } from '../../shared/me.js';
import type { ApiClient } from '../api/client.js';
import { Loaded } from '../ui/loaded.js';
import { ErrorNotice } from '../ui/notices.js';
import { useAction } from '../ui/use-action.js';
import { useAsync } from '../ui/use-async.js';
import { AdminCard, useAdminStyles } from './layout.js';
import { SecretOnce, SecretText } from './SecretOnce.js';

/**
 * The organization's SCIM provisioning: the base URL and token to give the identity provider (Entra ID's
 * "Tenant URL" and "Secret Token", Okta's "SCIM connector base URL" and bearer token). The token is shown once;
 * making a new one stops the old at once.
 */
export function ScimToken({ api, org }: { api: ApiClient; org: MyOrganization }) {
  const shared = useAdminStyles();
  const calls = api.scimToken(org.id);
  const current = useAsync(() => calls.get(), [org.id]);
  const [made, setMade] = useState<string>();
  const { actionError, act } = useAction(current.reload);
  return (
    <AdminCard title={<>SCIM provisioning for {org.name}</>}>
      <Text className={shared.detail}>
        Your identity provider (Microsoft Entra ID, Okta) creates, updates, deactivates and removes your people in
        Sitefile. A deactivated person is signed out everywhere from their next request.
      </Text>
      {made && (
        <SecretOnce title="SCIM token" secret={made} onDone={() => setMade(undefined)}>
          <SecretText testId="scim-token">{made}</SecretText>
        </SecretOnce>
      )}
      {actionError !== undefined && <ErrorNotice error={actionError} />}
      <Loaded state={current} loading="Loading the SCIM token…">
        {({ data }) => (
          <>
            {data ? (
              <Text>
                Base URL <code>{data.baseUrl}</code>. Token made {new Date(data.createdAt).toLocaleString()}
                {data.lastUsedAt ? `, last used ${new Date(data.lastUsedAt).toLocaleString()}` : ', never used yet'}.
              </Text>
            ) : (
              <Text>No SCIM token: provisioning is off.</Text>
            )}
            <div>
              <Button appearance="primary" onClick={() => act(async () => setMade((await calls.create()).data.token))}>
                {data ? 'Make a new token (stops the old one)' : 'Make a SCIM token'}
              </Button>{' '}
              {data && <Button onClick={() => act(() => calls.revoke())}>Revoke (stop provisioning)</Button>}
            </div>
          </>
        )}
      </Loaded>
    </AdminCard>
  );
}
