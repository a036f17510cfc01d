import { Button, Field, MessageBar, MessageBarBody, makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { useEffect, useRef } from 'react';
import type { ApiClient } from '../api/client.js';
import { filedCategoryName } from '../office/category.js';
import type { SharedMailbox } from '../office/mailbox.js';
import { ErrorNotice, messageOf } from '../ui/notices.js';
import type { HeldItemHost, MailHost } from './mail-host.js';
import { ProjectPicker } from './pickers.js';
import type { ProjectDirectory, ProjectOption } from './project-directory.js';
import { RefileButtons, useRefileState } from './refile-controls.js';
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

/** `category` is absent when the e-mail was not the one open in Outlook (its category was not touched). */
export type Refiling =
  | { state: 'idle' }
  | { state: 'unfiled'; from: string; category?: CategoryOutcome }
  | { state: 'moved'; from: string; to: string; category?: CategoryOutcome };

export interface RefileInput {
  api: ApiClient;
  /** The mailbox whose open e-mail this filing is of; absent for a filing found by search (Filed e-mails). */
  host?: MailHost;
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
  const held = input.host?.holdItem();
  const target = { orgId: place.organizationId, projectId: place.projectId };
  if (to) await input.api.moveFiled(target, place.filedEmailId, { projectId: to.projectId });
  else await input.api.unfile(target, place.filedEmailId);
  const category = held && (await recategorize(held, input.shared, place.projectName, to?.name));
  return to
    ? { state: 'moved', from: place.projectName, to: to.name, category }
    : { state: 'unfiled', from: place.projectName, category };
}

/** Outlook's "Filed: …" category of the e-mail, taken off (and the new project's put on, for a move). */
async function recategorize(
  held: HeldItemHost,
  shared: SharedMailbox | undefined,
  from: string,
  to: string | undefined,
): Promise<CategoryOutcome> {
  if (shared && !shared.canWrite) return { state: 'read-only', owner: shared.owner };
  try {
    await held.unmarkFiledInOutlook(from);
    if (to) await held.markFiledInOutlook(to);
    return { state: 'added' };
  } catch (error) {
    return categoryRefusal(error, shared?.owner);
  }
}

/**
 * "Unfile" and "Move to another project" for one filing of the open e-mail. Move opens a project picker of the same
 * organization (a filing moves within its organization only).
 */
export function RefileActions({ input, place, label }: { input: RefileInput; place: FiledPlace; label: string }) {
  const styles = useStyles();
  const state = useRefileState();
  const { moving, to, setTo, busy, error } = state;
  const otherOrg = to && to.orgId !== place.organizationId;
  const same = to && to.projectId === place.projectId;
  const run = (into?: ProjectOption) => state.run(async () => input.onChanged(await refile(input, place, into)));
  return (
    <div>
      <RefileButtons
        state={state}
        className={styles.actions}
        unfileLabel={`Unfile it from ${label}`}
        moveLabel={`Move it from ${label} to another project`}
        onUnfile={() => void run()}
        after={busy && <Spinner size="extra-tiny" label="Working…" />}
      />
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

/**
 * What unfiling or moving did, in the person's words (after the list of filings has been asked again). It takes the
 * focus: the button pressed is gone with the filing it was for, and a keyboard user lands on what happened.
 */
export function RefiledNotice({ refiling }: { refiling: Refiling }) {
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (refiling.state !== 'idle') notice.current?.focus();
  }, [refiling]);
  if (refiling.state === 'idle') return null;
  const { from, category } = refiling;
  const done = refiling.state === 'moved' ? `Moved from ${from} to ${refiling.to}.` : `Unfiled from ${from}.`;
  return (
    <MessageBar ref={notice} tabIndex={-1} intent="success" layout="multiline" aria-live="polite">
      <MessageBarBody>
        {done} {refiledCategoryText(refiling, category)}
      </MessageBarBody>
    </MessageBar>
  );
}

function refiledCategoryText(refiling: Extract<Refiling, { from: string }>, category?: CategoryOutcome): string {
  const old = `“${filedCategoryName(refiling.from)}”`;
  if (!category)
    return `If Outlook shows ${old} on the e-mail, select it with Sitefile open to see where it is filed now.`;
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
