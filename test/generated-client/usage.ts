// Compiled by test/generated-client.test.ts beside `api.d.ts`, which openapi-typescript generates from the live
// /v1/openapi.json: an integrator's code with openapi-fetch. It compiles only while every list answer is typed as
// its page (a `Page | string` answer has no `total`, `data` or `nextCursor`). The test also runs it against the
// test server (through `client`'s middleware) and checks what it received against the document.
import createClient from 'openapi-fetch';
import type { paths } from './api';

export const client = createClient<paths>({ baseUrl: 'http://sitefile.test' });

/** The documents changed since the last sync, one page. */
export async function changedDocuments(orgId: string, projectId: string, since: string, cursor?: string) {
  const { data, error } = await client.GET('/v1/organization/{orgId}/project/{projectId}/documents', {
    params: {
      path: { orgId, projectId },
      query: { 'filter.updatedAt': `${since},`, sortBy: 'updatedAt', sortOrder: 'asc', limit: 50, cursor },
    },
  });
  if (error) throw new Error(`${error.errorCode}: ${error.error}`);
  const total: number = data.total;
  const next: string | null = data.nextCursor;
  const uids: string[] = data.data.map((document) => document.uid);
  return { total, next, uids };
}

/** Open submittals' review outcomes, and the organization feed's actions: two more lists that also export CSV. */
export async function overview(orgId: string, projectId: string) {
  const submittals = await client.GET('/v1/organization/{orgId}/project/{projectId}/document/submittals', {
    params: { path: { orgId, projectId }, query: { 'filter.open': 'true' } },
  });
  const feed = await client.GET('/v1/organization/{orgId}/activity', { params: { path: { orgId } } });
  const outcomes: (string | null)[] = submittals.data?.data.map((s) => s.reviewStatus) ?? [];
  const actions: string[] = feed.data?.data.map((entry) => entry.action) ?? [];
  const more: boolean = feed.data?.hasMore ?? false;
  return { outcomes, actions, more };
}

/** One document and one drawing with its signed URL. */
export async function records(orgId: string, projectId: string, documentUid: string, drawingId: string) {
  const document = await client.GET('/v1/organization/{orgId}/project/{projectId}/documents/{documentUid}', {
    params: { path: { orgId, projectId, documentUid }, query: { include: 'assignees' } },
  });
  const drawing = await client.GET('/v1/organization/{orgId}/project/{projectId}/drawings/{drawingId}', {
    params: { path: { orgId, projectId, drawingId } },
  });
  const title: string | undefined = document.data?.title;
  const url: string | null | undefined = drawing.data?.downloadUrl;
  return { title, url };
}
