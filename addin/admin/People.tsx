import { Badge, Button, Caption1, TableCell, TableRow, Text } from '@fluentui/react-components';
import { useState } from 'react';
import type { MyOrganization } from '../../shared/me.js';
import type { Member } from '../../shared/members.js';
import type { ApiClient } from '../api/client.js';
import { Loaded } from '../ui/loaded.js';
import { ErrorNotice } from '../ui/notices.js';
import { type Action, useAction } from '../ui/use-action.js';
import { useAsync } from '../ui/use-async.js';
import { AdminCard, StackedTable, useAdminStyles } from './layout.js';

/** The pages of 50 loaded so far, and where the next one starts. */
type Page = { members: Member[]; nextCursor: string | null };

/**
 * The organization's people: change a role, remove someone from the organization, and (staff) disable or enable a
 * person everywhere. Each change holds from the person's next request; the ones that end access ask first.
 */
export function People({ api, org, staff }: { api: ApiClient; org: MyOrganization; staff: boolean }) {
  const styles = useAdminStyles();
  const [pages, setPages] = useState(1);
  const list = useAsync(async (): Promise<Page> => {
    const members: Member[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < pages; page++) {
      const answer = await api.members(org.id, cursor);
      members.push(...answer.data);
      cursor = answer.nextCursor ?? undefined;
      if (!cursor) break;
    }
    return { members, nextCursor: cursor ?? null };
  }, [org.id, pages]);
  // After a change the list reloads; a failure is shown above it.
  const { actionError, act } = useAction(list.reload);
  return (
    <AdminCard title={<>People of {org.name}</>}>
      {actionError !== undefined && <ErrorNotice error={actionError} title="Not changed" />}
      <Loaded state={list} loading="Loading people…">
        {(data) => (
          <>
            <StackedTable label="People" columns={['Person', 'Role', 'Actions']}>
              {data.members.map((member) => (
                <TableRow key={member.uid}>
                  <TableCell className={styles.cell}>
                    <Text weight="semibold">{member.name}</Text>{' '}
                    {member.disabled && (
                      <Badge appearance="tint" color="danger">
                        disabled
                      </Badge>
                    )}
                    <Caption1 className={styles.detail}>{member.email}</Caption1>
                  </TableCell>
                  <TableCell>{member.role}</TableCell>
                  <TableCell>
                    <PersonActions api={api} org={org} member={member} staff={staff} act={act} />
                  </TableCell>
                </TableRow>
              ))}
            </StackedTable>
            {data.nextCursor && <Button onClick={() => setPages((p) => p + 1)}>Show more people</Button>}
          </>
        )}
      </Loaded>
    </AdminCard>
  );
}

function PersonActions({
  api,
  org,
  member,
  staff,
  act,
}: {
  api: ApiClient;
  org: MyOrganization;
  member: Member;
  staff: boolean;
  act: Action;
}) {
  const styles = useAdminStyles();
  const who = `${member.name} (${member.email})`;
  const ask = (question: string, work: () => Promise<unknown>) => {
    if (window.confirm(question)) void act(work);
  };
  return (
    <div className={styles.actions}>
      {member.role === 'member' ? (
        <Button size="small" onClick={() => void act(() => api.setMemberRole(org.id, member.userId, 'admin'))}>
          Make admin
        </Button>
      ) : (
        <Button
          size="small"
          onClick={() =>
            ask(`Make ${who} a member? They stop managing ${org.name} at once.`, () =>
              api.setMemberRole(org.id, member.userId, 'member'),
            )
          }
        >
          Make member
        </Button>
      )}
      <Button
        size="small"
        onClick={() =>
          ask(`Remove ${who} from ${org.name}? They lose access to it and its projects at once.`, () =>
            api.removeMember(org.id, member.userId),
          )
        }
      >
        Remove
      </Button>
      {staff &&
        (member.disabled ? (
          <Button size="small" onClick={() => void act(() => api.setPersonDisabled(member.userId, false))}>
            Enable
          </Button>
        ) : (
          <Button
            size="small"
            onClick={() =>
              ask(`Disable ${who} everywhere? They are signed out at once and cannot sign in.`, () =>
                api.setPersonDisabled(member.userId, true),
              )
            }
          >
            Disable
          </Button>
        ))}
    </div>
  );
}
