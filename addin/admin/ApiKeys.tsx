import { Button, Caption1, TableCell, TableRow, Text } from '@fluentui/react-components';
import { useState } from 'react';
import type { OAuthClient } from '../../shared/api-keys.js';
import type { MyOrganization } from '../../shared/me.js';
import { permissionKeys } from '../../shared/permissions.js';
import type { ApiClient } from '../api/client.js';
import { Loaded } from '../ui/loaded.js';
import { ErrorNotice } from '../ui/notices.js';
import { type Action, useAction } from '../ui/use-action.js';
import { useAsync } from '../ui/use-async.js';
import { CreateKey, type Secret } from './CreateKey.js';
import { AdminCard, StackedTable, useAdminStyles } from './layout.js';
import { SecretOnce, SecretText } from './SecretOnce.js';

/** The list loads every key at once, in pages of 50, up to this many pages (there is no "Show more"). */
const MAX_KEY_PAGES = 10;

type KeyDeskCalls = ReturnType<ApiClient['keys']>;

/**
 * The API keys of this organization — usage, create, disable/enable, rotate, delete. Staff see every key
 * that reaches it (through /v1/admin); its admins the keys confined to it (through the organization's routes).
 */
export function ApiKeys({ api, org, staff }: { api: ApiClient; org: MyOrganization; staff: boolean }) {
  const desk = staff ? api.keys('staff') : api.keys({ orgId: org.id });
  const keys = useKeys(desk, org.id, staff);
  const [secret, setSecret] = useState<Secret>();
  const { actionError, act } = useAction(keys.reload);
  return (
    <AdminCard title={<>API keys for {org.name}</>}>
      {secret && <KeySecret secret={secret} onDone={() => setSecret(undefined)} />}
      {actionError !== undefined && <ErrorNotice error={actionError} />}
      <Loaded state={keys} loading="Loading keys…">
        {(data) => <KeyTable keys={data} desk={desk} act={act} onRotated={setSecret} />}
      </Loaded>
      <CreateKey
        api={api}
        desk={desk}
        staff={staff}
        org={org}
        onCreated={(created) => {
          setSecret(created);
          keys.reload();
        }}
      />
    </AdminCard>
  );
}

/** The keys that reach the organization. */
function useKeys(desk: KeyDeskCalls, orgId: string, staff: boolean) {
  return useAsync(async () => {
    const all: OAuthClient[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_KEY_PAGES; page++) {
      const list = await desk.list(cursor);
      all.push(...list.data);
      if (!list.hasMore || !list.nextCursor) break;
      cursor = list.nextCursor;
    }
    return all.filter((k) => k.superadmin || k.orgIds.includes(orgId));
  }, [orgId, staff]);
}

function KeyTable({
  keys,
  desk,
  act,
  onRotated,
}: {
  keys: OAuthClient[];
  desk: KeyDeskCalls;
  act: Action;
  onRotated: (secret: Secret) => void;
}) {
  const styles = useAdminStyles();
  return (
    <StackedTable label="API keys" columns={['Key', 'Permissions', 'Usage', 'Actions']}>
      {keys.length === 0 && (
        <TableRow>
          <TableCell colSpan={4}>No key reaches this organization yet.</TableCell>
        </TableRow>
      )}
      {keys.map((k) => (
        <TableRow key={k.id}>
          <TableCell className={styles.cell} data-label="Key">
            <Text weight="semibold">{k.name}</Text>
            <Caption1 className={styles.detail}>
              {k.clientId} · {k.enabled ? 'enabled' : 'disabled'}
            </Caption1>
          </TableCell>
          <TableCell className={styles.cell} data-label="Permissions">
            {permissionKeys.filter((p) => k.permissions[p]).join(', ') || 'none'}
            <Caption1 className={styles.detail}>
              {k.superadmin
                ? 'every organization'
                : `${k.scopes.orgs.length} org, ${k.scopes.projects.length} project grants`}
            </Caption1>
          </TableCell>
          <TableCell className={styles.cell} data-label="Usage">
            <UsageCell usage={k.usageSummary} />
          </TableCell>
          <TableCell className={styles.cell} data-label="Actions">
            <KeyActions keyRow={k} desk={desk} act={act} onRotated={onRotated} />
          </TableCell>
        </TableRow>
      ))}
    </StackedTable>
  );
}

/** Disable/enable, rotate and delete one key; rotating and deleting ask first. */
function KeyActions({
  keyRow: k,
  desk,
  act,
  onRotated,
}: {
  keyRow: OAuthClient;
  desk: KeyDeskCalls;
  act: Action;
  onRotated: (secret: Secret) => void;
}) {
  const styles = useAdminStyles();
  return (
    <div className={styles.actions}>
      <Button size="small" onClick={() => act(() => desk.update(k.id, { enabled: !k.enabled }))}>
        {k.enabled ? 'Disable' : 'Enable'}
      </Button>
      <Button
        size="small"
        onClick={() => {
          const sure = window.confirm(
            `Rotate the secret of “${k.name}”? The current secret stops working at once; programs using it need the new one.`,
          );
          if (!sure) return;
          void act(async () => {
            const rotated = await desk.rotate(k.id);
            onRotated({ name: rotated.name, clientId: rotated.clientId, secret: rotated.client_secret });
          });
        }}
      >
        Rotate secret
      </Button>
      <Button
        size="small"
        onClick={() => {
          if (window.confirm(`Delete the key “${k.name}”? Programs using it stop working at once.`)) {
            void act(() => desk.remove(k.id));
          }
        }}
      >
        Delete
      </Button>
    </div>
  );
}

function UsageCell({ usage }: { usage: OAuthClient['usageSummary'] }) {
  const styles = useAdminStyles();
  if (!usage || usage.totalRequests === 0) return <>No requests yet</>;
  const top = [...usage.endpoints].sort((a, b) => b.count - a.count).slice(0, 3);
  return (
    <>
      {usage.totalRequests} requests
      {top.map((e) => (
        <Caption1 key={e.endpoint} className={styles.detail}>
          {e.endpoint}: {e.count} × {Math.round(e.averageResponseTimeMs)} ms
        </Caption1>
      ))}
    </>
  );
}

/** A new or rotated key's secret, once: copy it now, it cannot be shown again. */
function KeySecret({ secret, onDone }: { secret: Secret; onDone: () => void }) {
  return (
    <SecretOnce title={<>Secret for “{secret.name}”</>} secret={secret.secret} onDone={onDone}>
      <div>Client ID: {secret.clientId}</div>
      <div>
        Client secret: <SecretText testId="client-secret">{secret.secret}</SecretText>
      </div>
      Copy it now and store it safely; Sitefile keeps only a hash of it.
    </SecretOnce>
  );
}
