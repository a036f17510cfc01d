// A fake OpenAI-compatible provider on a real local port that counts what it receives, for the suggestion tests.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { listenOnLoopback } from '../../test/loopback-server.js';

type Mode = 'reverse' | 'slow' | 'garbage' | 'error';
export const provider = {
  mode: 'reverse' as Mode,
  requests: [] as { path: string; authorization?: string; body: Record<string, unknown> }[],
  server: undefined as Server | undefined,
};

const readJson = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
};

export async function startProvider(): Promise<string> {
  provider.server = createServer(async (req, res) => {
    const body = await readJson(req);
    provider.requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
    if (provider.mode === 'error') {
      res.writeHead(500).end('{"error":"boom"}');
      return;
    }
    if (provider.mode === 'slow') await new Promise((resolve) => setTimeout(resolve, 3500));
    if (provider.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: 'I think the first one, probably.' } }] }));
      return;
    }
    const messages = body.messages as { role: string; content: string }[];
    const payload = JSON.parse(messages.at(-1)!.content) as { candidates: { ref: string }[] };
    // Reverse the local order: proves the provider's ranking is the one returned.
    const ranking = payload.candidates
      .map((c) => c.ref)
      .reverse()
      .map((ref, i) => ({ ref, score: 0.9 - i * 0.1 }));
    if (res.destroyed) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ ranking }) } }] }));
  });
  const { port } = await listenOnLoopback(provider.server);
  return `http://127.0.0.1:${port}/v1`;
}
