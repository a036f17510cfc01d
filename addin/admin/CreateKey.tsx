import { Button, Checkbox, Field, Input, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { useState } from 'react';
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
});

/** What a new key may do unless the admin changes it. */
const defaultPermissions: readonly Permission[] = ['project:read', 'document:read'];

/** A key's secret as created or rotated: shown once, then only its hash is kept. */
export type Secret = { name: string; clientId: string; secret: string };

interface CreateKeyProps {
  api: ApiClient;
  desk: ReturnType<ApiClient['keys']>;
  staff: boolean;
  org: MyOrganization;
  onCreated: (s: Secret) => void;
}

/** The form that creates a key: name, permissions, and the whole organization or some of its projects. */
export function CreateKey(props: CreateKeyProps) {
  const { api, staff, org } = props;
  const styles = useStyles();
  const form = useCreateKeyForm(props);
  const projects = useAsync(() => api.projects(org.id, staff), [org.id, staff]);
  return (
    <form
      className={styles.form}
      onSubmit={(event) => {
        event.preventDefault();
        void form.create();
      }}
    >
      <Text as="h2" size={400} weight="semibold">
        Create a key
      </Text>
      <Field label="Name" required>
        <Input value={form.name} onChange={(_event, data) => form.setName(data.value)} maxLength={200} />
      </Field>
      <fieldset className={styles.group}>
        <legend>Permissions</legend>
        <div className={styles.checks}>
          {permissionKeys.map((p) => (
            <Checkbox
              key={p}
              label={p}
              checked={form.permissions.has(p)}
              onChange={(_event, data) => form.setPermissions(toggle(form.permissions, p, data.checked === true))}
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
                checked={form.projectIds.has(p.id)}
                onChange={(_event, data) => form.setProjectIds(toggle(form.projectIds, p.id, data.checked === true))}
              />
            ))}
        </div>
      </fieldset>
      {form.error !== undefined && <ErrorNotice error={form.error} title="Key not created" />}
      <div>
        <Button
          type="submit"
          appearance="primary"
          disabled={form.busy || !form.name.trim() || form.permissions.size === 0}
        >
          {form.busy ? 'Creating…' : 'Create key'}
        </Button>
      </div>
    </form>
  );
}

/** The form's state, and `create`, which empties the form once the key exists. */
function useCreateKeyForm({ desk, org, onCreated }: CreateKeyProps) {
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<ReadonlySet<Permission>>(new Set(defaultPermissions));
  const [projectIds, setProjectIds] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

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
  return { name, setName, permissions, setPermissions, projectIds, setProjectIds, busy, error, create };
}

const toggle = <T,>(set: ReadonlySet<T>, value: T, on: boolean) => {
  const next = new Set(set);
  if (on) next.add(value);
  else next.delete(value);
  return next;
};
