import { Badge, Button, Checkbox, Field, Input, makeStyles, Text, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import type { MyOrganization } from '../../shared/me.js';
import type { SsoConnection, SsoDomain } from '../../shared/sso.js';
import type { ApiClient } from '../api/client.js';
import { Loaded } from '../ui/loaded.js';
import { ErrorNotice } from '../ui/notices.js';
import { useAction } from '../ui/use-action.js';
import { useAsync } from '../ui/use-async.js';
import { AdminCard, useAdminStyles } from './layout.js';

const useStyles = makeStyles({
  domains: {
    listStyleType: 'none',
    padding: 0,
    margin: `${tokens.spacingVerticalM} 0`,
    display: 'grid',
    gap: tokens.spacingVerticalM,
  },
  record: { fontFamily: tokens.fontFamilyMonospace },
});

/**
 * The organization's OpenID Connect identity provider (Entra ID, Okta, Google): people of its verified e-mail domains
 * sign in through it, and "require single sign-on" turns their passwords off. The client secret is written, never
 * shown: left empty when changing other fields, the stored one is kept.
 */
export function SingleSignOn({ api, org }: { api: ApiClient; org: MyOrganization }) {
  const shared = useAdminStyles();
  const calls = api.sso(org.id);
  const current = useAsync(() => calls.get(), [org.id]);
  const { actionError, act } = useAction(current.reload);
  return (
    <AdminCard title={<>Single sign-on for {org.name}</>}>
      <Text className={shared.detail}>
        Your people sign in with the accounts they already have (Microsoft Entra ID, Okta, Google): “Sign in with your
        organization” on the Sitefile sign-in page. Their first sign-in adds them as members.
      </Text>
      {actionError !== undefined && <ErrorNotice error={actionError} />}
      <Loaded state={current} loading="Loading single sign-on…">
        {({ data }) => (
          <>
            <SsoForm
              key={data?.updatedAt ?? 'none'}
              current={data}
              onSave={(input) => act(() => calls.save(input))}
              onRemove={() => act(() => calls.remove())}
            />
            {data && data.domainStatus.length > 0 && (
              <DomainList domains={data.domainStatus} onVerify={(domain) => act(() => calls.verifyDomain(domain))} />
            )}
          </>
        )}
      </Loaded>
    </AdminCard>
  );
}

function SsoForm({
  current,
  onSave,
  onRemove,
}: {
  current: SsoConnection | null;
  onSave: (input: {
    issuer: string;
    clientId: string;
    clientSecret?: string;
    domains: string[];
    requireSso: boolean;
  }) => void;
  onRemove: () => void;
}) {
  const [issuer, setIssuer] = useState(current?.issuer ?? '');
  const [clientId, setClientId] = useState(current?.clientId ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [domains, setDomains] = useState(current?.domains.join(', ') ?? '');
  const [requireSso, setRequireSso] = useState(current?.requireSso ?? false);
  const save = () =>
    onSave({
      issuer: issuer.trim(),
      clientId: clientId.trim(),
      ...(clientSecret ? { clientSecret } : {}),
      domains: domains
        .split(/[\s,]+/)
        .map((d) => d.trim())
        .filter(Boolean),
      requireSso,
    });
  return (
    <form
      aria-label="Single sign-on"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      {current ? (
        <Text as="p">
          Connected. Register this redirect URI at your identity provider: <code>{current.redirectUri}</code>
        </Text>
      ) : (
        <Text as="p">No identity provider: everyone signs in with a Sitefile password.</Text>
      )}
      <Field label="Issuer URL" required hint="Entra ID: https://login.microsoftonline.com/{your tenant id}/v2.0">
        <Input type="url" value={issuer} onChange={(_e, d) => setIssuer(d.value)} maxLength={500} />
      </Field>
      <Field label="Client ID" required>
        <Input value={clientId} onChange={(_e, d) => setClientId(d.value)} maxLength={500} />
      </Field>
      <Field
        label="Client secret"
        required={!current}
        hint={current ? 'Stored and never shown. Leave empty to keep it.' : undefined}
      >
        <Input type="password" value={clientSecret} onChange={(_e, d) => setClientSecret(d.value)} maxLength={2000} />
      </Field>
      <Field
        label="E-mail domains"
        required
        hint="Separated by commas, e.g. harbor-build.com. Each one signs people in once you have verified it."
      >
        <Input value={domains} onChange={(_e, d) => setDomains(d.value)} maxLength={2000} />
      </Field>
      <Checkbox
        checked={requireSso}
        onChange={(_e, d) => setRequireSso(Boolean(d.checked))}
        label="Require single sign-on (turn passwords off for people of these domains)"
      />
      <div>
        <Button appearance="primary" type="submit">
          {current ? 'Save single sign-on' : 'Connect identity provider'}
        </Button>{' '}
        {current && <Button onClick={onRemove}>Disconnect</Button>}
      </div>
    </form>
  );
}

/**
 * Each domain's state. A pending one signs no one in until its ownership is proven: the TXT record to publish at
 * the domain's DNS (selectable, to copy into the DNS provider's form) and "Verify", which looks it up.
 */
function DomainList({ domains, onVerify }: { domains: SsoDomain[]; onVerify: (domain: string) => void }) {
  const styles = useStyles();
  const shared = useAdminStyles();
  return (
    <section aria-label="Domain verification">
      <Text as="h3" weight="semibold">
        Domain verification
      </Text>
      <ul className={styles.domains}>
        {domains.map((d) => (
          <li key={d.domain} aria-label={d.domain}>
            <Text weight="semibold">{d.domain}</Text>{' '}
            {d.status === 'verified' ? (
              <>
                <Badge appearance="tint" color="success">
                  Verified
                </Badge>
                <Text className={shared.detail}>
                  {d.verifiedBy === 'dns' ? 'By its DNS record' : 'By Sitefile staff'}
                  {d.verifiedAt && `, ${new Date(d.verifiedAt).toLocaleDateString()}`}. Its people sign in through your
                  identity provider.
                </Text>
              </>
            ) : (
              <>
                <Badge appearance="tint" color="warning">
                  Pending
                </Badge>
                <Text className={shared.detail}>
                  No one of this domain signs in through your identity provider yet. Publish this TXT record at the
                  domain’s DNS provider, then verify.
                </Text>
                <Field label={`TXT record name for ${d.domain}`}>
                  <Input readOnly value={d.txtName} className={styles.record} onFocus={(e) => e.target.select()} />
                </Field>
                <Field label={`TXT record value for ${d.domain}`}>
                  <Input readOnly value={d.txtValue} className={styles.record} onFocus={(e) => e.target.select()} />
                </Field>
                <Button onClick={() => onVerify(d.domain)} aria-label={`Verify ${d.domain}`}>
                  Verify
                </Button>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
