// The contract's success side, checked on every answer the test suite receives through the harness
// (`TestServer.request`/`call`): a 2xx JSON body must be valid against the schema the OpenAPI document declares for
// its operation and status. The documented-errors prober checks the error side; this sees the real bodies every
// test provokes, which no prober could invent. SCIM answers (`application/scim+json`, on /scim/v2) are checked
// whatever their status (`keepsScimContract`): RFC 7644's errors are part of what an identity provider reads.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '../server/http/openapi.js';
import { allRoutes, documentedSections } from '../server/routes.js';

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked generically
type Doc = any;

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  // biome-ignore lint/suspicious/noExplicitAny: see above
  responses: Record<string, any>;
}

export interface ResponseContract {
  /**
   * Why `body` (the answer to `method url` with `status`, of `mediaType`; undefined: no body) breaks the document,
   * or undefined when it keeps it.
   */
  check(method: string, url: string, status: number, body: unknown, mediaType?: string): string | undefined;
}

/** A checker for the given document (the suite's own by default, built in-process once per test file). */
export function responseContract(doc: Doc): ResponseContract {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'openapi.json', components: doc.components });
  const operations: Operation[] = Object.entries<Record<string, Doc>>(doc.paths).flatMap(([template, item]) =>
    Object.entries(item).map(([method, op]) => ({
      method: method.toUpperCase(),
      template,
      // A parameter is one path segment; literal segments win over parameters (sorted below).
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^/}]+\\?\}/g, '[^/]+')}$`),
      responses: op.responses ?? {},
    })),
  );
  // `/v1/x/mine` before `/v1/x/{id}`: fewer parameters first.
  const parameters = (t: string) => (t.match(/\{/g) ?? []).length;
  operations.sort((a, b) => parameters(a.template) - parameters(b.template));
  const validators = new Map<string, ValidateFunction>();

  return {
    check(method, url, status, body, mediaType = 'application/json') {
      // The plural aliases (`/v1/organizations/...`, `/projects/...`) answer as the documented singular paths.
      const pathname = new URL(url).pathname
        .replace(/^\/v1\/organizations\//, '/v1/organization/')
        .replace(/(\/v1\/organization\/[^/]+)\/projects\//, '$1/project/');
      const op = operations.find((o) => o.method === method && o.pattern.test(pathname));
      if (!op) return undefined; // not an API operation (the add-in's files, discovery documents)
      const where = `${method} ${op.template} → ${status}`;
      const declared = op.responses[String(status)];
      if (!declared) return `${where}: status not documented`;
      if (body === undefined) return declared.content ? `${where}: no body where the document declares one` : undefined;
      const schema = declared.content?.[mediaType]?.schema;
      if (!schema) return `${where}: a ${mediaType} body where the document declares none`;
      const key = `${op.method} ${op.template} ${status} ${mediaType}`;
      let validate = validators.get(key);
      if (!validate) {
        validate = ajv.compile(refsToDocument(schema));
        validators.set(key, validate);
      }
      if (validate(body)) return undefined;
      return `${where}: body ${JSON.stringify(body).slice(0, 400)} does not match its schema: ${ajv.errorsText(validate.errors)}`;
    },
  };
}

const SCIM_JSON = 'application/scim+json';

/**
 * Throws when an answer on /scim/v2 breaks the document: not `application/scim+json` (when it has a body), a status
 * its operation does not declare, or a body its schema refuses. For tests that fetch SCIM by themselves.
 */
export function keepsScimContract(
  method: string,
  answer: { url: string; status: number; headers: Headers },
  body: unknown,
  contract = suiteResponseContract(),
): void {
  const type = answer.headers.get('content-type') ?? '';
  const problem =
    body !== undefined && !type.startsWith(SCIM_JSON)
      ? `${method} ${new URL(answer.url).pathname} → ${answer.status}: answered as ${type}, not ${SCIM_JSON}`
      : contract.check(method.toUpperCase(), answer.url, answer.status, body, SCIM_JSON);
  if (problem) throw new Error(`SCIM answer breaks the OpenAPI contract: ${problem}`);
}

/** Points the operation's local `#/components/...` references at the whole document registered in Ajv. */
const refsToDocument = (schema: unknown): object =>
  JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"openapi.json#/'));

let suiteContract: ResponseContract | undefined;
/** The contract of the routes this code base declares (built on first use; a test file's servers share it). */
export const suiteResponseContract = (): ResponseContract =>
  (suiteContract ??= responseContract(buildOpenApiDocument(allRoutes(), documentedSections(), 'http://sitefile.test')));
