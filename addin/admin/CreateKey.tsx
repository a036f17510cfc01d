import { Checkbox, Field, Input } from '@fluentui/react-components';
import { useState } from 'react';
import type { MyOrganization } from '../../shared/me.js';
import { type Permission, permissionKeys } from '../../shared/permissions.js';
import type { ApiClient } from '../api/client.js';
import { CheckGroup, MakeForm } from '../ui/form.js';
import { type ChosenProjects, ScopePicker } from './ScopePicker.js';

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
      <ScopePicker
        api={api}
        orgId={org.id}
        orgName={org.name}
        staff={staff}
        chosen={form.projects}
        onChange={form.setProjects}
      />
    </MakeForm>
  );
}

/** The form's state, and `create`, which empties the form once the key exists. */
function useCreateKeyForm({ desk, org, onCreated }: CreateKeyProps) {
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<ReadonlySet<Permission>>(new Set(defaultPermissions));
  const [projects, setProjects] = useState<ChosenProjects>(new Map());

  const create = async () => {
    const created = await desk.create({
      name: name.trim(),
      permissions: Object.fromEntries([...permissions].map((p) => [p, true])),
      // No project chosen: the whole organization.
      scopes: projects.size
        ? { orgs: [], projects: [...projects.keys()].map((projectId) => ({ orgId: org.id, projectId })) }
        : { orgs: [org.id], projects: [] },
    });
    onCreated({ name: created.name, clientId: created.clientId, secret: created.client_secret });
    setName('');
    setPermissions(new Set(defaultPermissions));
    setProjects(new Map());
  };
  return { name, setName, permissions, setPermissions, projects, setProjects, create };
}

const toggle = <T,>(set: ReadonlySet<T>, value: T, on: boolean) => {
  const next = new Set(set);
  if (on) next.add(value);
  else next.delete(value);
  return next;
};
