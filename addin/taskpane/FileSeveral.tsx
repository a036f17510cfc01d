import {
  Button,
  Field,
  MessageBar,
  MessageBarBody,
  makeStyles,
  ProgressBar,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useRef, useState } from 'react';
import type { ApiClient } from '../api/client.js';
import type { SelectedMessage } from '../office/mailbox.js';
import { PlainList, useLayoutStyles } from '../ui/layout.js';
import { messageOf } from '../ui/notices.js';
import { fileableAttachments, fileOpenMessage, lookupFilings, sendingPlan } from './filing.js';
import type { MailHost } from './mail-host.js';
import { ProjectPicker } from './pickers.js';
import type { ProjectDirectory, ProjectOption } from './project-directory.js';

const useStyles = makeStyles({
  item: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  subject: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  failed: { color: tokens.colorPaletteRedForeground1 },
  done: { color: tokens.colorPaletteGreenForeground1 },
});

type Outcome =
  | { state: 'waiting' }
  | { state: 'filing' }
  | { state: 'filed' }
  | { state: 'already' }
  /** Filed in other projects: not filed into a further one without the person deciding it, alone. */
  | { state: 'elsewhere'; projects: string[] }
  | { state: 'failed'; reason: string };

const outcomeText = (o: Outcome) => {
  switch (o.state) {
    case 'waiting':
      return 'Not filed yet';
    case 'filing':
      return 'Filing…';
    case 'filed':
      return 'Filed';
    case 'already':
      return 'Already filed there: nothing changed';
    case 'elsewhere':
      return `Not filed: it is filed in ${o.projects.join(', ')} already. Open it alone to move it or file it here too.`;
    case 'failed':
      return `Failed: ${o.reason}`;
  }
};

/**
 * Files one selected message with all of its attachments (or the JSON form without them when too large), unless it
 * is filed already: there (nothing to do), or in other projects (left alone: a second project is the person's
 * choice, made on that e-mail alone).
 */
async function fileSelected(
  api: ApiClient,
  host: MailHost,
  selected: SelectedMessage,
  project: ProjectOption,
): Promise<Outcome> {
  return host.withSelectedMessage(selected.itemId, async () => {
    const held = host.holdItem();
    const message = await host.readOpenMessage();
    const filings = (await lookupFilings(api, message))?.filings ?? [];
    if (filings.some((f) => f.projectId === project.projectId)) return { state: 'already' };
    if (filings.length > 0) return { state: 'elsewhere', projects: [...new Set(filings.map((f) => f.projectName))] };
    const every = new Set(fileableAttachments(message).map((a) => a.id));
    // The form fits whenever anything does (the whole message is sent only when it fits too).
    if (!sendingPlan(message, every, false, 0).fits) {
      throw new Error('over the 25 MB Sitefile accepts: open it alone to leave out its largest attachments');
    }
    const target = { orgId: project.orgId, projectId: project.projectId };
    const result = await fileOpenMessage(api, held, message, target, every, () => undefined);
    // The category is a convenience: the filing stands without it.
    await held.markFiledInOutlook(project.name).catch(() => undefined);
    return { state: result.duplicate ? 'already' : 'filed' };
  });
}

/**
 * Several messages selected (Mailbox 1.13 multi-select): one project for all, one action, progress, each message's
 * outcome (filed / already filed / failed), and a retry of the failed ones only.
 */
export function FileSeveral(props: {
  api: ApiClient;
  host: MailHost;
  selected: SelectedMessage[];
  projects: ProjectDirectory | undefined;
  projectsError?: unknown;
}) {
  const styles = useStyles();
  const layout = useLayoutStyles();
  const { selected } = props;
  const [project, setProject] = useState<ProjectOption>();
  const [outcomes, setOutcomes] = useState<ReadonlyMap<string, Outcome>>(new Map());
  const [running, setRunning] = useState(false);
  const busy = useRef(false);
  const outcomeOf = (s: SelectedMessage): Outcome => outcomes.get(s.itemId) ?? { state: 'waiting' };
  const failed = selected.filter((s) => outcomeOf(s).state === 'failed');
  const settled = selected.filter((s) => !['waiting', 'filing'].includes(outcomeOf(s).state)).length;

  const run = async (which: SelectedMessage[]) => {
    if (!project || busy.current) return;
    busy.current = true;
    setRunning(true);
    const set = (s: SelectedMessage, o: Outcome) => setOutcomes((m) => new Map(m).set(s.itemId, o));
    for (const s of which) set(s, { state: 'waiting' });
    // One message at a time: Outlook loads one selected item at a time.
    for (const s of which) {
      set(s, { state: 'filing' });
      try {
        set(s, await fileSelected(props.api, props.host, s, project));
      } catch (error) {
        set(s, { state: 'failed', reason: messageOf(error) });
      }
    }
    props.projects?.remember(project);
    busy.current = false;
    setRunning(false);
  };

  const count = (state: Outcome['state']) => selected.filter((s) => outcomeOf(s).state === state).length;
  return (
    <section className={layout.column} aria-labelledby="several-title">
      <Text as="h1" size={400} weight="semibold" id="several-title">
        {selected.length} e-mails selected
      </Text>
      <ProjectPicker
        projects={props.projects}
        loadError={props.projectsError}
        value={project}
        onChange={(next) => {
          setProject(next);
          setOutcomes(new Map());
        }}
        label="Project for all of them"
      />
      <Button appearance="primary" disabled={!project || running} onClick={() => void run(selected)}>
        {`File ${selected.length} e-mails`}
      </Button>
      {running && (
        <Field
          validationMessage={`Filing ${Math.min(settled + 1, selected.length)} of ${selected.length}…`}
          validationState="none"
        >
          <ProgressBar value={settled} max={selected.length} aria-label="Filing the selected e-mails" />
        </Field>
      )}
      {!running && settled > 0 && (
        <MessageBar
          intent={failed.length || count('elsewhere') ? 'warning' : 'success'}
          layout="multiline"
          aria-live="polite"
        >
          <MessageBarBody>
            {`${count('filed')} filed, ${count('already')} already filed there, ${failed.length} failed.`}
            {count('elsewhere') > 0 && ` ${count('elsewhere')} filed in another project already: not filed again.`}
          </MessageBarBody>
        </MessageBar>
      )}
      {!running && failed.length > 0 && (
        <Button onClick={() => void run(failed)}>{`Retry the ${failed.length} failed`}</Button>
      )}
      <Text size={200}>E-mails filed in another project already are left there, and listed below.</Text>
      <PlainList gap="xs" aria-label="Selected e-mails">
        {selected.map((s) => {
          const o = outcomeOf(s);
          return (
            <li key={s.itemId} className={styles.item}>
              <Text className={styles.subject} title={s.subject}>
                {s.subject || '(no subject)'}
              </Text>
              <Text
                size={200}
                className={
                  o.state === 'failed'
                    ? styles.failed
                    : o.state === 'filed' || o.state === 'already'
                      ? styles.done
                      : undefined
                }
              >
                {outcomeText(o)}
              </Text>
            </li>
          );
        })}
      </PlainList>
    </section>
  );
}
