import { type Filter, flatten, parse } from 'scim2-parse-filter';
import type { ScimPeopleFilter } from './queries.js';
import { bool, scimError } from './resources.js';

const invalid = (message: string) => scimError('bad_request', 'invalidFilter', message);

/**
 * The `filter` of a Users list, as far as providers use it: equality on userName, externalId, emails (the work
 * address: `emails[type eq "work"].value eq "…"`, flattened by the parser into `emails.type` and `emails.value`)
 * and active, joined by `and`. Entra ID and Okta send one `eq` to find a person before creating them; anything
 * else is a 400 invalidFilter rather than a wrong answer.
 */
export function peopleFilter(query: string | undefined): ScimPeopleFilter {
  if (query === undefined || query.trim() === '') return {};
  let tree: Filter;
  try {
    tree = flatten(parse(query));
  } catch {
    throw invalid('The filter is not a SCIM filter expression');
  }
  const terms = tree.op === 'and' ? (tree as { filters: Filter[] }).filters : [tree];
  const filter: ScimPeopleFilter = {};
  for (const term of terms) {
    if (term.op !== 'eq') throw invalid(`Only eq (joined by and) is supported, not ${term.op}`);
    const { attrPath, compValue } = term as { attrPath: string; compValue: unknown };
    const attribute = attrPath.replace(/^urn:ietf:params:scim:schemas:core:2\.0:User:/i, '').toLowerCase();
    if (attribute === 'emails.type') {
      if (String(compValue).toLowerCase() !== 'work') throw invalid('Only the work e-mail address is kept');
      continue;
    }
    if (attribute === 'active') {
      filter.active = bool(compValue, 'active');
      continue;
    }
    if (typeof compValue !== 'string') throw invalid(`${attrPath} is compared with a string`);
    if (attribute === 'username') filter.userName = compValue;
    else if (attribute === 'externalid') filter.externalId = compValue;
    else if (attribute === 'emails.value' || attribute === 'emails') filter.email = compValue;
    else throw invalid(`Filtering on ${attrPath} is not supported`);
  }
  return filter;
}
