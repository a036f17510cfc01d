import {
  Button,
  Caption1,
  Card,
  CardHeader,
  makeStyles,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';
import type { OAuthClient } from '../../shared/api-keys.js';
import type { MyOrganization } from '../../shared/me.js';
import { permissionKeys } from '../../shared/permissions.js';
import type { ApiClient } from '../api/client.js';
import { ErrorNotice } from '../ui/notices.js';
import { type Action, useAction } from '../ui/use-action.js';
import { useAsync } from '../ui/use-async.js';
import { CreateKey, type Secret } from './CreateKey.js';
import { SecretOnce, SecretText } from './SecretOnce.js';

const useStyles = makeStyles({
  actions: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
  usage: { display: 'block', color: tokens.colorNeutralForeground3, overflowWrap: 'anywhere' },
  // Four columns do not fit a phone or a narrow window: each key becomes a block of labelled lines instead, so no
  // text runs into the next column.
  keys: {
    '@media (max-width: 640px)': {
      display: 'block',
      '& thead': { display: 'none' },
      '& tbody, & tr, & td': { display: 'block', width: 'auto', height: 'auto' },
      '& tr': { paddingBlock: tokens.spacingVerticalS },
      '& td[data-label]::before': {
        content: 'attr(data-label)',
        display: 'block',
        fontWeight: tokens.fontWeightSemibold,
        color: tokens.colorNeutralForeground3,
      },
    },
  },
  cell: { overflowWrap: 'anywhere' },
});

/** The list loads every key at once, in pages of 50, up to this many pages (there is no "Show more"). */
const MAX_KEY_PAGES = 10;

type KeyDeskCalls = ReturnType<ApiClient['keys']>;

/**
 * The API keys of this organization — usage, create, disable/enable, rotate, delete. Staff see every key
 * that reaches it (through /v1/admin); its admins the keys confined to it (through the organization's routes).
 */
export function ApiKeys({ api, org, staff }: { api: ApiClient; org: MyOrganization; staff: boolean }) {
  const desk = staff ? api.keys('staff') : api.keys({ orgId: org.id });
  const { keys, refresh } = useKeys(desk, org.id, staff);
  const [secret, setSecret] = useState<Secret>();
  const { actionError, act } = useAction(refresh);
  return (
    <Card>
      <CardHeader header={<Text weight="semibold">API keys for {org.name}</Text>} />
      {secret && <KeySecret secret={secret} onDone={() => setSecret(undefined)} />}
      {actionError !== undefined && <ErrorNotice error={actionError} />}
      {keys.status === 'loading' && <Spinner size="tiny" label="Loading keys…" />}
      {keys.status === 'failed' && <ErrorNotice error={keys.error} onRetry={keys.reload} />}
      {keys.status === 'done' && <KeyTable keys={keys.data} desk={desk} act={act} onRotated={setSecret} />}
      <CreateKey
        api={api}
        desk={desk}
        staff={staff}
        org={org}
        onCreated={(created) => {
          setSecret(created);
          refresh();
        }}
      />
    </Card>
  );
}

/** The keys that reach the organization, reloaded by `refresh`. */
function useKeys(desk: KeyDeskCalls, orgId: string, staff: boolean) {
  const [version, setVersion] = useState(0);
  const keys = useAsync(async () => {
    const all: OAuthClient[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_KEY_PAGES; page++) {
      const list = await desk.list(cursor);
      all.push(...list.data);
      if (!list.hasMore || !list.nextCursor) break;
      cursor = list.nextCursor;
    }
    return all.filter((k) => k.superadmin || k.orgIds.includes(orgId));
  }, [orgId, staff, version]);
  return { keys, refresh: () => setVersion((v) => v + 1) };
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
  const styles = useStyles();
  return (
    <Table aria-label="API keys" size="small" className={styles.keys}>
      <TableHeader>
        <TableRow>
          <TableHeaderCell>Key</TableHeaderCell>
          <TableHeaderCell>Permissions</TableHeaderCell>
          <TableHeaderCell>Usage</TableHeaderCell>
          <TableHeaderCell>Actions</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {keys.length === 0 && (
          <TableRow>
            <TableCell colSpan={4}>No key reaches this organization yet.</TableCell>
          </TableRow>
        )}
        {keys.map((k) => (
          <TableRow key={k.id}>
            <TableCell className={styles.cell} data-label="Key">
              <Text weight="semibold">{k.name}</Text>
              <Caption1 className={styles.usage}>
                {k.clientId} · {k.enabled ? 'enabled' : 'disabled'}
              </Caption1>
            </TableCell>
            <TableCell className={styles.cell} data-label="Permissions">
              {permissionKeys.filter((p) => k.permissions[p]).join(', ') || 'none'}
              <Caption1 className={styles.usage}>
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
      </TableBody>
    </Table>
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
  const styles = useStyles();
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
  const styles = useStyles();
  if (!usage || usage.totalRequests === 0) return <>No requests yet</>;
  const top = [...usage.endpoints].sort((a, b) => b.count - a.count).slice(0, 3);
  return (
    <>
      {usage.totalRequests} requests
      {top.map((e) => (
        <Caption1 key={e.endpoint} className={styles.usage}>
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
