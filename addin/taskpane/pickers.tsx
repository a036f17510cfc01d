import { Combobox, Field, Option, Spinner } from '@fluentui/react-components';
import { useId, useState } from 'react';
import type { ApiClient } from '../api/client.js';
import { messageOf } from '../ui/notices.js';
import { useAsync } from '../ui/use-async.js';

export interface ProjectOption {
  orgId: string;
  orgName: string;
  projectId: string;
  name: string;
  code: string | null;
}

/** Matches shown at once; typing narrows further. */
const MAX_SHOWN = 50;

const label = (p: ProjectOption, manyOrgs: boolean) =>
  `${p.code ? `${p.code} · ` : ''}${p.name}${manyOrgs ? ` (${p.orgName})` : ''}`;

/** Type-ahead over every project the user may file into. */
export function ProjectPicker(props: {
  projects: ProjectOption[] | undefined;
  loadError?: unknown;
  value: ProjectOption | undefined;
  onChange: (project: ProjectOption | undefined) => void;
  label?: string;
}) {
  const [query, setQuery] = useState('');
  const manyOrgs = new Set(props.projects?.map((p) => p.orgId)).size > 1;
  const needle = query.trim().toLowerCase();
  const matches = (props.projects ?? [])
    .filter((p) => !needle || label(p, manyOrgs).toLowerCase().includes(needle))
    .slice(0, MAX_SHOWN);
  return (
    <Field
      label={props.label ?? 'Project'}
      validationState={props.loadError ? 'error' : 'none'}
      validationMessage={props.loadError ? `Projects could not be loaded. ${messageOf(props.loadError)}` : undefined}
    >
      <Combobox
        placeholder={
          props.projects ? 'Type to find a project' : props.loadError ? 'Projects not loaded' : 'Loading projects…'
        }
        disabled={!props.projects}
        value={query || (props.value ? label(props.value, manyOrgs) : '')}
        selectedOptions={props.value ? [props.value.projectId] : []}
        onChange={(event) => setQuery(event.target.value)}
        onOptionSelect={(_event, data) => {
          setQuery('');
          props.onChange(props.projects?.find((p) => p.projectId === data.optionValue));
        }}
      >
        {matches.map((p) => (
          <Option key={p.projectId} value={p.projectId} text={label(p, manyOrgs)}>
            {label(p, manyOrgs)}
          </Option>
        ))}
        {matches.length === 0 && props.projects && (
          <Option disabled text="No match">
            No project matches “{query}”
          </Option>
        )}
      </Combobox>
    </Field>
  );
}

export interface DocumentChoice {
  uid: string;
  number: string;
  title: string;
}

/** Optional: one RFI or submittal of the chosen project to file the e-mail onto. */
export function DocumentPicker(props: {
  api: ApiClient;
  project: ProjectOption;
  value: DocumentChoice | undefined;
  onChange: (document: DocumentChoice | undefined) => void;
}) {
  const [query, setQuery] = useState('');
  const hintId = useId();
  const docs = useAsync(
    () => props.api.targetDocuments(props.project.orgId, props.project.projectId, query.trim()),
    [props.project.projectId, query],
  );
  const choices: DocumentChoice[] =
    docs.status === 'done' ? docs.data.data.map((d) => ({ uid: d.uid, number: d.id, title: d.title })) : [];
  const text = (d: DocumentChoice) => `${d.number} · ${d.title}`;
  return (
    <Field
      label="RFI or submittal (optional)"
      hint={{ id: hintId, children: 'Leave empty to file into the project only.' }}
      validationState={docs.status === 'failed' ? 'error' : 'none'}
      validationMessage={docs.status === 'failed' ? messageOf(docs.error) : undefined}
    >
      <Combobox
        clearable
        placeholder="Type a number or title"
        value={query || (props.value ? text(props.value) : '')}
        selectedOptions={props.value ? [props.value.uid] : []}
        onChange={(event) => setQuery(event.target.value)}
        onOptionSelect={(_event, data) => {
          setQuery('');
          props.onChange(choices.find((d) => d.uid === data.optionValue));
        }}
      >
        {docs.status === 'loading' && (
          <Option disabled text="Loading">
            <Spinner size="extra-tiny" label="Loading…" />
          </Option>
        )}
        {choices.map((d) => (
          <Option key={d.uid} value={d.uid} text={text(d)}>
            {text(d)}
          </Option>
        ))}
        {docs.status === 'done' && choices.length === 0 && (
          <Option disabled text="No match">
            No RFI or submittal matches
          </Option>
        )}
      </Combobox>
    </Field>
  );
}
