import { Button, Caption1, makeStyles, Spinner, Tab, TabList, tokens } from '@fluentui/react-components';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { ApiClient } from '../api/client.js';
import { ErrorNotice } from '../ui/notices.js';
import { SignIn } from '../ui/sign-in.js';
import { useAsync } from '../ui/use-async.js';
import { FilePanel } from './FilePanel.js';
import type { FirstLook } from './first-look.js';
import type { MailHost } from './mail-host.js';
import type { ProjectOption } from './pickers.js';

const FiledEmails = lazy(() => import('./FiledEmails.js'));

const useStyles = makeStyles({
  header: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: tokens.spacingHorizontalS },
  body: { paddingTop: tokens.spacingVerticalM },
});

export interface TaskPaneProps {
  api: ApiClient;
  host: MailHost;
  signedIn: boolean;
  signIn: () => Promise<void>;
  signOut: () => void;
  /** The first e-mail's reads and requests, started before the first render. */
  firstLook?: FirstLook;
}

export function TaskPane(props: TaskPaneProps) {
  if (!props.signedIn) {
    return (
      <SignIn
        onSignIn={props.signIn}
        intro="Sign in with your Sitefile account to see where this e-mail belongs and file it in one click."
      />
    );
  }
  return <SignedIn {...props} />;
}

function SignedIn({ api, host, signOut, firstLook }: TaskPaneProps) {
  const styles = useStyles();
  const [tab, setTab] = useState<'file' | 'filed'>('file');
  const [itemVersion, setItemVersion] = useState(0);
  const me = useAsync(() => api.me(), [api]);
  const orgs = me.status === 'done' ? me.data.organizations : undefined;
  const projects = useAsync<ProjectOption[]>(async () => {
    if (!orgs) return new Promise<never>(() => {});
    const lists = await Promise.all(orgs.map((org) => api.projects(org.id)));
    return orgs.flatMap((org, i) =>
      lists[i]!.map((p) => ({ orgId: org.id, orgName: org.name, projectId: p.id, name: p.name, code: p.code })),
    );
  }, [orgs]);
  const aiByOrg = useAsync<ReadonlyMap<string, boolean>>(async () => {
    if (!orgs) return new Promise<never>(() => {});
    const settings = await Promise.all(orgs.map((org) => api.filingSettings(org.id)));
    return new Map(orgs.map((org, i) => [org.id, settings[i]!.aiSuggest]));
  }, [orgs]);

  const onItemChanged = useCallback(() => setItemVersion((v) => v + 1), []);
  useEffect(() => {
    // A pinned task pane follows the selected e-mail; hosts without the event just keep the first one.
    host.onItemChanged(onItemChanged).catch(() => undefined);
  }, [host, onItemChanged]);

  return (
    <main>
      <div className={styles.header}>
        <TabList
          selectedValue={tab}
          onTabSelect={(_event, data) => setTab(data.value as 'file' | 'filed')}
          size="small"
        >
          <Tab value="file">File</Tab>
          <Tab value="filed">Filed e-mails</Tab>
        </TabList>
        <Button appearance="subtle" size="small" onClick={signOut}>
          Sign out
        </Button>
      </div>
      {me.status === 'done' && <Caption1>Signed in as {me.data.name}</Caption1>}
      {me.status === 'failed' && <ErrorNotice error={me.error} onRetry={me.reload} />}
      <div className={styles.body}>
        {tab === 'file' ? (
          <FilePanel
            api={api}
            host={host}
            projects={projects.status === 'done' ? projects.data : undefined}
            projectsError={projects.status === 'failed' ? projects.error : undefined}
            aiByOrg={aiByOrg.status === 'done' ? aiByOrg.data : undefined}
            itemVersion={itemVersion}
            firstLook={itemVersion === 0 ? firstLook : undefined}
          />
        ) : (
          <Suspense fallback={<Spinner size="tiny" label="Loading…" />}>
            <FiledEmails api={api} projects={projects.status === 'done' ? projects.data : undefined} />
          </Suspense>
        )}
      </div>
    </main>
  );
}
