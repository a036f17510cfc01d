import {
  Button,
  Caption1,
  Field,
  Input,
  makeStyles,
  TableCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useMemo, useRef, useState } from 'react';
import type { z } from 'zod';
import type { FiledEmailFound as FoundSchema } from '../../shared/filing.js';
import type { MyOrganization } from '../../shared/me.js';
import type { ApiClient } from '../api/client.js';
import { ProjectPicker } from '../taskpane/pickers.js';
import { searchOnlyDirectory } from '../taskpane/project-directory.js';
import { RefileButtons, useRefileState } from '../taskpane/refile-controls.js';
import { Loaded } from '../ui/loaded.js';
import { ErrorNotice } from '../ui/notices.js';
import { useAsync } from '../ui/use-async.js';
import { AdminCard, StackedTable, useAdminStyles } from './layout.js';

const useStyles = makeStyles({
  // The button sits beside the box, not stretched to the height of the label above it.
  search: { display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: tokens.spacingHorizontalS },
});

type FiledEmailFound = z.output<typeof FoundSchema>;
type Page = { emails: FiledEmailFound[]; nextCursor: string | null };

const subjectOf = (e: FiledEmailFound) => e.subject || '(no subject)';

/**
 * The e-mail filed in the projects the admin may read, newest filing first, 25 at a time, searched by subject,
 * sender and words (the filed-mail search of the add-in); each can be unfiled or moved to another project of its
 * organization, after a confirmation. The server's unfile and move carry the activity, the webhooks and the search.
 */
export function FiledMail({ api, org }: { api: ApiClient; org: MyOrganization }) {
  const styles = useAdminStyles();
  const own = useStyles();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [pages, setPages] = useState(1);
  const [changes, setChanges] = useState(0);
  const [done, setDone] = useState<string>();
  const status = useRef<HTMLDivElement>(null);
  const list = useAsync(async (): Promise<Page> => {
    const emails: FiledEmailFound[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < pages; page++) {
      const answer = await api.searchAllFiled(search, cursor);
      emails.push(...answer.data);
      cursor = answer.nextCursor ?? undefined;
      if (!cursor) break;
    }
    return { emails, nextCursor: cursor ?? null };
  }, [search, pages, changes]);
  const changed = (what: string) => {
    setDone(what);
    setChanges((n) => n + 1);
    // The row pressed is gone: the focus goes to what happened.
    requestAnimationFrame(() => status.current?.focus());
  };
  return (
    <AdminCard title={<>Filed e-mail</>}>
      <Text className={styles.detail}>
        E-mail filed in the projects you may read, newest filing first. Unfile takes an e-mail out of its project; Move
        puts it in another project of {org.name}. Outlook's “Filed: …” category on people's mailboxes is not changed
        from here.
      </Text>
      <form
        className={own.search}
        onSubmit={(event) => {
          event.preventDefault();
          setPages(1);
          setSearch(typed.trim());
        }}
      >
        <Field label="Search by subject, sender or words">
          <Input type="search" value={typed} onChange={(_event, data) => setTyped(data.value)} />
        </Field>
        <Button type="submit">Search</Button>
      </form>
      <div ref={status} tabIndex={-1} role="status">
        {done && <Text>{done}</Text>}
      </div>
      <Loaded state={list} loading="Loading filed e-mail…">
        {(data) =>
          data.emails.length === 0 ? (
            <Text>{search ? `No filed e-mail matches “${search}”.` : 'No e-mail has been filed yet.'}</Text>
          ) : (
            <>
              <StackedTable label="Filed e-mail" columns={['E-mail', 'Project', 'Filed', 'Change']}>
                {data.emails.map((email) => (
                  <TableRow key={email.id}>
                    <TableCell data-label="E-mail" className={styles.cell}>
                      <Text weight="semibold">{subjectOf(email)}</Text>
                      <Caption1 className={styles.detail}>from {email.from.name ?? email.from.address}</Caption1>
                    </TableCell>
                    <TableCell data-label="Project" className={styles.cell}>
                      {email.projectName}
                    </TableCell>
                    <TableCell data-label="Filed" className={styles.cell}>
                      {email.filedAt.slice(0, 10)}
                      <Caption1 className={styles.detail}>by {email.filedBy.name}</Caption1>
                    </TableCell>
                    <TableCell className={styles.cell}>
                      <FilingChange api={api} org={org} email={email} onChanged={changed} />
                    </TableCell>
                  </TableRow>
                ))}
              </StackedTable>
              {data.nextCursor && <Button onClick={() => setPages((p) => p + 1)}>Show older filed e-mail</Button>}
            </>
          )
        }
      </Loaded>
    </AdminCard>
  );
}

/** Unfile and Move… for one filed e-mail; each asks first. */
function FilingChange(props: {
  api: ApiClient;
  org: MyOrganization;
  email: FiledEmailFound;
  onChanged: (what: string) => void;
}) {
  const { api, email } = props;
  const styles = useAdminStyles();
  const state = useRefileState();
  const { moving, setMoving, to, setTo, busy, error } = state;
  const subject = subjectOf(email);
  const directory = useMemo(
    () => searchOnlyDirectory(api, [{ id: email.organizationId, name: props.org.name }]),
    [api, email.organizationId, props.org.name],
  );
  const here = { orgId: email.organizationId, projectId: email.projectId };
  const run = async (question: string, change: () => Promise<unknown>, what: string) => {
    if (!window.confirm(question)) return;
    await state.run(async () => {
      await change();
      setMoving(false);
      props.onChanged(what);
    });
  };
  const same = to?.projectId === email.projectId;
  return (
    <div>
      <RefileButtons
        state={state}
        className={styles.actions}
        unfileLabel={`Unfile “${subject}” from ${email.projectName}`}
        moveLabel={`Move “${subject}” to another project`}
        onUnfile={() =>
          void run(
            `Unfile “${subject}” from ${email.projectName}? It leaves the project, its search and its activity says so.`,
            () => api.unfile(here, email.id),
            `Unfiled “${subject}” from ${email.projectName}.`,
          )
        }
      />
      {moving && (
        <div>
          <ProjectPicker projects={directory} value={to} onChange={setTo} label={`Move from ${email.projectName} to`} />
          {same && <Text className={styles.detail}>It is filed in {email.projectName} already: choose another.</Text>}
          <Button
            appearance="primary"
            size="small"
            disabled={!to || same || busy}
            onClick={() =>
              to &&
              void run(
                `Move “${subject}” from ${email.projectName} to ${to.name}?`,
                () => api.moveFiled(here, email.id, { projectId: to.projectId }),
                `Moved “${subject}” from ${email.projectName} to ${to.name}.`,
              )
            }
          >
            {to && !same ? `Move to ${to.name}` : 'Move'}
          </Button>
        </div>
      )}
      {error !== undefined && <ErrorNotice error={error} title="Not changed" />}
    </div>
  );
}
