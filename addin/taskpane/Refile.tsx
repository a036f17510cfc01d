import { Button, Field, MessageBar, MessageBarBody, makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import type { ApiClient } from '../api/client.js';
import { filedCategoryName } from '../office/category.js';
import type { SharedMailbox } from '../office/mailbox.js';
import { ErrorNotice, messageOf } from '../ui/notices.js';
import type { MailHost } from './mail-host.js';
import { ProjectPicker } from './pickers.js';
import type { ProjectDirectory, ProjectOption } from './project-directory.js';
import { type CategoryOutcome, categoryRefusal } from './use-filing-form.js';

const useStyles = makeStyles({
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, marginTop: tokens.spacingVerticalXS },
  move: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, marginTop: tokens.spacingVerticalS },
});

/** One filing of the open e-mail, as lookup and File answer it. */
export interface FiledPlace {
  organizationId: string;
  projectId: string;
  projectName: string;
  filedEmailId: string;
}

export type Refiling =
  | { state: 'idle' }
  | { state: 'busy' }
  | { state: 'unfiled'; from: string; category: CategoryOutcome }
  | { state: 'moved'; from: string; to: string; category: CategoryOutcome }
  | { state: 'failed'; error: unknown };

export interface RefileInput {
  api: ApiClient;
  host: MailHost;
  projects: ProjectDirectory | undefined;
  projectsError?: unknown;
  /** The open e-mail's mailbox, when shared: a mailbox the person may only read keeps its categories. */
  shared: SharedMailbox | undefined;
  /** Told after a filing was unfiled or moved (the pane asks again where the e-mail is filed). */
  onChanged: (outcome: Refiling) => void;
}

/**
 * Unfiles the open e-mail from a project, or moves its filing to another project, then puts Outlook's "Filed: …"
 * category right on that same e-mail (never on one selected meanwhile).
 */
async function refile(input: RefileInput, place: FiledPlace, to?: ProjectOption): Promise<Refiling> {
  const held = input.host.holdItem();
  const target = { orgId: place.organizationId, projectId: place.projectId };
  if (to) await input.api.moveFiled(target, place.filedEmailId, { projectId: to.projectId });
  else await input.api.unfile(target, place.filedEmailId);
  const { shared } = input;
  const category: CategoryOutcome =
    shared && !shared.canWrite
      ? { state: 'read-only', owner: shared.owner }
      : await held
          .unmarkFiledInOutlook(place.projectName)
          .then(() => (to ? held.markFiledInOutlook(to.name) : undefined))
          .then(
            () => ({ state: 'added' }) as const,
            (error: unknown) => categoryRefusal(error, shared?.owner),
          );
  return to
    ? { state: 'moved', from: place.projectName, to: to.name, category }
    : { state: 'unfiled', from: place.projectName, category };
}

/**
 * "Unfile" and "Move to another project" for one filing of the open e-mail. Move opens a project picker of the same
 * organization (a filing moves within its organization only).
 */
export function RefileActions({ input, place, label }: { input: RefileInput; place: FiledPlace; label: string }) {
  const styles = useStyles();
  const [moving, setMoving] = useState(false);
  const [to, setTo] = useState<ProjectOption>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const otherOrg = to && to.orgId !== place.organizationId;
  const same = to && to.projectId === place.projectId;
  const run = async (into?: ProjectOption) => {
    setBusy(true);
    setError(undefined);
    try {
      input.onChanged(await refile(input, place, into));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div>
      <div className={styles.actions}>
        <Button size="small" disabled={busy} onClick={() => void run()} aria-label={`Unfile it from ${label}`}>
          Unfile
        </Button>
        <Button
          size="small"
          disabled={busy}
          aria-expanded={moving}
          onClick={() => setMoving((open) => !open)}
          aria-label={`Move it from ${label} to another project`}
        >
          Move…
        </Button>
        {busy && <Spinner size="extra-tiny" label="Working…" />}
      </div>
      {moving && (
        <div className={styles.move}>
          <ProjectPicker
            projects={input.projects}
            loadError={input.projectsError}
            value={to}
            onChange={setTo}
            label={`Move from ${place.projectName} to`}
          />
          {(otherOrg || same) && (
            <Field
              validationState="warning"
              validationMessage={
                same
                  ? `It is filed in ${place.projectName} already: choose another project.`
                  : 'A filing moves within its organization only: choose a project of the same organization.'
              }
            />
          )}
          <Button
            appearance="primary"
            size="small"
            disabled={!to || otherOrg || same || busy}
            onClick={() => to && void run(to)}
          >
            {to && !otherOrg && !same ? `Move to ${to.name}` : 'Move'}
          </Button>
        </div>
      )}
      {error !== undefined && <ErrorNotice error={error} title="Not changed" />}
    </div>
  );
}

/** What unfiling or moving did, in the person's words (after the list of filings has been asked again). */
export function RefiledNotice({ refiling }: { refiling: Refiling }) {
  if (refiling.state !== 'unfiled' && refiling.state !== 'moved') return null;
  const { from, category } = refiling;
  const done = refiling.state === 'moved' ? `Moved from ${from} to ${refiling.to}.` : `Unfiled from ${from}.`;
  return (
    <MessageBar intent="success" layout="multiline" aria-live="polite">
      <MessageBarBody>
        {done} {refiledCategoryText(refiling, category)}
      </MessageBarBody>
    </MessageBar>
  );
}

function refiledCategoryText(refiling: Extract<Refiling, { from: string }>, category: CategoryOutcome): string {
  const old = `“${filedCategoryName(refiling.from)}”`;
  switch (category.state) {
    case 'added':
      return refiling.state === 'moved'
        ? `Outlook shows “${filedCategoryName(refiling.to)}” instead of ${old}.`
        : `Removed ${old} in Outlook.`;
    case 'read-only':
      return `Outlook still shows ${old}: you may only read ${category.owner}’s mailbox.`;
    case 'not-in-master-list':
      return `Removed ${old} in Outlook; “${filedCategoryName(refiling.state === 'moved' ? refiling.to : refiling.from)}” is not in the categories of ${category.owner}’s mailbox, so it was not added.`;
    case 'item-changed':
      return `Outlook may still show ${old}: you selected another e-mail before it was changed.`;
    case 'failed':
      return `Outlook may still show ${old}: ${messageOf(category.error)}.`;
  }
}
