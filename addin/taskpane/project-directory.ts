import { useCallback, useMemo, useState } from 'react';
import type { ApiClient } from '../api/client.js';
import type { MailHost } from './mail-host.js';

export interface ProjectOption {
  orgId: string;
  orgName: string;
  projectId: string;
  name: string;
  code: string | null;
}

/** Projects shown at once: the server answers a page of this many per organization; typing narrows further. */
export const PROJECTS_SHOWN = 20;
/** Recent projects kept in the person's roaming settings, newest first. */
const MAX_RECENT = 5;
const recentSetting = 'sitefileRecentProjects';

export interface ProjectMatches {
  options: ProjectOption[];
  /** More projects match than are shown: typing more narrows the list. */
  more: boolean;
}

/** An option's value in a picker: a project id is unique, the organization makes it plain. */
export const optionKey = (p: { orgId: string; projectId: string }) => `${p.orgId}/${p.projectId}`;

/**
 * Every project the person may file into, asked of the server as they type (name, code or alias, any number of
 * projects), and their recent projects (kept in Outlook's roaming settings) to put on top.
 */
export interface ProjectDirectory {
  find(text: string): Promise<ProjectMatches>;
  /** The person belongs to several organizations: labels name the organization. */
  manyOrgs: boolean;
  recent: readonly ProjectOption[];
  /** Puts the project on top of the recent ones (after it was filed into). */
  remember(project: ProjectOption): void;
  /** The option for a project known by its ids and name (a suggestion, a mark). */
  option(orgId: string, projectId: string, name: string): ProjectOption;
}

export function useProjectDirectory(
  api: ApiClient,
  host: MailHost,
  orgs: readonly { id: string; name: string }[] | undefined,
): ProjectDirectory | undefined {
  const [recent, setRecent] = useState<readonly ProjectOption[]>(() =>
    parseRecent(host.readRoamingSetting(recentSetting)),
  );
  const remember = useCallback(
    (project: ProjectOption) => {
      setRecent((list) => {
        const next = [project, ...list.filter((p) => optionKey(p) !== optionKey(project))].slice(0, MAX_RECENT);
        // A failed save loses only the ordering of a convenience list: the filing itself is done.
        host.writeRoamingSetting(recentSetting, JSON.stringify(next)).catch(() => undefined);
        return next;
      });
    },
    [host],
  );
  const find = useMemo(() => (orgs ? findIn(api, orgs) : undefined), [api, orgs]);
  return useMemo(() => {
    if (!orgs || !find) return undefined;
    const names = new Map(orgs.map((o) => [o.id, o.name]));
    return {
      find,
      manyOrgs: orgs.length > 1,
      // Only organizations the person still belongs to.
      recent: recent.filter((p) => names.has(p.orgId)),
      remember,
      option: (orgId, projectId, name) => ({ orgId, orgName: names.get(orgId) ?? '', projectId, name, code: null }),
    };
  }, [orgs, find, recent, remember]);
}

/** The projects of these organizations without recent ones (the admin console, which has no Outlook settings). */
export function searchOnlyDirectory(api: ApiClient, orgs: readonly { id: string; name: string }[]): ProjectDirectory {
  const names = new Map(orgs.map((o) => [o.id, o.name]));
  return {
    find: findIn(api, orgs),
    manyOrgs: orgs.length > 1,
    recent: [],
    remember: () => undefined,
    option: (orgId, projectId, name) => ({ orgId, orgName: names.get(orgId) ?? '', projectId, name, code: null }),
  };
}

/**
 * One page per organization, asked together. Without a search, merged by name; with one, each page comes best
 * match first and they are merged rank by rank (each organization's best, then each one's second…), so no
 * organization's best match is pushed below another's weaker ones.
 */
function findIn(api: ApiClient, orgs: readonly { id: string; name: string }[]) {
  return async (text: string): Promise<ProjectMatches> => {
    const search = text.trim();
    const pages = await Promise.all(orgs.map((org) => api.searchProjects(org.id, search, PROJECTS_SHOWN)));
    const lists = orgs.map((org, i) =>
      pages[i]!.data.map((p) => ({ orgId: org.id, orgName: org.name, projectId: p.id, name: p.name, code: p.code })),
    );
    const all = search
      ? Array.from({ length: PROJECTS_SHOWN }, (_, rank) => lists.flatMap((list) => list[rank] ?? [])).flat()
      : lists.flat().sort((a, b) => a.name.localeCompare(b.name) || a.orgName.localeCompare(b.orgName));
    return { options: all.slice(0, PROJECTS_SHOWN), more: all.length > PROJECTS_SHOWN || pages.some((p) => p.hasMore) };
  };
}

function parseRecent(value: unknown): ProjectOption[] {
  if (typeof value !== 'string') return [];
  try {
    const list = JSON.parse(value) as unknown;
    if (!Array.isArray(list)) return [];
    return list.filter(
      (p): p is ProjectOption =>
        typeof p?.orgId === 'string' &&
        typeof p.orgName === 'string' &&
        typeof p.projectId === 'string' &&
        typeof p.name === 'string' &&
        (p.code === null || typeof p.code === 'string'),
    );
  } catch {
    return [];
  }
}
