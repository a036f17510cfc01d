import type { z } from 'zod';
import {
  ClientList,
  type CreateClientBody,
  CreatedOAuthClient,
  OAuthClient,
  type UpdateClientBody,
} from '../../shared/api-keys.js';
import { AuditEventList } from '../../shared/audit.js';
import { DocumentList } from '../../shared/documents.js';
import { EmailFilingSettingsResponse } from '../../shared/email-filing-settings.js';
import { ErrorBody } from '../../shared/errors.js';
import {
  FiledEmailDetail,
  FiledEmailFoundList,
  FiledEmailList,
  FiledEmailSummary,
  type FileEmailJson,
  FileEmailResult,
  LookupResult,
  type SuggestionRequest,
  SuggestionResult,
} from '../../shared/filing.js';
import { Me } from '../../shared/me.js';
import { MemberList, MemberResponse, PersonResponse } from '../../shared/members.js';
import { ProjectList } from '../../shared/organizations.js';
import { CreatedScimToken, ScimTokenResponse } from '../../shared/scim.js';
import { type SsoConnectionInput, SsoConnectionResponse, SsoDomainResponse } from '../../shared/sso.js';
import { type CreateSupportIssueBody, Runbook, SupportIssueResponse } from '../../shared/support-issues.js';
import {
  CreatedWebhookResponse,
  type CreateWebhookBody,
  WebhookDeliveryPage,
  WebhookDeliveryResponse,
  WebhookList,
  WebhookResponse,
} from '../../shared/webhooks.js';
import { type Connection, createConnection } from './connection.js';

/** A refused or failed API call, in plain words; `retryable` for network and 5xx/429 failures only. */
export class ApiCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errorCode?: string,
  ) {
    super(message);
    this.name = 'ApiCallError';
  }
  get retryable(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

/** Status 0: no answer at all (offline, or the server is down). */
export const unreachable = () =>
  new ApiCallError('Sitefile cannot be reached. Check your connection and try again.', 0);

export const isUnreachable = (error: unknown): boolean => error instanceof ApiCallError && error.status === 0;

/** Retrying helps only where the failure may pass; a refusal (403), a size limit (413) or a bad request stay. */
export const isRetryable = (error: unknown): boolean =>
  !(error instanceof Error && 'retryable' in error) || Boolean((error as { retryable: unknown }).retryable);

export interface TokenSource {
  /** A current access token (refreshed when needed), or undefined when signed out. */
  accessToken(): Promise<string | undefined>;
  /** The server refused the token: sign the user out so they can sign in again. */
  rejected(): void;
}

export type FileTarget = { orgId: string; projectId: string; documentId?: string; note?: string };

/**
 * What lookup may be told besides the Message-ID: a received e-mail's sender, subject and time (ISO), by which a
 * filing made as it was sent is recognised, and its conversation, to say where the rest of it is filed.
 */
export type LookupHints = {
  copy?: { from: string; subject: string; sentAt: string };
  conversationId?: string;
};

/** The JSON filing form, for hosts that cannot hand over the raw message. */
export type FileEmailForm = Omit<FileEmailJson, 'documentId' | 'note'>;
export type SuggestionInput = Omit<SuggestionRequest, 'to' | 'cc' | 'bodyPreview' | 'attachmentNames'> &
  Partial<SuggestionRequest>;

/**
 * The one module that talks to the Sitefile API. Every response is parsed with the shared Zod schema of
 * its route, so a contract drift shows up as a clear error here rather than as a broken screen.
 */
export function createApiClient(tokens: TokenSource, baseUrl = '') {
  const connection = createConnection();
  const call = createCall(tokens, baseUrl, connection);
  return {
    connection,
    me: () => call(Me, '/v1/me'),
    ...organizationCalls(call),
    ...filingCalls(call),
    // --- admin console ---
    /** Key management at one desk: staff see every key (`/v1/admin/clients`, created through `POST /v1/client`);
     *  an organization admin the keys confined to that organization (`/v1/organization/{orgId}/clients`). */
    keys: (desk: KeyDesk) => keyCalls(call, desk),
    ...peopleCalls(call),
    /** An organization's webhook endpoints and their delivery logs (its admins and staff). */
    webhooks: (orgId: string) => webhookCalls(call, orgId),
    ...supportCalls(call),
    /** The organization's SCIM provisioning token: whether there is one, make (or replace) it, revoke it. */
    scimToken: (orgId: string) => ({
      get: () => call(ScimTokenResponse, `/v1/organization/${enc(orgId)}/scim-token`),
      create: () => call(CreatedScimToken, `/v1/organization/${enc(orgId)}/scim-token`, { method: 'POST' }),
      revoke: () => call(null, `/v1/organization/${enc(orgId)}/scim-token`, { method: 'DELETE' }),
    }),
    /** The organization's OpenID Connect identity provider: see, connect or change, disconnect (never the secret). */
    sso: (orgId: string) => ({
      get: () => call(SsoConnectionResponse, `/v1/organization/${enc(orgId)}/sso`),
      save: (json: Partial<SsoConnectionInput>) =>
        call(SsoConnectionResponse, `/v1/organization/${enc(orgId)}/sso`, { method: 'PUT', json }),
      remove: () => call(null, `/v1/organization/${enc(orgId)}/sso`, { method: 'DELETE' }),
      /** Looks up the domain's TXT record: verified when it holds the domain's value. */
      verifyDomain: (domain: string) =>
        call(SsoDomainResponse, `/v1/organization/${enc(orgId)}/sso/domains/${enc(domain)}/verify`, {
          method: 'POST',
        }),
    }),
    /** A page of the organization's audit log, newest first (its admins and staff). */
    auditEvents: (orgId: string, filters: AuditFilters, cursor?: string) => {
      const query = new URLSearchParams({ limit: '25', ...filters, ...(cursor ? { cursor } : {}) });
      return call(AuditEventList, `/v1/organization/${enc(orgId)}/audit-events?${query}`);
    },
  };
}

/** The audit log's filters as the console sends them (empty ones left out). */
export type AuditFilters = Partial<Record<'action' | 'actorId' | 'from' | 'to', string>>;

interface CallOptions {
  method?: string;
  json?: unknown;
  body?: BodyInit;
  contentType?: string;
  /** What a 403 here means for the person: the permission or membership that is missing. */
  forbidden?: string;
}

/** One API call, its answer parsed with `schema` (`null`: no body expected). */
type Call = <T extends z.ZodType>(schema: T | null, path: string, init?: CallOptions) => Promise<z.output<T>>;

function createCall(tokens: TokenSource, baseUrl: string, connection: Connection): Call {
  return async function call<T extends z.ZodType>(
    schema: T | null,
    path: string,
    init: CallOptions = {},
  ): Promise<z.output<T>> {
    const token = await tokens.accessToken().catch((error: unknown) => {
      if (isUnreachable(error)) connection.report(false);
      throw error;
    });
    if (!token) throw new ApiCallError('You are signed out. Sign in to continue.', 401, 'unauthorized');
    let res: Response;
    try {
      res = await fetch(`${baseUrl}${path}`, { method: init.method ?? 'GET', ...requestBody(token, init) });
    } catch {
      connection.report(false);
      throw unreachable();
    }
    connection.report(true);
    const text = await res.text();
    const json = text ? safeJson(text) : undefined;
    if (!res.ok) throw errorFrom(res.status, json, init.forbidden, () => tokens.rejected());
    if (schema === null) return undefined as z.output<T>;
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new ApiCallError(`Sitefile sent an answer this add-in does not understand (${path}).`, res.status);
    }
    return parsed.data;
  };
}

/** The headers and body of a call: JSON when `json` is given, else `body` as `contentType`. */
function requestBody(token: string, init: CallOptions): { headers: Record<string, string>; body?: BodyInit } {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    return { headers, body: JSON.stringify(init.json) };
  }
  if (init.contentType) headers['content-type'] = init.contentType;
  return { headers, body: init.body };
}

/** The organization's projects, their documents and its e-mail filing settings. */
function organizationCalls(call: Call) {
  return {
    /**
     * One page of the organization's projects: by name, or with `search` best match first (words in any order,
     * typos, accents and punctuation ignored). Staff read through the admin route, which sees every project.
     */
    searchProjects: (orgId: string, search: string, limit: number, asStaff = false) => {
      const query = `limit=${limit}${search ? `&search=${encodeURIComponent(search)}` : ''}`;
      return call(
        ProjectList,
        asStaff
          ? `/v1/admin/organizations/${enc(orgId)}/projects?${query}`
          : `/v1/organization/${enc(orgId)}/project?${query}`,
        { forbidden: forbiddenText.projects },
      );
    },

    /** RFIs and submittals of a project matching `search`, for the optional target picker. */
    targetDocuments: (orgId: string, projectId: string, search: string, limit = 20) =>
      call(
        DocumentList,
        `/v1/organization/${enc(orgId)}/project/${enc(projectId)}/documents?format=rfi,submittal&limit=${limit}&sortBy=updatedAt${
          search ? `&search=${encodeURIComponent(search)}` : ''
        }`,
        { forbidden: forbiddenText.documents },
      ),

    /** The organization's e-mail filing settings: members read the organization route, staff the admin one. */
    filingSettings: (orgId: string, asStaff = false) =>
      call(EmailFilingSettingsResponse, filingSettingsPath(orgId, asStaff)).then((answer) => answer.data),
    /** Staff write through the admin route, organization admins through their organization's. */
    setAiSuggest: (orgId: string, aiSuggest: boolean, asStaff = false) =>
      call(EmailFilingSettingsResponse, filingSettingsPath(orgId, asStaff), {
        method: 'PATCH',
        json: { aiSuggest },
      }).then((answer) => answer.data),
  };
}

const filingSettingsPath = (orgId: string, asStaff: boolean) =>
  asStaff
    ? `/v1/admin/organizations/${enc(orgId)}/email-filing-settings`
    : `/v1/organization/${enc(orgId)}/email-filing-settings`;

/** Filing the open e-mail: where it is filed already, suggestions, filing it, searching what was filed. */
function filingCalls(call: Call) {
  return {
    /** Where an e-mail is filed (and, with its hints, a filing made on send of it, and its conversation's). */
    lookup: (internetMessageId: string, hints: LookupHints = {}) => {
      const query = new URLSearchParams({ internetMessageId, ...hints.copy });
      if (hints.conversationId) query.set('conversationId', hints.conversationId);
      return call(LookupResult, `/v1/filed-emails/lookup?${query}`, { forbidden: forbiddenText.readFiled });
    },

    /** The sender's sent copy tells the Message-ID the transport gave an e-mail filed as it was sent. */
    tellSentMessageId: (target: FileTarget, filedEmailId: string, internetMessageId: string) =>
      call(FiledEmailSummary, `${emailsPath(target)}/${enc(filedEmailId)}/sent-message-id`, {
        method: 'PUT',
        json: { internetMessageId },
        forbidden: forbiddenText.file,
      }),

    suggestions: (request: SuggestionInput) =>
      call(SuggestionResult, '/v1/filing/suggestions', {
        method: 'POST',
        json: request,
        forbidden: forbiddenText.readFiled,
      }),

    /** Files the original MIME message (all of its attachments travel inside it). */
    fileRaw(target: FileTarget, mime: Uint8Array, conversationId?: string) {
      const query = new URLSearchParams();
      if (target.documentId) query.set('documentId', target.documentId);
      if (target.note) query.set('note', target.note);
      if (conversationId) query.set('conversationId', conversationId);
      const suffix = query.size ? `?${query}` : '';
      return call(FileEmailResult, `${emailsPath(target)}${suffix}`, {
        method: 'POST',
        body: mime as BodyInit,
        contentType: 'message/rfc822',
        forbidden: forbiddenText.file,
      });
    },

    fileForm: (target: FileTarget, form: FileEmailForm) =>
      call(FileEmailResult, emailsPath(target), {
        method: 'POST',
        json: { ...form, documentId: target.documentId, note: target.note },
        forbidden: forbiddenText.file,
      }),

    /** Undoes a filing: the e-mail is no longer filed in that project. */
    unfile: (target: FileTarget, emailId: string) =>
      call(null, `${emailsPath(target)}/${enc(emailId)}`, { method: 'DELETE', forbidden: forbiddenText.file }),

    /** Moves a filing to another project of the same organization. */
    moveFiled: (target: FileTarget, emailId: string, to: { projectId: string; documentId?: string }) =>
      call(FileEmailResult, `${emailsPath(target)}/${enc(emailId)}/move`, {
        method: 'POST',
        json: to,
        forbidden: forbiddenText.file,
      }),

    filedEmail: (orgId: string, projectId: string, emailId: string) =>
      call(FiledEmailDetail, `/v1/organization/${enc(orgId)}/project/${enc(projectId)}/emails/${enc(emailId)}`, {
        forbidden: forbiddenText.readFiled,
      }),

    /** Every filed e-mail the person may read, in all projects of all their organizations. */
    searchAllFiled: (search: string, cursor?: string) =>
      call(FiledEmailFoundList, `/v1/filed-emails?${searchQuery(search, cursor)}`, {
        forbidden: forbiddenText.readFiled,
      }),

    searchFiled: (orgId: string, projectId: string, search: string, cursor?: string) =>
      call(
        FiledEmailList,
        `/v1/organization/${enc(orgId)}/project/${enc(projectId)}/emails?${searchQuery(search, cursor)}`,
        { forbidden: forbiddenText.readFiled },
      ),
  };
}

/** A page of 25 for a search box: the trimmed text, if any, and the next page's cursor. */
function searchQuery(search: string, cursor: string | undefined): URLSearchParams {
  const query = new URLSearchParams({ limit: '25' });
  if (search.trim()) query.set('search', search.trim());
  if (cursor) query.set('cursor', cursor);
  return query;
}

function keyCalls(call: Call, desk: KeyDesk) {
  const base = desk === 'staff' ? '/v1/admin/clients' : `/v1/organization/${enc(desk.orgId)}/clients`;
  return {
    list: (cursor?: string) =>
      call(ClientList, `${base}?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
    create: (body: CreateClientBody) =>
      call(CreatedOAuthClient, desk === 'staff' ? '/v1/client' : base, { method: 'POST', json: body }),
    update: (id: string, body: UpdateClientBody) =>
      call(OAuthClient, `${base}/${enc(id)}`, { method: 'PATCH', json: body }),
    rotate: (id: string) => call(CreatedOAuthClient, `${base}/${enc(id)}/rotate-secret`, { method: 'POST' }),
    remove: (id: string) => call(null, `${base}/${enc(id)}`, { method: 'DELETE' }),
  };
}

/** An organization's members (its admins and staff), and disabling a person (staff). */
function peopleCalls(call: Call) {
  const membersPath = (orgId: string) => `/v1/organization/${enc(orgId)}/members`;
  return {
    members: (orgId: string, cursor?: string) =>
      call(MemberList, `${membersPath(orgId)}?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
    setMemberRole: (orgId: string, userId: string, role: 'admin' | 'member') =>
      call(MemberResponse, `${membersPath(orgId)}/${enc(userId)}`, { method: 'PATCH', json: { role } }).then(
        (answer) => answer.data,
      ),
    removeMember: (orgId: string, userId: string) =>
      call(null, `${membersPath(orgId)}/${enc(userId)}`, { method: 'DELETE' }),
    setPersonDisabled: (userId: string, disabled: boolean) =>
      call(PersonResponse, `/v1/admin/users/${enc(userId)}`, { method: 'PATCH', json: { disabled } }).then(
        (answer) => answer.data,
      ),
  };
}

/** An organization's webhook endpoints and their delivery logs (its admins and staff). */
function webhookCalls(call: Call, orgId: string) {
  const base = `/v1/organization/${enc(orgId)}/webhooks`;
  return {
    list: () => call(WebhookList, base).then((answer) => answer.data),
    create: (body: z.input<typeof CreateWebhookBody>) =>
      call(CreatedWebhookResponse, base, { method: 'POST', json: body }).then((answer) => answer.data),
    remove: (id: string) => call(null, `${base}/${enc(id)}`, { method: 'DELETE' }),
    setEnabled: (id: string, enabled: boolean) =>
      call(WebhookResponse, `${base}/${enc(id)}`, { method: 'PATCH', json: { enabled } }).then((answer) => answer.data),
    /** The newest 25 deliveries, each with its attempts. */
    deliveries: (id: string) =>
      call(WebhookDeliveryPage, `${base}/${enc(id)}/deliveries?limit=25`).then((answer) => answer.data),
    test: (id: string) => call(WebhookDeliveryResponse, `${base}/${enc(id)}/test`, { method: 'POST' }),
  };
}

/** Staff's runbook and support issues. */
function supportCalls(call: Call) {
  return {
    runbook: (search: string, cursor?: string) => call(Runbook, `/v1/admin/runbook?${searchQuery(search, cursor)}`),
    createSupportIssue: (body: CreateSupportIssueBody) =>
      call(SupportIssueResponse, '/v1/admin/support-issues', { method: 'POST', json: body }).then((r) => r.data),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** Where keys are managed: the staff desk, or one organization's (its admins). */
export type KeyDesk = 'staff' | { orgId: string };

const enc = encodeURIComponent;
const emailsPath = (t: FileTarget) => `/v1/organization/${enc(t.orgId)}/project/${enc(t.projectId)}/emails`;

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What a refusal (403) means for each thing the add-in does: which permission or membership is missing. */
const forbiddenText = {
  projects:
    'Your account may not list the projects of this organization: it needs the project:read permission there. Ask an admin of the organization.',
  documents:
    'Your account may not see the RFIs and submittals of this project: it needs to be on the project with the document:read permission. Ask an admin of the organization to add you.',
  file: 'You cannot file into this project: your account needs to be on the project with the document:read permission. Ask an admin of the organization to add you, or choose another project.',
  readFiled:
    'Your account may not see filed e-mails: it needs the email:read permission. Ask an admin of your organization.',
} as const;

/** The error a person reads: the server's message where it gave one, plain words otherwise. */
function errorFrom(status: number, json: unknown, forbidden: string | undefined, signOut: () => void): ApiCallError {
  const body = ErrorBody.safeParse(json);
  if (status === 401) {
    signOut();
    return new ApiCallError('Your sign-in has expired. Sign in again to continue.', 401, 'unauthorized');
  }
  if (status === 403) {
    return new ApiCallError(forbidden ?? 'Your account does not have the permission this needs.', 403, 'forbidden');
  }
  if (status === 413)
    return new ApiCallError(
      'This e-mail is larger than the 25 MB Sitefile accepts. Leave out some attachments and file it again.',
      status,
      'payload_too_large',
    );
  if (body.success) {
    const detail = body.data.details?.map((d) => `${d.path}: ${d.message}`).join('; ');
    return new ApiCallError(detail ? `${body.data.error} (${detail})` : body.data.error, status, body.data.errorCode);
  }
  if (status === 429) return new ApiCallError('Too many requests just now. Wait a moment and try again.', status);
  return new ApiCallError(`Sitefile could not complete the request (HTTP ${status}). Try again.`, status);
}
