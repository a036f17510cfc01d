import { Button, Combobox, Field, makeStyles, Option, Text, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import type { ApiClient } from '../api/client.js';
import { ProjectListNotes } from '../taskpane/pickers.js';
import { messageOf } from '../ui/notices.js';
import { useAsync } from '../ui/use-async.js';

/** Projects offered at once: typing narrows (the server ranks the whole organization, however large). */
const PROJECTS_OFFERED = 20;

/** The projects a key is scoped to, by id, with the names they were chosen by. */
export type ChosenProjects = ReadonlyMap<string, string>;

const useStyles = makeStyles({
  chosen: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS, margin: 0, padding: 0 },
  item: { listStyle: 'none', maxWidth: '100%' },
  // A long project name wraps inside its button instead of widening the form.
  remove: { maxWidth: '100%', textAlign: 'start', overflowWrap: 'anywhere', height: 'auto' },
});

/**
 * The projects a key may reach, found by typing (name, code or alias; words in any order, typos and accents
 * forgiven, as in the add-in's picker) among any number of projects: each pick is added to the chosen list under
 * the box, and the list stays open to pick more. None chosen: the whole organization.
 */
export function ScopePicker(props: {
  api: ApiClient;
  orgId: string;
  orgName: string;
  staff: boolean;
  chosen: ChosenProjects;
  onChange: (chosen: ChosenProjects) => void;
}) {
  const { api, orgId, staff, chosen, onChange } = props;
  const styles = useStyles();
  const [typed, setTyped] = useState('');
  const [open, setOpen] = useState(false);
  const query = typed.trim();
  // Asked only while the list is open: the form loads without reading any project.
  const matches = useAsync(
    async () => (open ? api.searchProjects(orgId, query, PROJECTS_OFFERED, staff) : undefined),
    [orgId, staff, query, open],
  );
  const found = matches.status === 'done' ? matches.data : undefined;
  const toggle = (id: string, name: string) => {
    const next = new Map(chosen);
    if (next.has(id)) next.delete(id);
    else next.set(id, name);
    onChange(next);
  };
  const label = (p: { name: string; code: string | null }) => (p.code ? `${p.code} · ${p.name}` : p.name);
  return (
    <>
      <Field
        label={`Projects (none chosen: the whole of ${props.orgName})`}
        validationState={matches.status === 'failed' ? 'error' : 'none'}
        validationMessage={
          matches.status === 'failed' ? `Projects could not be loaded. ${messageOf(matches.error)}` : undefined
        }
      >
        <Combobox
          multiselect
          placeholder="Type a project name or code"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          onOpenChange={(_event, data) => setOpen(data.open)}
          selectedOptions={[...chosen.keys()]}
          onOptionSelect={(_event, data) => {
            const project = found?.data.find((p) => p.id === data.optionValue);
            if (project) toggle(project.id, label(project));
          }}
        >
          {found?.data.map((p) => (
            <Option key={p.id} value={p.id} text={label(p)}>
              {label(p)}
            </Option>
          ))}
          <ProjectListNotes
            loading={open && matches.status === 'loading'}
            more={Boolean(found?.hasMore)}
            empty={found?.data.length === 0}
            query={query}
            noProjects="The organization has no projects"
          />
        </Combobox>
      </Field>
      {chosen.size > 0 && (
        <>
          <Text id={`chosen-${orgId}`}>Only these projects ({chosen.size}):</Text>
          <ul className={styles.chosen} aria-labelledby={`chosen-${orgId}`}>
            {[...chosen].map(([id, name]) => (
              <li key={id} className={styles.item}>
                <Button
                  size="small"
                  className={styles.remove}
                  aria-label={`Remove ${name}`}
                  icon={<span aria-hidden="true">✕</span>}
                  iconPosition="after"
                  onClick={() => toggle(id, name)}
                >
                  {name}
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
