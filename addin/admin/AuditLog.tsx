import { Button, Caption1, Field, Input, Select, TableCell, TableRow, Text } from '@fluentui/react-components';
import { useState } from 'react';
import type { AuditEvent } from '../../shared/audit.js';
import type { MyOrganization } from '../../shared/me.js';
import type { ApiClient, AuditFilters } from '../api/client.js';
import { Loaded } from '../ui/loaded.js';
import { useAsync } from '../ui/use-async.js';
import { AdminCard, StackedTable, useAdminStyles } from './layout.js';

/** The kinds of change an admin filters by, with the actions each stands for. */
const kinds: Record<string, string> = {
  'Every change and sign-in': '',
  'API keys': 'key.created,key.updated,key.enabled,key.disabled,key.deleted,key.secret_rotated',
  People: 'member.role_changed,member.removed,person.disabled,person.enabled',
  Settings: 'settings.updated',
  Projects: 'project.created,project.updated',
  Webhooks: 'webhook.created,webhook.updated,webhook.deleted',
  'Sign-ins': 'signin.succeeded,signin.failed',
  'Failed sign-ins': 'signin.failed',
};

type Page = { events: AuditEvent[]; nextCursor: string | null };

/** Who changed what in the organization, newest first, with the address and each field before and after. */
export function AuditLog({ api, org }: { api: ApiClient; org: MyOrganization }) {
  const styles = useAdminStyles();
  const [filters, setFilters] = useState<AuditFilters & { actorName?: string }>({});
  const [pages, setPages] = useState(1);
  const { actorName, ...sent } = filters;
  const list = useAsync(async (): Promise<Page> => {
    const events: AuditEvent[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < pages; page++) {
      const answer = await api.auditEvents(org.id, sent, cursor);
      events.push(...answer.data);
      cursor = answer.nextCursor ?? undefined;
      if (!cursor) break;
    }
    return { events, nextCursor: cursor ?? null };
  }, [org.id, pages, JSON.stringify(sent)]);
  const filter = (change: Partial<typeof filters>) => {
    setPages(1);
    setFilters((current) => Object.fromEntries(Object.entries({ ...current, ...change }).filter(([, v]) => v)));
  };
  return (
    <AdminCard title={<>Audit log of {org.name}</>}>
      <div className={styles.actions}>
        <Field label="Show">
          <Select value={filters.action ?? ''} onChange={(_event, data) => filter({ action: data.value })}>
            {Object.entries(kinds).map(([label, actions]) => (
              <option key={label} value={actions}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="From (UTC day)">
          <Input type="date" value={filters.from ?? ''} onChange={(_event, data) => filter({ from: data.value })} />
        </Field>
        <Field label="To (UTC day)">
          <Input type="date" value={filters.to ?? ''} onChange={(_event, data) => filter({ to: data.value })} />
        </Field>
      </div>
      {actorName && (
        <div className={styles.actions}>
          <Text>Only changes by {actorName}</Text>
          <Button size="small" onClick={() => filter({ actorId: undefined, actorName: undefined })}>
            Everyone
          </Button>
        </div>
      )}
      <Loaded state={list} loading="Loading the audit log…">
        {(data) =>
          data.events.length === 0 ? (
            <Text>Nothing recorded for these filters.</Text>
          ) : (
            <>
              <StackedTable label="Audit log" columns={['When', 'Who', 'What', 'Changes']}>
                {data.events.map((event) => (
                  <TableRow key={event.id}>
                    <TableCell data-label="When" className={styles.cell}>
                      {event.createdAt.replace('T', ' ').slice(0, 19)} UTC
                      <Caption1 className={styles.detail}>from {event.ip ?? 'the command line'}</Caption1>
                    </TableCell>
                    <TableCell data-label="Who" className={styles.cell}>
                      <ActorCell event={event} onlyThem={filter} />
                    </TableCell>
                    <TableCell data-label="What" className={styles.cell}>
                      <Text weight="semibold">{event.action}</Text>
                      <Caption1 className={styles.detail}>
                        {event.target.type} {event.target.id ?? ''}
                      </Caption1>
                    </TableCell>
                    <TableCell
                      // A sign-in or a rotated secret changes no field: no heading over nothing in a narrow window.
                      data-label={Object.keys(event.changes).length > 0 ? 'Changes' : undefined}
                      className={styles.cell}
                    >
                      {Object.entries(event.changes).map(([field, change]) => (
                        <Caption1 key={field} className={styles.detail}>
                          {field}: {shown(change.before)} → {shown(change.after)}
                        </Caption1>
                      ))}
                    </TableCell>
                  </TableRow>
                ))}
              </StackedTable>
              {data.nextCursor && <Button onClick={() => setPages((p) => p + 1)}>Show older events</Button>}
            </>
          )
        }
      </Loaded>
    </AdminCard>
  );
}

function ActorCell({
  event,
  onlyThem,
}: {
  event: AuditEvent;
  onlyThem: (f: AuditFilters & { actorName?: string }) => void;
}) {
  const styles = useAdminStyles();
  const name = event.actor.name || event.actor.email || 'Unknown';
  return (
    <>
      <Text>{name}</Text>
      <Caption1 className={styles.detail}>{event.actor.kind === 'client' ? 'API key' : event.actor.email}</Caption1>
      {event.actor.id && (
        <Button
          size="small"
          appearance="subtle"
          onClick={() => onlyThem({ actorId: event.actor.id!, actorName: name })}
        >
          Only {name}
        </Button>
      )}
    </>
  );
}

const shown = (value: unknown): string =>
  value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);
