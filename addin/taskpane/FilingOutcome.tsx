import {
  Button,
  Field,
  Link,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  ProgressBar,
} from '@fluentui/react-components';
import { type ReactNode, useEffect, useRef } from 'react';
import { filedCategoryName } from '../office/category.js';
import { ErrorNotice, messageOf } from '../ui/notices.js';
import type { FilingStep } from './filing.js';
import { documentLabel } from './pickers.js';
import { type CategoryOutcome, type Filing, FilingUnconfirmedError, type LeftBehind } from './use-filing-form.js';

export const dateOf = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

const stepText: Record<FilingStep | 'marking', string> = {
  reading: 'Reading the e-mail and attachments…',
  uploading: 'Filing…',
  marking: 'Saving your choice on the draft…',
};

/**
 * Progress, then the result of File. Focus moves to the result when it arrives, so a keyboard or screen-reader
 * user lands on what happened.
 */
export function FilingOutcome(props: {
  filing: Filing;
  onRetry: () => void;
  onOpenFiled: () => void;
  /** Unfile and move, for a filing made now. */
  actions?: ReactNode;
}) {
  const result = useRef<HTMLDivElement>(null);
  const settled = props.filing.state !== 'idle' && props.filing.state !== 'busy';
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new result (not only the first) takes the focus
  useEffect(() => {
    // In view too: at 720 px the result lands below File, under the fold.
    if (settled) {
      result.current?.focus({ preventScroll: true });
      result.current?.scrollIntoView({ block: 'nearest' });
    }
  }, [settled, props.filing]);
  return (
    <div ref={result} tabIndex={-1} aria-live="polite" data-testid="filing-outcome">
      <OutcomeBody {...props} />
    </div>
  );
}

function OutcomeBody({
  filing,
  onRetry,
  onOpenFiled,
  actions,
}: {
  filing: Filing;
  onRetry: () => void;
  onOpenFiled: () => void;
  actions?: ReactNode;
}) {
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
      // "Not filed" only when it surely was not: an answer that was lost says so.
      return (
        <ErrorNotice
          error={filing.error}
          onRetry={onRetry}
          title={filing.error instanceof FilingUnconfirmedError ? 'Filing not confirmed' : 'Not filed'}
          always
        />
      );
    case 'marked':
      return (
        <MessageBar intent="success" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Will be filed when sent</MessageBarTitle>
            Sitefile files it into {filing.project.name} as you send it, where your Outlook supports that; otherwise
            open the sent e-mail with Sitefile and press File ({filing.project.name} is chosen already).
          </MessageBarBody>
        </MessageBar>
      );
    case 'unmarked':
      return (
        <MessageBar intent="info">
          <MessageBarBody>Not filed when sent: this e-mail will be sent without being filed.</MessageBarBody>
        </MessageBar>
      );
    case 'done': {
      const r = filing.result;
      const category = ` ${categoryText(filing.category, filedCategoryName(filing.project.name))}`;
      if (r.linkedToDocument) {
        const onto = filing.document ? documentLabel(filing.document) : 'the document chosen';
        return (
          <MessageBar intent="success" layout="multiline">
            <MessageBarBody>
              <MessageBarTitle>Linked to {onto}</MessageBarTitle>
              {r.filedBy.name} had filed this e-mail in {filing.project.name} on {dateOf(r.filedAt)}; it is now on{' '}
              {onto} too.{category} <Link onClick={onOpenFiled}>Open it in Sitefile</Link>
              {actions}
            </MessageBarBody>
          </MessageBar>
        );
      }
      return r.duplicate ? (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Already in this project</MessageBarTitle>
            {r.filedBy.name} already filed this e-mail in {filing.project.name} on {dateOf(r.filedAt)}. Nothing was
            changed.{category} <Link onClick={onOpenFiled}>Open it in Sitefile</Link>
          </MessageBarBody>
        </MessageBar>
      ) : (
        <MessageBar intent="success" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Filed</MessageBarTitle>
            Filed in {filing.project.name}
            {filing.document && <> on {documentLabel(filing.document)}</>}
            {withAttachments(filing.attachmentCount)}.
            {r.foundAfterLostAnswer && ' (Its answer was lost on the way; Sitefile has it stored.)'}
            {category} <Link onClick={onOpenFiled}>Open it in Sitefile</Link>
            {actions}
          </MessageBarBody>
        </MessageBar>
      );
    }
  }
}

/** " with 2 attachments", or nothing when it had none. */
const withAttachments = (count: number) => (count === 0 ? '' : ` with ${count} attachment${count === 1 ? '' : 's'}`);

/** What happened to the "Filed: project" category, in the person's words. */
function categoryText(category: CategoryOutcome, name: string): string {
  switch (category.state) {
    case 'added':
      return `Marked “${name}” in Outlook.`;
    case 'read-only':
      return `Not marked in Outlook: you may only read ${category.owner}’s mailbox.`;
    case 'not-in-master-list':
      return `Not marked in Outlook: “${name}” is not in the categories of ${category.owner}’s mailbox yet, and Outlook does not let Sitefile add it there. Whoever manages that mailbox can add it (Categorize › Manage categories); e-mails filed afterwards are marked.`;
    case 'item-changed':
      return `Not marked in Outlook: you selected another e-mail before filing finished, and Sitefile marks only the e-mail it filed. Select it again to see it filed.`;
    case 'failed':
      return `Not marked in Outlook: ${messageOf(category.error)}.`;
  }
}

/**
 * The outcome of a filing whose e-mail the person left (another one selected) before it finished: shown above the
 * next e-mail's form, naming the e-mail it is about, until dismissed.
 */
export function LeftBehindNotice({ left, onDismiss }: { left: LeftBehind; onDismiss: () => void }) {
  const { filing, subject } = left;
  const about = `“${subject || '(no subject)'}”`;
  const text =
    filing.state === 'done'
      ? `${about} was filed in ${filing.project.name}. ${categoryText(filing.category, filedCategoryName(filing.project.name))}`
      : filing.state === 'failed'
        ? `${about} was not filed: ${messageOf(filing.error)}`
        : filing.state === 'marked'
          ? `${about} will be filed in ${filing.project.name} when it is sent.`
          : undefined;
  if (!text) return null;
  return (
    <MessageBar intent={filing.state === 'failed' ? 'error' : 'warning'} layout="multiline" aria-live="polite">
      <MessageBarBody>
        <MessageBarTitle>The e-mail you left</MessageBarTitle>
        {text}
      </MessageBarBody>
      <MessageBarActions>
        <Button onClick={onDismiss}>Dismiss</Button>
      </MessageBarActions>
    </MessageBar>
  );
}
