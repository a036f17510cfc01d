import {
  Button,
  Caption1,
  Card,
  CardHeader,
  Checkbox,
  Field,
  Input,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
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
import { useEffect, useRef, useState } from 'react';
import type { OAuthClient } from '../../shared/clients.js';
import type { MyOrganization } from '../../shared/me.js';
import { type Permission, permissionKeys } from '../../shared/permissions.js';
import type { ApiClient } from '../api/client.js';
import { ErrorNotice } from '../ui/notices.js';
import { useAsync } from '../ui/use-async.js';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  // The theme's thin stroke, not the browser's default groove (a bright white frame in dark mode).
  group: {
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    margin: 0,
    minWidth: 0,
  },
  checks: { display: 'flex', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalL },
  actions: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
  secret: { fontFamily: tokens.fontFamilyMonospace, wordBreak: 'break-all' },
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

/** Keys listed per page; "Show more" loads the next. */
/** What a new key may do unless the admin changes it. */
const defaultPermissions: readonly Permission[] = ['project:read', 'document:read'];

type Secret = { name: string; clientId: string; secret: string };

/**
 * The API keys of this organization — usage, create, disable/enable, rotate, delete. Staff see every key
 * that reaches it (through /v1/admin); its admins the keys confined to it (through the organization's routes).
 */
export function ApiKeys({ api, org, staff }: { api: ApiClient; org: MyOrganization; staff: boolean }) {
  const styles = useStyles();
  const [version, setVersion] = useState(0);
  const desk = staff ? api.keys('staff') : api.keys({ orgId: org.id });
  const keys = useAsync(async () => {
    const all: OAuthClient[] = [];
    let cursor: string | undefined;
    // Bounded: at most 10 pages of 50 keys.
    for (let page = 0; page < 10; page++) {
      const list = await desk.list(cursor);
      all.push(...list.data);
      if (!list.hasMore || !list.nextCursor) break;
      cursor = list.nextCursor;
    }
    return all.filter((k) => k.superadmin || k.orgIds.includes(org.id));
  }, [org.id, staff, version]);
  const [secret, setSecret] = useState<Secret>();
  const [actionError, setActionError] = useState<unknown>();
  const refresh = () => setVersion((v) => v + 1);

  const act = async (work: () => Promise<unknown>) => {
    setActionError(undefined);
    try {
      await work();
      refresh();
    } catch (error) {
      setActionError(error);
    }
  };

  return (
    <Card>
      <CardHeader header={<Text weight="semibold">API keys for {org.name}</Text>} />
      {secret && <SecretOnce secret={secret} onDone={() => setSecret(undefined)} />}
      {actionError !== undefined && <ErrorNotice error={actionError} />}
      {keys.status === 'loading' && <Spinner size="tiny" label="Loading keys…" />}
      {keys.status === 'failed' && <ErrorNotice error={keys.error} onRetry={keys.reload} />}
      {keys.status === 'done' && (
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
            {keys.data.length === 0 && (
              <TableRow>
                <TableCell colSpan={4}>No key reaches this organization yet.</TableCell>
              </TableRow>
            )}
            {keys.data.map((k) => (
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
                          setSecret({ name: rotated.name, clientId: rotated.clientId, secret: rotated.client_secret });
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
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
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

/** The secret, once: copy it now, it cannot be shown again. */
function SecretOnce({ secret, onDone }: { secret: Secret; onDone: () => void }) {
  const styles = useStyles();
  const [copied, setCopied] = useState(false);
  const shown = useRef<HTMLDivElement>(null);
  // The form that made it is further down the page: bring the secret into view and give it the focus.
  useEffect(() => {
    shown.current?.scrollIntoView({ block: 'center' });
    shown.current?.focus();
  }, []);
  return (
    <MessageBar intent="warning" layout="multiline" ref={shown} tabIndex={-1}>
      <MessageBarBody>
        <MessageBarTitle>Secret for “{secret.name}” — shown only this once</MessageBarTitle>
        <div>Client ID: {secret.clientId}</div>
        <div>
          Client secret:{' '}
          <span className={styles.secret} data-testid="client-secret">
            {secret.secret}
          </span>
        </div>
        Copy it now and store it safely; Sitefile keeps only a hash of it.
      </MessageBarBody>
      <MessageBarActions>
        <Button
          onClick={async () => {
            await navigator.clipboard.writeText(secret.secret).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          {copied ? 'Copied' : 'Copy secret'}
        </Button>
        <Button onClick={onDone}>I have stored it</Button>
      </MessageBarActions>
    </MessageBar>
  );
}

function CreateKey({
  api,
  desk,
  staff,
  org,
  onCreated,
}: {
  api: ApiClient;
  desk: ReturnType<ApiClient['keys']>;
  staff: boolean;
  org: MyOrganization;
  onCreated: (s: Secret) => void;
}) {
  const styles = useStyles();
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<ReadonlySet<Permission>>(new Set(defaultPermissions));
  const [projectIds, setProjectIds] = useState<ReadonlySet<string>>(new Set());
  const projects = useAsync(() => api.projects(org.id, staff), [org.id, staff]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  const toggle = <T,>(set: ReadonlySet<T>, value: T, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(value);
    else next.delete(value);
    return next;
  };

  const create = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const created = await desk.create({
        name: name.trim(),
        permissions: Object.fromEntries([...permissions].map((p) => [p, true])),
        // No project ticked: the whole organization.
        scopes: projectIds.size
          ? { orgs: [], projects: [...projectIds].map((projectId) => ({ orgId: org.id, projectId })) }
          : { orgs: [org.id], projects: [] },
      });
      onCreated({ name: created.name, clientId: created.clientId, secret: created.client_secret });
      setName('');
      setPermissions(new Set(defaultPermissions));
      setProjectIds(new Set());
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className={styles.form}
      onSubmit={(event) => {
        event.preventDefault();
        void create();
      }}
    >
      <Text as="h2" size={400} weight="semibold">
        Create a key
      </Text>
      <Field label="Name" required>
        <Input value={name} onChange={(_event, data) => setName(data.value)} maxLength={200} />
      </Field>
      <fieldset className={styles.group}>
        <legend>Permissions</legend>
        <div className={styles.checks}>
          {permissionKeys.map((p) => (
            <Checkbox
              key={p}
              label={p}
              checked={permissions.has(p)}
              onChange={(_event, data) => setPermissions(toggle(permissions, p, data.checked === true))}
            />
          ))}
        </div>
      </fieldset>
      <fieldset className={styles.group}>
        <legend>Scope: the whole of {org.name}, or only the projects ticked</legend>
        {projects.status === 'loading' && <Spinner size="tiny" label="Loading projects…" />}
        {projects.status === 'failed' && <ErrorNotice error={projects.error} onRetry={projects.reload} />}
        <div className={styles.checks}>
          {projects.status === 'done' &&
            projects.data.map((p) => (
              <Checkbox
                key={p.id}
                label={p.name}
                checked={projectIds.has(p.id)}
                onChange={(_event, data) => setProjectIds(toggle(projectIds, p.id, data.checked === true))}
              />
            ))}
        </div>
      </fieldset>
      {error !== undefined && <ErrorNotice error={error} title="Key not created" />}
      <div>
        <Button type="submit" appearance="primary" disabled={busy || !name.trim() || permissions.size === 0}>
          {busy ? 'Creating…' : 'Create key'}
        </Button>
      </div>
    </form>
  );
}
