import {
  Badge,
  Button,
  Caption1,
  Checkbox,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  makeStyles,
  ProgressBar,
  Radio,
  RadioGroup,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';
import type { z } from 'zod';
import type { FileEmailResult, LookupResult, Suggestion } from '../../shared/filing.js';
import type { ApiClient } from '../api/client.js';
import type { FileWhenSentMark, OpenMessage } from '../office/mailbox.js';
import { ErrorNotice } from '../ui/notices.js';
import { useAsync } from '../ui/use-async.js';
import { type FilingStep, fileableAttachments, fileOpenMessage, suggestionRequest } from './filing.js';
import type { FirstLook } from './first-look.js';
import type { MailHost } from './mail-host.js';
import { type DocumentChoice, DocumentPicker, type ProjectOption, ProjectPicker } from './pickers.js';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  suggestion: { display: 'flex', flexDirection: 'column' },
  reasons: { color: tokens.colorNeutralForeground3, paddingLeft: '32px', marginTop: '-4px' },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
});

/** Suggestions shown; the picker covers the rest. */
const TOP_SUGGESTIONS = 3;

type Filing =
  | { state: 'idle' }
  | { state: 'busy'; step: FilingStep | 'marking' }
  | { state: 'done'; result: z.output<typeof FileEmailResult>; projectName: string }
  | { state: 'marked'; project: ProjectOption }
  | { state: 'failed'; error: unknown };

const dateOf = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

export interface FilePanelProps {
  api: ApiClient;
  host: MailHost;
  projects: ProjectOption[] | undefined;
  projectsError?: unknown;
  /** aiSuggest per organization id (undefined while loading). */
  aiByOrg: ReadonlyMap<string, boolean> | undefined;
  /** Bumped when the user selects another e-mail. */
  itemVersion: number;
  /** The first e-mail's reads and requests, already under way. */
  firstLook?: FirstLook;
}

export function FilePanel(props: FilePanelProps) {
  const styles = useStyles();
  const { api, host } = props;
  const message = useAsync(() => props.firstLook?.message() ?? host.readOpenMessage(), [props.itemVersion]);
  if (message.status === 'loading') return <Spinner label="Reading the e-mail…" />;
  if (message.status === 'failed') return <ErrorNotice error={message.error} onRetry={message.reload} />;
  return (
    <div className={styles.root}>
      <MessageForm key={props.itemVersion} {...props} message={message.data} api={api} host={host} />
    </div>
  );
}

function MessageForm(props: FilePanelProps & { message: OpenMessage }) {
  const styles = useStyles();
  const { api, host, message } = props;
  const compose = message.mode === 'compose';
  const aiOnSomewhere = props.aiByOrg ? [...props.aiByOrg.values()].some(Boolean) : false;

  const lookup = useAsync<z.output<typeof LookupResult> | undefined>(
    async () =>
      props.firstLook?.lookup() ?? (message.internetMessageId ? api.lookup(message.internetMessageId) : undefined),
    [message.internetMessageId],
  );
  const suggestions = useAsync(
    async () => props.firstLook?.suggestions() ?? api.suggestions(await suggestionRequest(host, message)),
    [message],
  );
  const mark = useAsync<FileWhenSentMark | undefined>(
    async () => (compose ? undefined : host.readFileWhenSentMark().catch(() => undefined)),
    [message],
  );

  const [picked, setPicked] = useState<ProjectOption>();
  const [document, setDocument] = useState<DocumentChoice>();
  const [note, setNote] = useState('');
  const attachments = fileableAttachments(message);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(attachments.map((a) => a.id)));
  const [filing, setFiling] = useState<Filing>({ state: 'idle' });

  const projectById = (orgId: string, projectId: string): ProjectOption | undefined =>
    props.projects?.find((p) => p.orgId === orgId && p.projectId === projectId);

  // Preselect: the project marked when the e-mail was written, else the top suggestion.
  const topSuggestion = suggestions.status === 'done' ? suggestions.data.suggestions[0] : undefined;
  const markedProject =
    mark.status === 'done' && mark.data ? projectById(mark.data.organizationId, mark.data.projectId) : undefined;
  const suggestedProject = topSuggestion
    ? (projectById(topSuggestion.organizationId, topSuggestion.projectId) ?? fromSuggestion(topSuggestion))
    : undefined;
  const project = picked ?? markedProject ?? suggestedProject;

  const choose = (next: ProjectOption | undefined) => {
    setPicked(next);
    setDocument(undefined);
    setFiling({ state: 'idle' });
  };

  const file = async () => {
    if (!project) return;
    const target = {
      orgId: project.orgId,
      projectId: project.projectId,
      documentId: document?.uid,
      note: note.trim() || undefined,
    };
    try {
      if (compose) {
        setFiling({ state: 'busy', step: 'marking' });
        await host.markToFileWhenSent({
          organizationId: project.orgId,
          projectId: project.projectId,
          documentId: document?.uid,
        });
        setFiling({ state: 'marked', project });
        return;
      }
      setFiling({ state: 'busy', step: 'reading' });
      const result = await fileOpenMessage(api, host, message, target, chosen, (step) =>
        setFiling({ state: 'busy', step }),
      );
      setFiling({ state: 'done', result, projectName: project.name });
      lookup.reload();
    } catch (error) {
      setFiling({ state: 'failed', error });
    }
  };

  const aiOrg = project && props.aiByOrg ? props.aiByOrg.get(project.orgId) : undefined;
  return (
    <>
      <div className={styles.row}>
        <Text weight="semibold" truncate wrap={false} title={message.subject}>
          {message.subject || '(no subject)'}
        </Text>
      </div>
      <AiStatus
        aiOn={aiOrg ?? (props.aiByOrg ? aiOnSomewhere : undefined)}
        aiUsed={suggestions.status === 'done' && suggestions.data.aiUsed}
      />

      {lookup.status === 'done' && lookup.data && lookup.data.filings.length > 0 && (
        <MessageBar intent="info" layout="multiline" aria-live="polite">
          <MessageBarBody>
            <MessageBarTitle>Already filed</MessageBarTitle>
            {lookup.data.filings.map((f) => (
              <div key={f.filedEmailId}>
                Already filed in {f.projectName}
                {f.documentNumber ? ` (${f.documentNumber})` : ''} by {f.filedBy.name} on {dateOf(f.filedAt)}.
              </div>
            ))}
          </MessageBarBody>
        </MessageBar>
      )}
      {lookup.status === 'failed' && (
        <ErrorNotice error={lookup.error} onRetry={lookup.reload} title="Could not check earlier filings" />
      )}

      {markedProject && !compose && (
        <MessageBar intent="info">
          <MessageBarBody>You chose {markedProject.name} for this e-mail while writing it.</MessageBarBody>
        </MessageBar>
      )}

      <section aria-labelledby="suggestions-title">
        <Text as="h2" size={300} weight="semibold" id="suggestions-title">
          Suggested projects
        </Text>
        {suggestions.status === 'loading' && <Spinner size="tiny" label="Finding where this e-mail belongs…" />}
        {suggestions.status === 'failed' && <ErrorNotice error={suggestions.error} onRetry={suggestions.reload} />}
        {suggestions.status === 'done' && suggestions.data.suggestions.length === 0 && (
          <Caption1>No suggestion for this e-mail. Pick a project below.</Caption1>
        )}
        {suggestions.status === 'done' && suggestions.data.suggestions.length > 0 && (
          <RadioGroup
            aria-labelledby="suggestions-title"
            value={project ? `${project.orgId}/${project.projectId}` : ''}
            onChange={(_event, data) => {
              const picked = suggestions.data.suggestions.find(
                (s) => `${s.organizationId}/${s.projectId}` === data.value,
              );
              if (picked) choose(projectById(picked.organizationId, picked.projectId) ?? fromSuggestion(picked));
            }}
          >
            {suggestions.data.suggestions.slice(0, TOP_SUGGESTIONS).map((s) => (
              <div key={`${s.organizationId}/${s.projectId}`} className={styles.suggestion}>
                <Radio
                  value={`${s.organizationId}/${s.projectId}`}
                  label={`${s.projectName} · ${Math.round(s.score * 100)}%`}
                />
                <Caption1 className={styles.reasons}>{s.reasons.join(' · ')}</Caption1>
              </div>
            ))}
          </RadioGroup>
        )}
      </section>

      <ProjectPicker
        projects={props.projects}
        loadError={props.projectsError}
        value={project}
        onChange={choose}
        label="Or choose a project"
      />
      {project && <DocumentPicker api={api} project={project} value={document} onChange={setDocument} />}

      {!compose && attachments.length > 0 && (
        <fieldset style={{ border: 'none', margin: 0, padding: 0 }}>
          <legend>
            <Text weight="semibold">Attachments to include</Text>
          </legend>
          {attachments.map((a) => (
            <Checkbox
              key={a.id}
              label={`${a.name} (${formatSize(a.size)})`}
              checked={chosen.has(a.id)}
              onChange={(_event, data) => {
                const next = new Set(chosen);
                if (data.checked) next.add(a.id);
                else next.delete(a.id);
                setChosen(next);
              }}
            />
          ))}
        </fieldset>
      )}
      {!compose && (
        <Field label="Note (optional)">
          <Input value={note} onChange={(_event, data) => setNote(data.value)} maxLength={2000} />
        </Field>
      )}

      <Button appearance="primary" disabled={!project || filing.state === 'busy'} onClick={file}>
        {compose ? 'File this when sent' : 'File'}
      </Button>
      <FilingOutcome filing={filing} onRetry={file} />
    </>
  );
}

function AiStatus({ aiOn, aiUsed }: { aiOn: boolean | undefined; aiUsed: boolean }) {
  if (aiOn === undefined) return null;
  return (
    <div>
      <Badge appearance="tint" color={aiOn ? 'brand' : 'informative'}>
        {aiOn ? 'AI suggestions on' : 'AI suggestions off'}
      </Badge>{' '}
      <Caption1>
        {aiOn
          ? aiUsed
            ? 'These suggestions were re-ranked by the AI service your organization enabled.'
            : 'Your organization allows AI re-ranking of suggestions.'
          : 'Nothing from this e-mail is sent to an AI service.'}
      </Caption1>
    </div>
  );
}

function FilingOutcome({ filing, onRetry }: { filing: Filing; onRetry: () => void }) {
  switch (filing.state) {
    case 'idle':
      return null;
    case 'busy':
      return (
        <Field validationMessage={stepText[filing.step]} validationState="none">
          <ProgressBar aria-label={stepText[filing.step]} />
        </Field>
      );
    case 'failed':
      return <ErrorNotice error={filing.error} onRetry={onRetry} title="Not filed" />;
    case 'marked':
      return (
        <MessageBar intent="success" layout="multiline" aria-live="polite">
          <MessageBarBody>
            <MessageBarTitle>Will be filed when sent</MessageBarTitle>
            Open the sent e-mail with Sitefile to file it into {filing.project.name}.
          </MessageBarBody>
        </MessageBar>
      );
    case 'done': {
      const r = filing.result;
      return r.duplicate ? (
        <MessageBar intent="warning" layout="multiline" aria-live="polite">
          <MessageBarBody>
            <MessageBarTitle>Already in this project</MessageBarTitle>
            {r.filedBy.name} already filed this e-mail in {filing.projectName} on {dateOf(r.filedAt)}. Nothing was
            changed.
          </MessageBarBody>
        </MessageBar>
      ) : (
        <MessageBar intent="success" layout="multiline" aria-live="polite">
          <MessageBarBody>
            <MessageBarTitle>Filed</MessageBarTitle>
            Filed in {filing.projectName} with {r.attachments.length} attachment{r.attachments.length === 1 ? '' : 's'}.
          </MessageBarBody>
        </MessageBar>
      );
    }
  }
}

const stepText: Record<FilingStep | 'marking', string> = {
  reading: 'Reading the e-mail and attachments…',
  uploading: 'Filing…',
  marking: 'Saving your choice on the draft…',
};

function fromSuggestion(s: Suggestion): ProjectOption {
  return { orgId: s.organizationId, orgName: '', projectId: s.projectId, name: s.projectName, code: null };
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
