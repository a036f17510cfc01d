import {
  Caption1,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  makeStyles,
  SearchBox,
  Text,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';
import type { ApiClient } from '../api/client.js';
import { MakeForm } from '../ui/form.js';
import { Entry, PlainList } from '../ui/layout.js';
import { Loaded } from '../ui/loaded.js';
import { useAsync } from '../ui/use-async.js';
import { AdminCard } from './layout.js';

const useStyles = makeStyles({
  paragraph: { display: 'block', whiteSpace: 'pre-wrap' },
  meta: { display: 'block', color: tokens.colorNeutralForeground3 },
});

/** Staff: the runbook (support issues with their approach), searchable, and a form to add an issue. */
export function RunbookCard({ api }: { api: ApiClient }) {
  const styles = useStyles();
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const runbook = useAsync(() => api.runbook(applied), [applied]);
  return (
    <AdminCard title="Support issues and runbook">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setApplied(search);
        }}
      >
        <Field label="Search the runbook">
          <SearchBox value={search} onChange={(_event, data) => setSearch(data.value)} />
        </Field>
      </form>
      <Loaded state={runbook} loading="Loading the runbook…">
        {(found) => (
          <>
            <Text role="status">
              {found.total === 0
                ? applied
                  ? 'No entry matches.'
                  : 'The runbook is empty: add the first support issue below.'
                : `${found.total} ${found.total === 1 ? 'entry' : 'entries'}`}
              {found.hasMore ? ` (first ${found.data.length} shown)` : ''}
            </Text>
            <PlainList gap="m">
              {found.data.map((issue) => (
                <Entry key={issue.id}>
                  <Text weight="semibold">{issue.title}</Text>
                  <Caption1 className={styles.meta}>
                    {issue.createdBy} · {new Date(issue.createdAt).toLocaleDateString()}
                  </Caption1>
                  <Text className={styles.paragraph}>{issue.description}</Text>
                  <Text className={styles.paragraph}>
                    <strong>Approach:</strong> {issue.approach}
                  </Text>
                </Entry>
              ))}
            </PlainList>
          </>
        )}
      </Loaded>
      <NewSupportIssue api={api} onCreated={runbook.reload} />
    </AdminCard>
  );
}

function NewSupportIssue({ api, onCreated }: { api: ApiClient; onCreated: () => void }) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [approach, setApproach] = useState('');
  const [saved, setSaved] = useState<string>();
  const add = async () => {
    const created = await api.createSupportIssue({ title, description, approach });
    setSaved(created.title);
    setTitle('');
    setDescription('');
    setApproach('');
    onCreated();
  };
  return (
    <MakeForm
      heading="Add a support issue"
      work={add}
      ready={Boolean(title.trim() && description.trim() && approach.trim())}
      label="Add to the runbook"
      busyLabel="Saving…"
      failedTitle="Not saved"
      outcome={
        saved && (
          <MessageBar intent="success">
            <MessageBarBody>“{saved}” is in the runbook.</MessageBarBody>
          </MessageBar>
        )
      }
    >
      <Field label="Title" required>
        <Input value={title} maxLength={200} onChange={(_event, data) => setTitle(data.value)} />
      </Field>
      <Field label="What goes wrong" required>
        <Textarea value={description} maxLength={10_000} onChange={(_event, data) => setDescription(data.value)} />
      </Field>
      <Field label="How to resolve it" required>
        <Textarea value={approach} maxLength={10_000} onChange={(_event, data) => setApproach(data.value)} />
      </Field>
    </MakeForm>
  );
}
