import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { useState } from 'react';
import { ErrorNotice } from '../ui/notices.js';
import type { MailHost } from './mail-host.js';
import type { FilingForm } from './use-filing-form.js';

/**
 * A draft marked "File this when sent", opened again: where it will be filed, and "Don't file it" to send it
 * without filing.
 */
export function DraftMark({ form, host }: { form: FilingForm; host: MailHost }) {
  const [failed, setFailed] = useState<unknown>();
  const { markedProject } = form;
  if (!form.compose) return null;
  const cancel = () => {
    setFailed(undefined);
    host.clearFileWhenSentMark().then(form.unmarked, setFailed);
  };
  return (
    <>
      {markedProject && (
        <MessageBar intent="info" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>File when sent</MessageBarTitle>
            This e-mail will be filed in {markedProject.name} as you send it.
          </MessageBarBody>
          <MessageBarActions>
            <Button size="small" onClick={cancel}>
              Don't file it
            </Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {failed !== undefined && <ErrorNotice error={failed} onRetry={cancel} title="The mark was not removed" />}
    </>
  );
}
