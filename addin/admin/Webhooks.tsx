import { Badge, Button, Caption1, Checkbox, Field, Input, makeStyles, Text, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import type { MyOrganization } from '../../shared/me.js';
import { type Webhook, type WebhookEventType, webhookEventTypes } from '../../shared/webhooks.js';
import type { ApiClient } from '../api/client.js';
import { CheckGroup, MakeForm } from '../ui/form.js';
import { PlainList } from '../ui/layout.js';
import { Loaded } from '../ui/loaded.js';
import { ErrorNotice } from '../ui/notices.js';
import { type Action, useAction } from '../ui/use-action.js';
import { useAsync } from '../ui/use-async.js';
import { AdminCard, useAdminStyles } from './layout.js';
import { SecretOnce, SecretText } from './SecretOnce.js';

const useStyles = makeStyles({
  endpoint: {
    listStyleType: 'none',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    paddingBlock: tokens.spacingVerticalS,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  url: { fontFamily: tokens.fontFamilyMonospace, overflowWrap: 'anywhere' },
});

/** What an admin subscribes to (`webhook.test` is only sent by "Send test"). */
const subscribable = webhookEventTypes.filter((type) => type !== 'webhook.test');
type Calls = ReturnType<ApiClient['webhooks']>;

/** The organization's webhook endpoints: list, add (secret shown once), test, re-enable, delete, delivery log. */
export function Webhooks({ api, org }: { api: ApiClient; org: MyOrganization }) {
  const _styles = useStyles();
  const shared = useAdminStyles();
  const calls = api.webhooks(org.id);
  const hooks = useAsync(() => calls.list(), [org.id]);
  const [secret, setSecret] = useState<{ url: string; secret: string }>();
  const { actionError, act } = useAction(hooks.reload);
  return (
    <AdminCard title={<>Webhooks for {org.name}</>}>
      <Text className={shared.detail}>
        Sitefile POSTs the events you choose to each URL, signed by the Standard Webhooks scheme, and retries for more
        than a day. An endpoint that keeps failing is turned off; turn it on again here.
      </Text>
      {secret && (
        <SecretOnce
          title={`Signing secret for ${secret.url}`}
          secret={secret.secret}
          onDone={() => setSecret(undefined)}
        >
          <SecretText testId="webhook-secret">{secret.secret}</SecretText>
        </SecretOnce>
      )}
      {actionError !== undefined && <ErrorNotice error={actionError} />}
      <Loaded state={hooks} loading="Loading webhooks…">
        {(data) =>
          data.length === 0 ? (
            <Text>No webhooks yet.</Text>
          ) : (
            <PlainList gap="m" aria-label="Webhooks">
              {data.map((hook) => (
                <Endpoint key={hook.id} hook={hook} calls={calls} act={act} />
              ))}
            </PlainList>
          )
        }
      </Loaded>
      <CreateWebhook
        calls={calls}
        onCreated={(created) => {
          setSecret(created);
          hooks.reload();
        }}
      />
    </AdminCard>
  );
}

function Endpoint({ hook, calls, act }: { hook: Webhook; calls: Calls; act: Action }) {
  const styles = useStyles();
  const shared = useAdminStyles();
  const [showLog, setShowLog] = useState(false);
  const [logVersion, setLogVersion] = useState(0);
  const [testError, setTestError] = useState<unknown>();
  // Not through `act`: the endpoint is unchanged, so the list stays (and this log with it).
  const sendTest = async () => {
    setTestError(undefined);
    try {
      await calls.test(hook.id);
      setShowLog(true);
      setLogVersion((v) => v + 1);
    } catch (error) {
      setTestError(error);
    }
  };
  return (
    <li className={styles.endpoint}>
      <div className={shared.actions}>
        <span className={styles.url}>{hook.url}</span>
        <Badge appearance="tint" color={hook.enabled ? 'success' : 'danger'}>
          {hook.enabled ? 'On' : 'Off'}
        </Badge>
      </div>
      {hook.description && <Caption1 className={shared.detail}>{hook.description}</Caption1>}
      <Caption1 className={shared.detail}>Events: {hook.events.join(', ')}</Caption1>
      {hook.disabledReason && <Caption1 className={shared.detail}>{hook.disabledReason}</Caption1>}
      <div className={shared.actions}>
        <Button size="small" aria-expanded={showLog} onClick={() => setShowLog(!showLog)}>
          {showLog ? 'Hide deliveries' : 'Deliveries'}
        </Button>
        {hook.enabled ? (
          <Button size="small" onClick={() => void sendTest()}>
            Send test
          </Button>
        ) : (
          <Button size="small" onClick={() => void act(() => calls.setEnabled(hook.id, true))}>
            Turn on
          </Button>
        )}
        <Button
          size="small"
          onClick={() => {
            if (window.confirm(`Delete the webhook to ${hook.url}? Its delivery log goes with it.`)) {
              void act(() => calls.remove(hook.id));
            }
          }}
        >
          Delete
        </Button>
      </div>
      {testError !== undefined && <ErrorNotice error={testError} title="Test not sent" />}
      {showLog && <DeliveryLog key={logVersion} calls={calls} webhookId={hook.id} />}
    </li>
  );
}

/** The newest deliveries, each with every attempt's answer. */
function DeliveryLog({ calls, webhookId }: { calls: Calls; webhookId: string }) {
  const styles = useStyles();
  const shared = useAdminStyles();
  const log = useAsync(() => calls.deliveries(webhookId), [webhookId]);
  return (
    <Loaded state={log} loading="Loading deliveries…">
      {(deliveries) =>
        deliveries.length === 0 ? (
          <Caption1 className={shared.detail}>No deliveries yet.</Caption1>
        ) : (
          <PlainList gap="m" aria-label="Deliveries">
            {deliveries.map((d) => (
              <li key={d.id} className={styles.endpoint}>
                <Text>
                  {d.eventType} — {d.state}
                </Text>
                <Caption1 className={shared.detail}>
                  {new Date(d.createdAt).toLocaleString()}
                  {d.attempts.length > 0 &&
                    ` · attempts: ${d.attempts.map((a) => `${a.attempt}: ${a.responseStatus ?? a.error ?? 'no answer'}`).join(' · ')}`}
                  {d.nextAttemptAt && ` · next attempt ${new Date(d.nextAttemptAt).toLocaleString()}`}
                </Caption1>
              </li>
            ))}
          </PlainList>
        )
      }
    </Loaded>
  );
}

function CreateWebhook({
  calls,
  onCreated,
}: {
  calls: Calls;
  onCreated: (created: { url: string; secret: string }) => void;
}) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['email.filed']);
  const create = async () => {
    const created = await calls.create({ url: url.trim(), events, description: description.trim() || undefined });
    onCreated({ url: created.url, secret: created.secret });
    setUrl('');
    setDescription('');
  };
  return (
    <MakeForm
      heading="Add a webhook"
      work={create}
      ready={url.trim() !== '' && events.length > 0}
      label="Add webhook"
      busyLabel="Adding…"
      failedTitle="Not added"
    >
      <Field label="URL" required>
        <Input type="url" value={url} onChange={(_event, data) => setUrl(data.value)} maxLength={2000} />
      </Field>
      <Field label="Description">
        <Input value={description} onChange={(_event, data) => setDescription(data.value)} maxLength={500} />
      </Field>
      <CheckGroup legend="Events">
        {subscribable.map((type) => (
          <Checkbox
            key={type}
            label={type}
            checked={events.includes(type)}
            onChange={(_event, data) =>
              setEvents(data.checked ? [...events, type] : events.filter((chosen) => chosen !== type))
            }
          />
        ))}
      </CheckGroup>
    </MakeForm>
  );
}
