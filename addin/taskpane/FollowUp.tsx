import {
  Button,
  Checkbox,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
} from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import type { MailHost } from './mail-host.js';
import type { FilingForm } from './use-filing-form.js';

/** The person's choice (Outlook roaming settings): a reply in a conversation filed in one place is filed on opening. */
export const fileFollowUpsSetting = 'sitefileFileFollowUps';

/**
 * A reply not filed yet in a conversation that is: "File with the thread" files it where the conversation's latest
 * filing is (project and document) in one click. With the setting on, and the conversation filed in one place
 * only, it is filed as soon as it is opened.
 */
export function FollowUp({ form, host }: { form: FilingForm; host: MailHost }) {
  const { lookup, filing } = form;
  const thread = lookup.status === 'done' && lookup.data?.filings.length === 0 ? lookup.data.conversation : [];
  const latest = thread[0];
  const [automatic, setAutomatic] = useState(() => host.readRoamingSetting(fileFollowUpsSetting) === true);
  const started = useRef(false);
  const canFileNow = !form.compose && latest !== undefined && filing.state === 'idle' && form.plan.fits;
  useEffect(() => {
    if (!automatic || !canFileNow || thread.length !== 1 || started.current) return;
    started.current = true;
    form.fileWithThread(latest!);
  });
  if (form.compose || !latest || filing.state === 'done') return null;
  // Every place named (the latest first): "and 1 other place" told the person nothing they could act on.
  const places = new Intl.ListFormat('en', { type: 'conjunction' }).format(
    thread.map((t) => (t.documentNumber ? `${t.projectName} (${t.documentNumber})` : t.projectName)),
  );
  const choose = (on: boolean) => {
    setAutomatic(on);
    host.writeRoamingSetting(fileFollowUpsSetting, on).catch(() => undefined);
  };
  return (
    <MessageBar intent="info" layout="multiline">
      <MessageBarBody>
        <MessageBarTitle>A reply in a filed conversation</MessageBarTitle>
        This conversation is filed in {places}.
        {thread.length > 1 && ` “File with the thread” files it in ${thread[0]!.projectName}, where it was filed last.`}
        <Checkbox
          checked={automatic}
          onChange={(_event, data) => choose(data.checked === true)}
          label="File replies like this one as I open them"
        />
      </MessageBarBody>
      <MessageBarActions>
        <Button
          size="small"
          appearance="primary"
          disabled={!canFileNow}
          onClick={() => {
            started.current = true;
            form.fileWithThread(latest);
          }}
        >
          File with the thread
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}
