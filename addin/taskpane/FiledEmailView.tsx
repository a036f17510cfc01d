import { Button, Caption1, Link, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import type { FiledEmailDetail } from '../../shared/filing.js';
import type { ApiClient } from '../api/client.js';
import { ErrorNotice } from '../ui/notices.js';
import { useAsync } from '../ui/use-async.js';
import { formatSize } from './Attachments.js';
import { dateOf } from './FilingOutcome.js';
import type { ProjectDirectory } from './project-directory.js';
import { RefileActions, RefiledNotice, type Refiling } from './Refile.js';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  subject: { margin: 0, overflowWrap: 'anywhere' },
  headers: { margin: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: tokens.spacingHorizontalS },
  label: { color: tokens.colorNeutralForeground3 },
  value: { margin: 0, minWidth: 0, overflowWrap: 'anywhere' },
  body: {
    margin: 0,
    padding: tokens.spacingVerticalS,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    fontFamily: 'inherit',
    backgroundColor: tokens.colorNeutralBackground2,
    borderRadius: tokens.borderRadiusMedium,
    maxHeight: '50vh',
    overflowY: 'auto',
  },
  files: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '2px' },
  file: { display: 'flex', gap: tokens.spacingHorizontalS, minWidth: 0 },
  fileName: { minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  back: { alignSelf: 'flex-start' },
});

type Detail = z.output<typeof FiledEmailDetail>;

/** Which filed e-mail to open: its project's ids and its own. */
export interface FiledEmailRef {
  orgId: string;
  projectId: string;
  emailId: string;
}

/**
 * One filed e-mail to read: its headers, body and attachments, each downloaded through the server's signed link
 * (in a new window: a task pane cannot save files itself). The subject takes the focus when it opens.
 */
export function FiledEmailView(props: {
  api: ApiClient;
  open: FiledEmailRef;
  onBack: () => void;
  /** The project it is filed in, by name. */
  projectName: string;
  projects: ProjectDirectory | undefined;
  projectsError?: unknown;
}) {
  const styles = useStyles();
  const { orgId, projectId, emailId } = props.open;
  const email = useAsync(() => props.api.filedEmail(orgId, projectId, emailId), [props.api, orgId, projectId, emailId]);
  // Unfiled or moved from here: what happened is told in place of the e-mail, which is no longer in this project.
  const [refiling, setRefiling] = useState<Refiling>({ state: 'idle' });
  const name = props.projectName;
  return (
    <section className={styles.root} aria-label="Filed e-mail">
      <Button className={styles.back} appearance="subtle" onClick={props.onBack}>
        ← Back to the list
      </Button>
      {refiling.state !== 'idle' ? (
        <RefiledNotice refiling={refiling} />
      ) : (
        <>
          {email.status === 'loading' && <Spinner size="tiny" label="Opening the e-mail…" />}
          {email.status === 'failed' && <ErrorNotice error={email.error} onRetry={email.reload} />}
          {email.status === 'done' && (
            <>
              <EmailBody email={email.data} />
              <RefileActions
                input={{ ...props, shared: undefined, onChanged: setRefiling }}
                label={name}
                place={{ organizationId: orgId, projectId, projectName: name, filedEmailId: emailId }}
              />
            </>
          )}
        </>
      )}
    </section>
  );
}

const people = (list: Detail['to']) => list.map((p) => (p.name ? `${p.name} <${p.address}>` : p.address)).join(', ');

function EmailBody({ email }: { email: Detail }) {
  const styles = useStyles();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const headers: [string, string][] = [
    ['From', people([email.from])],
    ['To', people(email.to)],
    ...(email.cc.length > 0 ? [['Cc', people(email.cc)] as [string, string]] : []),
    ['Sent', email.sentAt ? new Date(email.sentAt).toLocaleString() : 'unknown'],
    ['Filed', `by ${email.filedBy.name} on ${dateOf(email.filedAt)}`],
    ...(email.note ? [['Note', email.note] as [string, string]] : []),
  ];
  return (
    <>
      <Text as="h2" size={400} weight="semibold" className={styles.subject} ref={heading} tabIndex={-1}>
        {email.subject || '(no subject)'}
      </Text>
      <dl className={styles.headers}>
        {headers.map(([label, value]) => (
          <div key={label} style={{ display: 'contents' }}>
            <dt className={styles.label}>{label}</dt>
            <dd className={styles.value}>{value}</dd>
          </div>
        ))}
      </dl>
      <pre className={styles.body}>{email.bodyText.trim() || '(no text)'}</pre>
      {email.attachments.length > 0 && (
        <>
          <Text as="h3" size={300} weight="semibold">
            {email.attachments.length} attachment{email.attachments.length === 1 ? '' : 's'}
          </Text>
          <ul className={styles.files}>
            {email.attachments.map((a) => (
              <li key={a.id} className={styles.file}>
                <Link href={a.download.url} target="_blank" rel="noopener" className={styles.fileName} title={a.name}>
                  {a.name}
                </Link>
                <Caption1>{formatSize(a.size)}</Caption1>
              </li>
            ))}
          </ul>
        </>
      )}
      {email.original && (
        <Link href={email.original.url} target="_blank" rel="noopener">
          Download the original e-mail (.eml)
        </Link>
      )}
    </>
  );
}
