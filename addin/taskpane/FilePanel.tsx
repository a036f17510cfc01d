import {
  Button,
  Caption1,
  Field,
  Input,
  Link,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  makeStyles,
  Spinner,
  Text,
} from '@fluentui/react-components';
import { useId, useState } from 'react';
import type { ApiClient } from '../api/client.js';
import type { OpenMessage } from '../office/mailbox.js';
import { useLayoutStyles } from '../ui/layout.js';
import { ErrorNotice } from '../ui/notices.js';
import { useAsync } from '../ui/use-async.js';
import { Attachments } from './Attachments.js';
import { DraftMark } from './DraftMark.js';
import { dateOf, FilingOutcome } from './FilingOutcome.js';
import { FollowUp } from './FollowUp.js';
import type { FirstLook } from './first-look.js';
import type { MailHost } from './mail-host.js';
import { DocumentPicker, ProjectPicker } from './pickers.js';
import type { ProjectDirectory, ProjectOption } from './project-directory.js';
import { RefileActions, RefiledNotice, type RefileInput, type Refiling } from './Refile.js';
import { AiStatus, Suggestions } from './Suggestions.js';
import { choiceKey, type SavedChoices } from './saved-choices.js';
import { type FilingForm, type LeftBehind, useFilingForm } from './use-filing-form.js';

const useStyles = makeStyles({
  subject: { minWidth: 0, margin: 0 },
  // "RFI-014" is one word: not split at its hyphen in a narrow pane.
  nowrap: { whiteSpace: 'nowrap' },
});

/** The filed record to open in the "Filed e-mails" tab. */
export interface FiledRecord {
  project: ProjectOption;
  subject: string;
  emailId: string;
}

export interface FilePanelProps {
  api: ApiClient;
  host: MailHost;
  savedChoices: SavedChoices;
  projects: ProjectDirectory | undefined;
  projectsError?: unknown;
  /** aiSuggest per organization id (undefined while loading). */
  aiByOrg: ReadonlyMap<string, boolean> | undefined;
  /** Bumped when the user selects another e-mail. */
  itemVersion: number;
  /** The first e-mail's reads and requests, already under way. */
  firstLook?: FirstLook;
  onOpenFiled: (record: FiledRecord) => void;
  /** Told the outcome of a filing that finished after another e-mail was selected. */
  onLeftBehind: (left: LeftBehind) => void;
}

export function FilePanel(props: FilePanelProps) {
  const layout = useLayoutStyles();
  const { host } = props;
  const hasItem = host.hasOpenItem();
  const message = useAsync(
    async () => (hasItem ? (props.firstLook?.message() ?? host.readOpenMessage()) : undefined),
    [props.itemVersion, hasItem],
  );
  if (!hasItem) {
    return <Text>Select an e-mail to see where it belongs and file it. The pane follows your selection.</Text>;
  }
  if (message.status === 'loading') return <Spinner label="Reading the e-mail…" />;
  if (message.status === 'failed') return <ErrorNotice error={message.error} onRetry={message.reload} />;
  if (!message.data) return null;
  return (
    <div className={layout.column}>
      {/* A form of its own for each e-mail: nothing chosen for the previous one is carried over. */}
      <MessageForm key={`${props.itemVersion}:${choiceKey(message.data)}`} {...props} message={message.data} />
    </div>
  );
}

function MessageForm(props: FilePanelProps & { message: OpenMessage }) {
  const styles = useStyles();
  const { api, message } = props;
  const form = useFilingForm(props);
  const { project, compose, filing } = form;
  const pickFirstId = useId();
  const [refiling, setRefiling] = useState<Refiling>({ state: 'idle' });
  const refile: RefileInput = {
    api,
    host: props.host,
    projects: props.projects,
    projectsError: props.projectsError,
    shared: form.shared.status === 'done' ? form.shared.data : undefined,
    onChanged: (outcome) => {
      setRefiling(outcome);
      form.clearFiling();
      form.lookup.reload();
    },
  };
  const aiOnSomewhere = props.aiByOrg ? [...props.aiByOrg.values()].some(Boolean) : false;
  const aiOrg = project && props.aiByOrg ? props.aiByOrg.get(project.orgId) : undefined;
  return (
    <>
      <Text
        as="h1"
        size={400}
        className={styles.subject}
        weight="semibold"
        truncate
        wrap={false}
        title={message.subject}
      >
        {message.subject || '(no subject)'}
      </Text>
      {form.shared.status === 'done' && form.shared.data && (
        <Text size={200}>In the shared mailbox {form.shared.data.owner}</Text>
      )}
      <AiStatus
        aiOn={aiOrg ?? (props.aiByOrg ? aiOnSomewhere : undefined)}
        aiUsed={form.suggestions.status === 'done' && form.suggestions.data.aiUsed}
      />
      <RefiledNotice refiling={refiling} />
      <EarlierFilings
        form={form}
        refile={compose ? undefined : refile}
        onOpen={(f) =>
          props.onOpenFiled({
            project: props.projects?.option(f.organizationId, f.projectId, f.projectName) ?? {
              orgId: f.organizationId,
              orgName: '',
              projectId: f.projectId,
              name: f.projectName,
              code: null,
            },
            subject: message.subject,
            emailId: f.filedEmailId,
          })
        }
      />
      <DraftMark form={form} host={props.host} />
      <FollowUp form={form} host={props.host} />
      <Suggestions form={form} />
      <ProjectPicker
        projects={props.projects}
        loadError={props.projectsError}
        value={project}
        onChange={form.choose}
        label="Or choose a project"
      />
      {project && (
        <DocumentPicker
          api={api}
          project={project}
          value={form.document}
          onChange={form.setDocument}
          suggested={form.documentSuggested}
        />
      )}
      {!compose && form.attachments.length > 0 && (
        <Attachments message={message} chosen={form.chosen} plan={form.plan} onChange={form.setChosen} />
      )}
      {!compose && (
        <Field label="Note (optional)">
          <Input value={form.note} onChange={(_event, data) => form.setNote(data.value)} maxLength={2000} />
        </Field>
      )}
      <Button
        appearance="primary"
        disabled={!project || filing.state === 'busy' || (!compose && !form.plan.fits)}
        aria-describedby={project ? undefined : pickFirstId}
        onClick={form.file}
      >
        {compose ? 'File this when sent' : 'File'}
      </Button>
      {!project && <Caption1 id={pickFirstId}>Pick a project to file this e-mail.</Caption1>}
      <FilingOutcome
        filing={filing}
        actions={
          filing.state === 'done' && !filing.result.duplicate ? (
            <RefileActions
              input={refile}
              label={filing.project.name}
              place={{
                organizationId: filing.result.organizationId,
                projectId: filing.result.projectId,
                projectName: filing.project.name,
                filedEmailId: filing.result.id,
              }}
            />
          ) : undefined
        }
        onRetry={form.file}
        onOpenFiled={() =>
          filing.state === 'done' &&
          props.onOpenFiled({ project: filing.project, subject: message.subject, emailId: filing.result.id })
        }
      />
    </>
  );
}

type EarlierFiling = NonNullable<Extract<FilingForm['lookup'], { status: 'done' }>['data']>['filings'][number];

/** Where this e-mail is filed already, each filing to open (or the project marked when it was written). */
function EarlierFilings({
  form,
  onOpen,
  refile,
}: {
  form: FilingForm;
  onOpen: (filing: EarlierFiling) => void;
  refile?: RefileInput;
}) {
  const styles = useStyles();
  const { lookup, markedProject, mark } = form;
  const filedOnSend = mark.status === 'done' && mark.data?.filedEmailId;
  return (
    <>
      {lookup.status === 'done' && lookup.data && lookup.data.filings.length > 0 && (
        <MessageBar intent="info" layout="multiline" aria-live="polite">
          <MessageBarBody>
            <MessageBarTitle>Already filed</MessageBarTitle>
            {lookup.data.filings.map((f) => (
              <div key={f.filedEmailId}>
                Already filed in {f.projectName}
                {f.documentNumber && (
                  <>
                    {' '}
                    (<span className={styles.nowrap}>{f.documentNumber}</span>
                    {f.documentTitle ? ` · ${f.documentTitle}` : ''})
                  </>
                )}{' '}
                by {f.filedBy.name} on {dateOf(f.filedAt)}.{' '}
                <Link onClick={() => onOpen(f)} aria-label={`Open it as filed in ${f.projectName}`}>
                  Open it
                </Link>
                {refile && <RefileActions input={refile} place={f} label={f.projectName} />}
              </div>
            ))}
          </MessageBarBody>
        </MessageBar>
      )}
      {lookup.status === 'failed' && (
        <ErrorNotice error={lookup.error} onRetry={lookup.reload} title="Could not check earlier filings" />
      )}
      {markedProject && !form.compose && (
        <MessageBar intent="info">
          <MessageBarBody>
            {filedOnSend
              ? `Filed in ${markedProject.name} when it was sent.`
              : `You chose ${markedProject.name} for this e-mail while writing it.`}
          </MessageBarBody>
        </MessageBar>
      )}
    </>
  );
}
