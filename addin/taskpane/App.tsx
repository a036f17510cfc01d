import { Button, Caption1, makeStyles, Spinner, Tab, TabList, tokens } from '@fluentui/react-components';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { ApiClient } from '../api/client.js';
import type { SignedOutReason } from '../auth/session.js';
import type { SelectedMessage } from '../office/mailbox.js';
import { OfflineBar } from '../ui/connection.js';
import { ErrorNotice } from '../ui/notices.js';
import { SignIn } from '../ui/sign-in.js';
import { useAsync } from '../ui/use-async.js';
import { type FiledRecord, FilePanel } from './FilePanel.js';
import { FileSeveral } from './FileSeveral.js';
import { LeftBehindNotice } from './FilingOutcome.js';
import type { FirstLook } from './first-look.js';
import type { MailHost } from './mail-host.js';
import { useProjectDirectory } from './project-directory.js';
import type { SavedChoices } from './saved-choices.js';
import type { LeftBehind } from './use-filing-form.js';

const FiledEmails = lazy(() => import('./FiledEmails.js'));

const useStyles = makeStyles({
  header: {
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    marginBottom: tokens.spacingVerticalXS,
  },
  body: { paddingTop: tokens.spacingVerticalM },
});

export interface TaskPaneProps {
  api: ApiClient;
  host: MailHost;
  signedIn: boolean;
  /** Why the last session ended, if one did while the pane was open. */
  endedBecause?: SignedOutReason;
  /** What was chosen per e-mail; kept across a new sign-in. */
  savedChoices: SavedChoices;
  signIn: () => Promise<void>;
  signOut: () => void;
  /** The first e-mail's reads and requests, started before the first render. */
  firstLook?: FirstLook;
}

const signInIntro = 'Sign in with your Sitefile account to see where this e-mail belongs and file it in one click.';
const expiredIntro =
  'Your Sitefile sign-in has ended: it lasts 90 days of use, and ends sooner when your password changes or you sign out elsewhere. Sign in again to go on; the project, attachments and note you chose for this e-mail are kept.';

export function TaskPane(props: TaskPaneProps) {
  if (!props.signedIn) {
    return <SignIn onSignIn={props.signIn} intro={props.endedBecause === 'expired' ? expiredIntro : signInIntro} />;
  }
  return <SignedIn {...props} />;
}

/** Everything the pane lists for the person: their organizations (whose projects the pickers search), and each
 *  organization's AI setting. */
function usePaneData(api: ApiClient, host: MailHost) {
  const me = useAsync(() => api.me(), [api]);
  const orgs = me.status === 'done' ? me.data.organizations : undefined;
  const projects = useProjectDirectory(api, host, orgs);
  const aiByOrg = useAsync<ReadonlyMap<string, boolean>>(async () => {
    if (!orgs) return new Promise<never>(() => {});
    const settings = await Promise.all(orgs.map((org) => api.filingSettings(org.id)));
    return new Map(orgs.map((org, i) => [org.id, settings[i]!.aiSuggest]));
  }, [orgs]);
  // Without the organizations there are no projects to search: the pickers say so instead of loading for ever.
  return { me, projects, projectsError: me.status === 'failed' ? me.error : undefined, aiByOrg };
}

function SignedIn({ api, host, signOut, firstLook, savedChoices }: TaskPaneProps) {
  const styles = useStyles();
  const [tab, setTab] = useState<'file' | 'filed'>('file');
  const [itemVersion, setItemVersion] = useState(0);
  const [record, setRecord] = useState<FiledRecord>();
  const [leftBehind, setLeftBehind] = useState<LeftBehind>();
  const { me, projects, projectsError, aiByOrg } = usePaneData(api, host);
  /** What every tab searches projects with. */
  const picking = { api, projects, projectsError };
  const probe = useCallback(() => api.me(), [api]);

  const [selection, setSelection] = useState<SelectedMessage[]>([]);
  const readSelection = useCallback(() => {
    host.readSelectedMessages().then(setSelection, () => setSelection([]));
  }, [host]);
  const onItemChanged = useCallback(() => {
    // The next e-mail starts from its own suggestions; what was chosen for this one is kept for it (savedChoices).
    setItemVersion((v) => v + 1);
    readSelection();
  }, [readSelection]);
  useEffect(() => {
    // A pinned task pane follows the selected e-mail (or e-mails); hosts without the events keep the first one.
    readSelection();
    host.onItemChanged(onItemChanged).catch(() => undefined);
    if (host.canFileSelection()) host.onSelectionChanged(onItemChanged).catch(() => undefined);
  }, [host, onItemChanged, readSelection]);

  return (
    <main>
      <div className={styles.header}>
        <TabList
          selectedValue={tab}
          onTabSelect={(_event, data) => {
            setRecord(undefined);
            setTab(data.value as 'file' | 'filed');
          }}
          size="small"
        >
          <Tab value="file">File</Tab>
          <Tab value="filed">Filed e-mails</Tab>
        </TabList>
        <Button appearance="subtle" size="small" onClick={signOut}>
          Sign out
        </Button>
      </div>
      <OfflineBar probe={probe} />
      {me.status === 'done' && <Caption1>Signed in as {me.data.name}</Caption1>}
      {me.status === 'failed' && <ErrorNotice error={me.error} onRetry={me.reload} />}
      {leftBehind && <LeftBehindNotice left={leftBehind} onDismiss={() => setLeftBehind(undefined)} />}
      <div className={styles.body}>
        {tab === 'file' && selection.length > 1 ? (
          <FileSeveral key={selection.map((m) => m.itemId).join(' ')} {...picking} host={host} selected={selection} />
        ) : tab === 'file' ? (
          <FilePanel
            {...picking}
            host={host}
            savedChoices={savedChoices}
            aiByOrg={aiByOrg.status === 'done' ? aiByOrg.data : undefined}
            itemVersion={itemVersion}
            firstLook={itemVersion === 0 ? firstLook : undefined}
            onLeftBehind={setLeftBehind}
            onOpenFiled={(filed) => {
              setRecord(filed);
              setTab('filed');
            }}
          />
        ) : (
          <Suspense fallback={<Spinner size="tiny" label="Loading…" />}>
            <FiledEmails {...picking} record={record} />
          </Suspense>
        )}
      </div>
    </main>
  );
}
