import { Combobox, Field, Link, Option, OptionGroup, Spinner } from '@fluentui/react-components';
import { useId, useState } from 'react';
import type { ApiClient } from '../api/client.js';
import { messageOf } from '../ui/notices.js';
import { useAsync } from '../ui/use-async.js';
import { numberQueryOf, rankForNumber, searchTextOf } from './document-numbers.js';
import { optionKey, type ProjectDirectory, type ProjectMatches, type ProjectOption } from './project-directory.js';

export type { ProjectOption } from './project-directory.js';

const label = (p: ProjectOption, manyOrgs: boolean) =>
  `${p.code ? `${p.code} · ` : ''}${p.name}${manyOrgs ? ` (${p.orgName})` : ''}`;

/**
 * What a picker's text box shows: the text being typed, else the chosen value's label. A selected value never
 * takes keystrokes: typing searches, and the choice changes only when another option is picked (Fluent's
 * combobox announces "no selection" when the typed text stops matching it; that is ignored).
 */
function useTypeAhead<T>(value: T | undefined, text: (value: T) => string) {
  const [typed, setTyped] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const shown = value === undefined ? '' : text(value);
  return {
    typed,
    open,
    input: {
      value: typed ?? shown,
      // Letters typed after the chosen value's label start a new search: they are not added to the label.
      onChange: (event: { target: { value: string } }) => {
        const next = event.target.value;
        setTyped(typed === null && shown && next.startsWith(shown) ? next.slice(shown.length) : next);
      },
      // Reached by keyboard or clicked, the whole label is selected: typing replaces it, wherever the click fell.
      onFocus: (event: { currentTarget: HTMLInputElement }) => event.currentTarget.select(),
      onClick: (event: { currentTarget: HTMLInputElement }) => {
        if (typed === null) event.currentTarget.select();
      },
      onOpenChange: (_event: unknown, data: { open: boolean }) => {
        setOpen(data.open);
        // Closed without a pick (Escape, Tab, a click elsewhere): the box shows the choice again.
        if (!data.open) setTyped(null);
      },
    },
    picked: () => setTyped(null),
  };
}

/** Type-ahead over every project the user may file into, answered by the server; recent projects on top. */
export function ProjectPicker(props: {
  projects: ProjectDirectory | undefined;
  loadError?: unknown;
  value: ProjectOption | undefined;
  onChange: (project: ProjectOption) => void;
  label?: string;
}) {
  const { projects } = props;
  const manyOrgs = projects?.manyOrgs ?? false;
  const text = (p: ProjectOption) => label(p, manyOrgs);
  const ahead = useTypeAhead(props.value, text);
  const query = ahead.typed?.trim() ?? '';
  // Asked only while the list is open: a new e-mail does not wait for a list nobody looks at.
  const matches = useAsync<ProjectMatches>(
    async () => (projects && ahead.open ? projects.find(query) : { options: [], more: false }),
    [projects, query, ahead.open],
  );
  // Until the projects have loaded the list says it is finding them; what was typed meanwhile is searched then.
  const listed = projects && matches.status === 'done' ? matches.data : undefined;
  const recent = query ? [] : (projects?.recent ?? []);
  const recentKeys = new Set(recent.map(optionKey));
  const found = listed ? listed.options.filter((p) => !recentKeys.has(optionKey(p))) : [];
  const shown = [...recent, ...found];
  const error = props.loadError ?? (matches.status === 'failed' ? matches.error : undefined);
  const option = (p: ProjectOption) => (
    <Option key={optionKey(p)} value={optionKey(p)} text={text(p)}>
      {text(p)}
    </Option>
  );
  return (
    <Field
      label={props.label ?? 'Project'}
      validationState={error ? 'error' : 'none'}
      validationMessage={error ? `Projects could not be loaded. ${messageOf(error)}` : undefined}
    >
      <Combobox
        placeholder={
          projects ? 'Type a project name or code' : props.loadError ? 'Projects not loaded' : 'Loading projects…'
        }
        // Open to typing while the projects load (keystrokes are kept); closed only when they could not be loaded.
        disabled={!projects && props.loadError !== undefined}
        {...ahead.input}
        selectedOptions={props.value ? [optionKey(props.value)] : []}
        onOptionSelect={(_event, data) => {
          const chosen = data.optionValue && shown.find((p) => optionKey(p) === data.optionValue);
          if (!chosen) return;
          ahead.picked();
          props.onChange(chosen);
        }}
      >
        {recent.length > 0 && <OptionGroup label="Recent">{recent.map(option)}</OptionGroup>}
        {found.length > 0 &&
          (recent.length > 0 ? <OptionGroup label="All projects">{found.map(option)}</OptionGroup> : found.map(option))}
        <ProjectListNotes
          loading={!listed && !error}
          more={Boolean(listed?.more)}
          empty={Boolean(listed) && shown.length === 0}
          query={query}
          noProjects="No project to file into"
        />
      </Combobox>
    </Field>
  );
}

/**
 * The notes at the end of a project list (the pane's picker, the admin console's key scope): still loading, more
 * projects than shown, or none found (`noProjects`: what none means when nothing is typed).
 */
export function ProjectListNotes(props: {
  loading: boolean;
  more: boolean;
  empty: boolean;
  query: string;
  noProjects: string;
}) {
  return (
    <>
      {props.loading && (
        <Option disabled text="Loading">
          <Spinner size="extra-tiny" label="Finding projects…" />
        </Option>
      )}
      {props.more && (
        <Option disabled text="More projects">
          More projects match: type more of the name or code
        </Option>
      )}
      {props.empty && (
        <Option disabled text="No match">
          {props.query ? `No project matches “${props.query}”` : props.noProjects}
        </Option>
      )}
    </>
  );
}

export interface DocumentChoice {
  uid: string;
  number: string;
  title: string;
}

/** "RFI-014 · Curtain wall anchor spacing": numbers repeat across projects, the title tells them apart. */
export const documentLabel = (d: DocumentChoice) => (d.title ? `${d.number} · ${d.title}` : d.number);

/** Optional: one RFI or submittal of the chosen project to file the e-mail onto. */
export function DocumentPicker(props: {
  api: ApiClient;
  project: ProjectOption;
  value: DocumentChoice | undefined;
  onChange: (document: DocumentChoice | undefined) => void;
  /** Said under the picker when the value was chosen by Sitefile, not the person. */
  suggested?: boolean;
}) {
  const hintId = useId();
  const text = documentLabel;
  const ahead = useTypeAhead(props.value, text);
  const query = ahead.typed?.trim() ?? '';
  // A typed number is asked as its digits (every spelling of it contains them) and ranked here: its own number first.
  const numeric = numberQueryOf(query) !== undefined;
  const docs = useAsync(
    () =>
      props.api.targetDocuments(props.project.orgId, props.project.projectId, searchTextOf(query), numeric ? 50 : 20),
    [props.project.projectId, query],
  );
  const choices: DocumentChoice[] =
    docs.status === 'done'
      ? rankForNumber(
          query,
          docs.data.data.map((d) => ({ uid: d.uid, number: d.id, title: d.title, format: d.format })),
        ).slice(0, 20)
      : [];
  return (
    <Field
      label="RFI or submittal (optional)"
      hint={{
        id: hintId,
        // The combobox's clear icon is for the mouse only (Fluent hides it from the keyboard): this link is for both.
        children: props.value ? (
          <>
            {props.suggested ? 'Suggested. ' : ''}
            <Link as="button" inline onClick={() => props.onChange(undefined)}>
              File into the project only
            </Link>
          </>
        ) : (
          'Leave empty to file into the project only.'
        ),
      }}
      validationState={docs.status === 'failed' ? 'error' : 'none'}
      validationMessage={docs.status === 'failed' ? messageOf(docs.error) : undefined}
    >
      <Combobox
        clearable
        placeholder="Type a number or title"
        {...ahead.input}
        selectedOptions={props.value ? [props.value.uid] : []}
        onOptionSelect={(event, data) => {
          // No option: the clear button (a click) empties the choice; typing never does.
          if (data.optionValue === undefined) {
            if (event.type === 'click') props.onChange(undefined);
            return;
          }
          ahead.picked();
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
