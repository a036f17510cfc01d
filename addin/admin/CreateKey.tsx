import { Checkbox, Field, Input, Spinner } from '@fluentui/react-components';
import { useState } from 'react';
import type { MyOrganization } from '../../shared/me.js';
import { type Permission, permissionKeys } from '../../shared/permissions.js';
import type { ApiClient } from '../api/client.js';
import { CheckGroup, MakeForm } from '../ui/form.js';
import { ErrorNotice } from '../ui/notices.js';
import { useAsync } from '../ui/use-async.js';

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
  const form = useCreateKeyForm(props);
  const projects = useAsync(() => api.projects(org.id, staff), [org.id, staff]);
  return (
    <MakeForm
      heading="Create a key"
      work={form.create}
      ready={form.name.trim() !== '' && form.permissions.size > 0}
      label="Create key"
      busyLabel="Creating…"
      failedTitle="Key not created"
    >
      <Field label="Name" required>
        <Input value={form.name} onChange={(_event, data) => form.setName(data.value)} maxLength={200} />
      </Field>
      <CheckGroup legend="Permissions">
        {permissionKeys.map((p) => (
          <Checkbox
            key={p}
            label={p}
            checked={form.permissions.has(p)}
            onChange={(_event, data) => form.setPermissions(toggle(form.permissions, p, data.checked === true))}
          />
        ))}
      </CheckGroup>
      <CheckGroup
        legend={<>Scope: the whole of {org.name}, or only the projects ticked</>}
        before={
          <>
            {projects.status === 'loading' && <Spinner size="tiny" label="Loading projects…" />}
            {projects.status === 'failed' && <ErrorNotice error={projects.error} onRetry={projects.reload} />}
          </>
        }
      >
        {projects.status === 'done' &&
          projects.data.map((p) => (
            <Checkbox
              key={p.id}
              label={p.name}
              checked={form.projectIds.has(p.id)}
              onChange={(_event, data) => form.setProjectIds(toggle(form.projectIds, p.id, data.checked === true))}
            />
          ))}
      </CheckGroup>
    </MakeForm>
  );
}

/** The form's state, and `create`, which empties the form once the key exists. */
function useCreateKeyForm({ desk, org, onCreated }: CreateKeyProps) {
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<ReadonlySet<Permission>>(new Set(defaultPermissions));
  const [projectIds, setProjectIds] = useState<ReadonlySet<string>>(new Set());

  const create = async () => {
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
  };
  return { name, setName, permissions, setPermissions, projectIds, setProjectIds, create };
}

const toggle = <T,>(set: ReadonlySet<T>, value: T, on: boolean) => {
  const next = new Set(set);
  if (on) next.add(value);
  else next.delete(value);
  return next;
};
