import {
  Button,
  Caption1,
  Field,
  Link,
  makeStyles,
  SearchBox,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import type { FiledEmailFoundList, FiledEmailList } from '../../shared/filing.js';
import type { ApiClient } from '../api/client.js';
import { Entry, PlainList } from '../ui/layout.js';
import { ErrorNotice } from '../ui/notices.js';
import { useRunAgainWhenOnline } from '../ui/use-async.js';
import { type FiledEmailRef, FiledEmailView } from './FiledEmailView.js';
import type { FiledRecord } from './FilePanel.js';
import { ProjectPicker } from './pickers.js';
import type { ProjectDirectory, ProjectOption } from './project-directory.js';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  meta: { color: tokens.colorNeutralForeground3, display: 'block' },
  open: { fontWeight: tokens.fontWeightSemibold, textAlign: 'start', overflowWrap: 'anywhere' },
});

type Page = z.output<typeof FiledEmailList> | z.output<typeof FiledEmailFoundList>;
/** A found e-mail; searched across projects, it names its project. */
type Found = Page['data'][number] & { projectName?: string };
type Results =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'done'; items: Found[]; next: string | null }
  | { state: 'failed'; error: unknown };

/**
 * The "Filed e-mails" tab: search what the team has filed, in every project the person may read or in the one
 * chosen, and open one to read it.
 */
export default function FiledEmails(props: {
  api: ApiClient;
  projects: ProjectDirectory | undefined;
  projectsError?: unknown;
  /** A record opened from the File tab: shown to read, with its project's list searched by its subject behind it. */
  record?: FiledRecord;
}) {
  const { projects, record } = props;
  const styles = useStyles();
  const [project, setProject] = useState<ProjectOption | undefined>(record?.project);
  const [query, setQuery] = useState(record?.subject ?? '');
  // With the name of its project: searched across projects, the e-mail names it; opened from File, the record does.
  const [open, setOpen] = useState<(FiledEmailRef & { projectName?: string }) | undefined>(
    record
      ? {
          orgId: record.project.orgId,
          projectId: record.project.projectId,
          emailId: record.emailId,
          projectName: record.project.name,
        }
      : undefined,
  );
  const { results, search } = useFiledSearch(props.api, project, query);

  // biome-ignore lint/correctness/useExhaustiveDependencies: searches once for the record it was opened with
  useEffect(() => {
    if (record) void search(record.project);
  }, [record]);

  if (open) {
    return (
      <FiledEmailView
        api={props.api}
        open={open}
        projectName={open.projectName ?? project?.name ?? 'this project'}
        projects={projects}
        projectsError={props.projectsError}
        onBack={() => {
          setOpen(undefined);
          // The list again as it is now: an e-mail unfiled or moved from the view is no longer in it.
          void search();
        }}
      />
    );
  }
  return (
    <section className={styles.root} aria-label="Filed e-mails">
      <ProjectPicker
        projects={projects}
        loadError={props.projectsError}
        value={project}
        onChange={(next) => {
          setProject(next);
          void search(next);
        }}
      />
      {project && (
        <Button
          appearance="subtle"
          onClick={() => {
            setProject(undefined);
            void search(null);
          }}
        >
          All projects instead
        </Button>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void search();
        }}
      >
        <Field label="Search filed e-mails">
          <SearchBox
            value={query}
            onChange={(_event, data) => setQuery(data.value)}
            placeholder={project ? 'Subject, sender, text, attachment' : 'In all your projects: subject, sender, text…'}
          />
        </Field>
        <Button type="submit" style={{ marginTop: tokens.spacingVerticalS }}>
          Search
        </Button>
      </form>
      {results.state === 'loading' && <Spinner size="tiny" label="Searching…" />}
      {results.state === 'failed' && <ErrorNotice error={results.error} onRetry={() => void search()} />}
      {results.state === 'done' && (
        <FoundEmails
          items={results.items}
          next={results.next}
          onMore={(cursor) => void search(project, { items: results.items, cursor })}
          onOpen={(e) =>
            setOpen({ orgId: e.organizationId, projectId: e.projectId, emailId: e.id, projectName: e.projectName })
          }
        />
      )}
    </section>
  );
}

/**
 * The search's results: in `chosen` (by default the picked project; null or none: every project the person may
 * read). `search(chosen, more)` loads the page after `more.items` and appends it.
 */
function useFiledSearch(api: ApiClient, project: ProjectOption | undefined, query: string) {
  const [results, setResults] = useState<Results>({ state: 'idle' });
  // Only the latest search may set the results: an earlier one answered late (a slow list of the picked project
  // arriving after the search typed next) would show the wrong list and, over a failed search, undo its retry.
  const latest = useRef(0);
  const search = async (
    chosen: ProjectOption | null | undefined = project,
    more?: { items: Found[]; cursor: string },
  ) => {
    const mine = ++latest.current;
    const settle = (next: Results) => {
      if (mine === latest.current) setResults(next);
    };
    setResults(more ? { state: 'done', items: more.items, next: null } : { state: 'loading' });
    try {
      const page: Page = chosen
        ? await api.searchFiled(chosen.orgId, chosen.projectId, query, more?.cursor)
        : await api.searchAllFiled(query, more?.cursor);
      settle({
        state: 'done',
        items: [...(more?.items ?? []), ...page.data],
        next: page.hasMore ? page.nextCursor : null,
      });
    } catch (error) {
      settle({ state: 'failed', error });
    }
  };
  // A search the outage stopped runs again once the server answers, as the offline bar says.
  useRunAgainWhenOnline(results.state === 'failed' ? results.error : undefined, () => void search());
  return { results, search };
}

/** How many matched, one line per e-mail, and "Show more" while there is a next page. */
function FoundEmails({
  items,
  next,
  onMore,
  onOpen,
}: {
  items: Found[];
  next: string | null;
  onMore: (cursor: string) => void;
  onOpen: (email: Found) => void;
}) {
  const styles = useStyles();
  return (
    <>
      <Text role="status">
        {items.length === 0
          ? 'No filed e-mail matches.'
          : `${items.length}${next ? '+' : ''} filed e-mail${items.length === 1 && !next ? '' : 's'}`}
      </Text>
      <PlainList gap="s">
        {items.map((e) => (
          <Entry key={e.id}>
            <Link className={styles.open} onClick={() => onOpen(e)}>
              {e.subject || '(no subject)'}
            </Link>
            <Caption1 className={styles.meta}>
              {e.projectName ? `In ${e.projectName} · ` : ''}From {e.from.name ?? e.from.address} · filed by{' '}
              {e.filedBy.name} on {new Date(e.filedAt).toLocaleDateString()}
              {e.hasAttachments ? ' · with attachments' : ''}
            </Caption1>
          </Entry>
        ))}
      </PlainList>
      {next && <Button onClick={() => onMore(next)}>Show more</Button>}
    </>
  );
}
