import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { Caller } from '../auth/caller.js';
import type { AppContext } from '../context.js';
import { documentsListTool, submittalsListTool } from './document-tools.js';
import { emailsSearchTool, emailsTimelineTool } from './email-tools.js';
import { explorerTool } from './explorer-tool.js';
import { organizationsListTool, projectsFindTool } from './project-tools.js';
import {
  activityFeedTool,
  directorySearchTool,
  documentReadTool,
  filedEmailReadTool,
  filedEmailsSearchTool,
  reportReadTool,
  reportsListTool,
} from './record-tools.js';
import { registerTool, serveToolList } from './tools.js';

/** Largest number of array elements plus object members one tool call's arguments may hold. */
const MAX_TOOL_INPUT_ELEMENTS = 2000;

/**
 * One MCP server per request, bound to the caller (stateless Streamable HTTP). `validator` is made once
 * by the caller and shared: the SDK's default builds a fresh Ajv instance per server (compiling its
 * meta-schemas, about 2 ms of every call), for elicitation checks these read-only tools never use.
 */
export function buildMcpServer(app: AppContext, caller: Caller, validator: jsonSchemaValidator): McpServer {
  const server = new McpServer(
    { name: 'sitefile', title: 'Sitefile', version: '1.0.0' },
    {
      maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS,
      jsonSchemaValidator: validator,
      instructions:
        'Sitefile holds construction-project documents, submittals, reports, drawings, e-mail dispatch history, ' +
        'e-mails filed from Outlook, the people of each organization and an activity feed. ' +
        'Start with organizations_list, then projects_find to get organization and project ids. All tools are read-only and limited to what you may access.',
    },
  );
  const ctx = { app, caller };
  serveToolList(server, [
    registerTool(server, ctx, organizationsListTool),
    registerTool(server, ctx, projectsFindTool),
    registerTool(server, ctx, explorerTool),
    registerTool(server, ctx, emailsSearchTool),
    registerTool(server, ctx, emailsTimelineTool),
    registerTool(server, ctx, documentsListTool),
    registerTool(server, ctx, submittalsListTool),
    registerTool(server, ctx, filedEmailsSearchTool),
    registerTool(server, ctx, filedEmailReadTool),
    registerTool(server, ctx, reportsListTool),
    registerTool(server, ctx, reportReadTool),
    registerTool(server, ctx, directorySearchTool),
    registerTool(server, ctx, activityFeedTool),
    registerTool(server, ctx, documentReadTool),
  ]);
  return server;
}
