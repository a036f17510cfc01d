import {
  Button,
  Caption1,
  Dropdown,
  Field,
  makeStyles,
  Option,
  Spinner,
  Switch,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';
import { AI_SENDS } from '../../shared/filing.js';
import type { MyOrganization } from '../../shared/me.js';
import type { ApiClient } from '../api/client.js';
import { useSubmit } from '../ui/form.js';
import { ErrorNotice } from '../ui/notices.js';
import { useAsync } from '../ui/use-async.js';
import { ApiKeys } from './ApiKeys.js';
import { AuditLog } from './AuditLog.js';
import { FiledMail } from './FiledMail.js';
import { AdminCard } from './layout.js';
import { People } from './People.js';
import { RunbookCard } from './Runbook.js';
import { ScimToken } from './ScimToken.js';
import { SingleSignOn } from './SingleSignOn.js';
import { Webhooks } from './Webhooks.js';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '960px', margin: '0 auto' },
  header: {
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
  },
  explanation: { display: 'block', color: tokens.colorNeutralForeground2, maxWidth: '70ch' },
});

export function AdminConsole({ api, signOut }: { api: ApiClient; signOut: () => void }) {
  const styles = useStyles();
  const me = useAsync(() => api.me(), [api]);
  const [orgId, setOrgId] = useState<string>();
  if (me.status === 'loading') return <Spinner label="Loading…" />;
  if (me.status === 'failed') return <ErrorNotice error={me.error} onRetry={me.reload} />;
  const manageable = me.data.organizations.filter((o) => o.role !== 'member');
  const org: MyOrganization | undefined = manageable.find((o) => o.id === orgId) ?? manageable[0];
  return (
    <main className={styles.root}>
      <div className={styles.header}>
        <Text as="h1" size={600} weight="semibold">
          Sitefile admin console
        </Text>
        <div>
          <Caption1>
            {me.data.name}
            {me.data.staff ? ' (staff)' : ''}
          </Caption1>{' '}
          <Button appearance="subtle" onClick={signOut}>
            Sign out
          </Button>
        </div>
      </div>
      {!org ? (
        <Text>You are not an admin of any organization. Ask an organization admin or Sitefile staff for access.</Text>
      ) : (
        <>
          <Field label="Organization">
            <Dropdown
              value={org.name}
              selectedOptions={[org.id]}
              onOptionSelect={(_event, data) => setOrgId(data.optionValue)}
            >
              {manageable.map((o) => (
                <Option key={o.id} value={o.id}>
                  {o.name}
                </Option>
              ))}
            </Dropdown>
          </Field>
          <AiSuggestCard key={`ai-${org.id}`} api={api} org={org} staff={me.data.staff} />
          <People key={`people-${org.id}`} api={api} org={org} staff={me.data.staff} />
          <ApiKeys key={`keys-${org.id}`} api={api} org={org} staff={me.data.staff} />
          <Webhooks key={`webhooks-${org.id}`} api={api} org={org} />
          <SingleSignOn key={`sso-${org.id}`} api={api} org={org} />
          <ScimToken key={`scim-${org.id}`} api={api} org={org} />
          <FiledMail key={`filed-${org.id}`} api={api} org={org} />
          <AuditLog key={`audit-${org.id}`} api={api} org={org} />
        </>
      )}
      {me.data.staff && <RunbookCard api={api} />}
    </main>
  );
}

/** The organization's aiSuggest switch, with what turning it on means. */
function AiSuggestCard({ api, org, staff }: { api: ApiClient; org: MyOrganization; staff: boolean }) {
  const styles = useStyles();
  const settings = useAsync(() => api.filingSettings(org.id, staff), [org.id]);
  const [value, setValue] = useState<boolean>();
  const save = useSubmit(async (next: boolean) => setValue((await api.setAiSuggest(org.id, next, staff)).aiSuggest));
  const current = value ?? (settings.status === 'done' ? settings.data.aiSuggest : undefined);
  const toggle = async (next: boolean) => {
    // Turning it on sends e-mail summaries to an outside service: one click must not do that by accident.
    const question = next
      ? `Turn on AI project suggestions for ${org.name}? Summaries of e-mails people open may then be sent to the configured AI service.`
      : `Turn off AI project suggestions for ${org.name}? Suggestions then come from Sitefile's own ranking only.`;
    if (window.confirm(question)) await save.submit(next);
  };
  return (
    <AdminCard title="AI project suggestions">
      <Text className={styles.explanation}>
        When this is on, and the Sitefile operator has configured an AI service, the server may send that service a
        short summary of an e-mail someone in {org.name} opens in the Outlook add-in, to re-rank the project
        suggestions. It asks only when Sitefile's own ranking found candidate projects but is unsure of them, and sends
        exactly: the subject; the first {AI_SENDS.bodyChars.toLocaleString('en')} characters of the body, e-mail
        addresses reduced to their domains; up to {AI_SENDS.attachmentNames} attachment names; the sender's and
        recipients' domains (never their addresses or names); and, for the candidate projects only (at most{' '}
        {AI_SENDS.candidates}, those the add-in suggests), each one's name, code and Sitefile's reasons for it (such as
        “2 e-mails from steel.example filed here”). Never the list of your other projects, their aliases, IDs, filed
        e-mails or attachments' content. When it is off, nothing leaves Sitefile: suggestions come from Sitefile's own
        ranking. A change applies to the next suggestion anyone requests.
      </Text>
      {settings.status === 'loading' && <Spinner size="tiny" label="Loading…" />}
      {settings.status === 'failed' && <ErrorNotice error={settings.error} onRetry={settings.reload} />}
      {current !== undefined && (
        <Switch
          checked={current}
          disabled={save.busy}
          label={current ? 'AI suggestions are on' : 'AI suggestions are off'}
          onChange={(_event, data) => void toggle(data.checked)}
        />
      )}
      {save.error !== undefined && (
        <ErrorNotice error={save.error} title="Not saved" onRetry={() => void toggle(!current)} />
      )}
    </AdminCard>
  );
}
