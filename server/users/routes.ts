import { OrgPath } from '../../shared/common.js';
import {
  MemberList,
  MemberPath,
  MemberResponse,
  MembersQuery,
  PersonResponse,
  UpdateMemberBody,
  UpdatePersonBody,
  UserPath,
} from '../../shared/members.js';
import { actorOf } from '../audit/service.js';
import { access, defineRoute } from '../http/route.js';
import { changeMemberRole, listMembers, removeMember, setUserDisabled } from './service.js';

const endsAtOnce = 'Takes effect on the next request on every instance: the person’s cached authorization is dropped.';

/** An organization's memberships are its admins' (and staff's) to see and change. */
const orgPeople = { tags: ['People'], access: access.orgAdmin };
/** Changing or ending one membership: what goes wrong is the same for both. */
const oneMembership = {
  ...orgPeople,
  params: MemberPath,
  errors: { 404: 'No such member of the organization', 409: "The organization's last admin" },
};

/** People: an organization's admins (and staff) manage its memberships; staff disable and enable people. */
export const userRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/organization/:orgId/members',
    operationId: 'listOrganizationMembers',
    summary: "The organization's members with their roles (organization admins and staff)",
    description:
      'Ordered by name (case-insensitive), ties by membership uid. `search` matches name, e-mail or company. ' +
      '`disabled` says the person is disabled platform-wide.',
    ...orgPeople,
    params: OrgPath,
    query: MembersQuery,
    responses: { 200: { description: 'A page of members', schema: MemberList } },
    handler: ({ app, params, query }) => listMembers(app, params.orgId, query),
  }),
  defineRoute({
    ...oneMembership,
    method: 'patch',
    path: '/v1/organization/:orgId/members/:userId',
    operationId: 'updateOrganizationMember',
    summary: "Change a member's role (organization admins and staff)",
    description: `${endsAtOnce} Demoting the organization's last admin is a 409.`,
    body: UpdateMemberBody,
    responses: { 200: { description: 'The membership, changed', schema: MemberResponse } },
    handler: async ({ app, req, caller, params, body }) => ({
      data: await changeMemberRole(app, params.orgId, params.userId, body.role, actorOf(caller, req.ip)),
    }),
  }),
  defineRoute({
    ...oneMembership,
    method: 'delete',
    path: '/v1/organization/:orgId/members/:userId',
    operationId: 'removeOrganizationMember',
    summary: 'Remove a person from the organization and its projects (organization admins and staff)',
    description: `${endsAtOnce} The person keeps their account and other memberships. Removing the organization's last admin is a 409.`,
    responses: { 204: { description: 'Removed' } },
    handler: async ({ app, req, caller, params }) => {
      await removeMember(app, params.orgId, params.userId, actorOf(caller, req.ip));
      return undefined;
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/admin/users/:userId',
    operationId: 'adminUpdateUser',
    summary: 'Disable or enable a person (staff)',
    description:
      `${endsAtOnce} A disabled person cannot sign in and every token of theirs (API, add-in, MCP) is refused; ` +
      'enabling them again lets their unexpired sign-ins work again. Disabling yourself is a 409.',
    tags: ['Admin'],
    access: access.staff,
    params: UserPath,
    body: UpdatePersonBody,
    responses: { 200: { description: 'The person, changed', schema: PersonResponse } },
    errors: { 404: 'No such person', 409: 'Disabling yourself' },
    handler: async ({ app, req, caller, params, body }) => ({
      data: await setUserDisabled(app, params.userId, body.disabled, actorOf(caller, req.ip)),
    }),
  }),
];
