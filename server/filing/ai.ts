import type { Logger } from 'pino';
import { z } from 'zod';
import { AI_SENDS, type SuggestionRequest } from '../../shared/filing.js';
import type { Config } from '../config.js';
import type { AiOutcome } from '../metrics/metrics.js';
import type { RankedProject } from './ranker.js';

export const AI_TIMEOUT_MS = 2000;

/**
 * What the provider sees, and nothing more (the admin console's AI switch says the same, from AI_SENDS): the
 * subject, the first 1 000 characters of the body preview, up to 20 attachment names, the sender's and recipients'
 * DOMAINS (never addresses or names), and the local candidates (at most the few suggestions the pane shows) as opaque
 * refs (c1, c2 …) with project name, code and the local reasons with addresses replaced by their domains. Never the
 * organization's other projects, ids, organization names or filing history rows.
 */
function providerPayload(request: SuggestionRequest, candidates: RankedProject[]) {
  const domains = (list: { address: string }[]) => [...new Set(list.map((a) => a.address.split('@')[1] ?? ''))];
  return {
    email: {
      subject: request.subject,
      senderDomain: request.from.address.split('@')[1] ?? '',
      recipientDomains: domains([...request.to, ...request.cc]),
      bodyStart: maskAddresses(request.bodyPreview.slice(0, AI_SENDS.bodyChars)),
      attachmentNames: request.attachmentNames.slice(0, AI_SENDS.attachmentNames),
    },
    candidates: candidates.slice(0, AI_SENDS.candidates).map((c, i) => ({
      ref: `c${i + 1}`,
      projectName: c.projectName,
      projectCode: c.projectCode,
      localEvidence: c.reasons.map(maskAddresses),
    })),
  };
}

const maskAddresses = (text: string) => text.replace(/[a-z0-9._%+-]+@([a-z0-9.-]+\.[a-z]{2,})/gi, '…@$1');

const Ranking = z.object({
  ranking: z.array(z.object({ ref: z.string(), score: z.number().min(0).max(1).optional() })).max(50),
});

const ChatCompletion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1),
});

const instructions =
  'You help file construction-project e-mails. Given an e-mail summary and candidate projects found by a ' +
  'local ranker (refs c1, c2 …), order the likely homes of the e-mail from most to least likely. ' +
  'Answer with JSON only: {"ranking":[{"ref":"c1","score":0.9}, ...]} using the ' +
  'given refs; score is your confidence from 0 to 1. Leave out projects the e-mail does not concern; answer ' +
  '{"ranking":[]} when it concerns none of them (a newsletter, an out-of-office, internal office mail).';

/**
 * Re-ranks the local candidates with an OpenAI-compatible chat-completions endpoint. Returns [] when the
 * provider answers that the e-mail concerns none of the projects, and undefined (the caller keeps the local
 * order) on any failure: timeout, HTTP error, an answer that is not the JSON asked for, or one naming no ref
 * it was given. Each call ends in one `onOutcome` (the metrics' AI counter).
 */
export async function rerankWithProvider(
  ai: NonNullable<Config['ai']>,
  request: SuggestionRequest,
  candidates: RankedProject[],
  log: Logger,
  onOutcome: (outcome: AiOutcome) => void,
): Promise<RankedProject[] | undefined> {
  const signal = AbortSignal.timeout(AI_TIMEOUT_MS);
  try {
    const response = await fetch(`${ai.baseUrl.replace(/\/$/, '')}/chat/completions`, {
      method: 'POST',
      signal,
      headers: {
        'content-type': 'application/json',
        ...(ai.apiKey ? { authorization: `Bearer ${ai.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: ai.model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: instructions },
          { role: 'user', content: JSON.stringify(providerPayload(request, candidates)) },
        ],
      }),
    });
    if (!response.ok) {
      log.warn({ status: response.status }, 'AI provider answered with an error; using the local ranking');
      onOutcome('http_error');
      return undefined;
    }
    const completion = ChatCompletion.parse(await response.json());
    const ranking = Ranking.parse(JSON.parse(completion.choices[0]!.message.content)).ranking;
    // "None of these": the caller drops the weak local suggestions.
    if (ranking.length === 0) {
      onOutcome('none');
      return [];
    }
    const byRef = new Map(candidates.slice(0, AI_SENDS.candidates).map((c, i) => [`c${i + 1}`, c]));
    const ordered: RankedProject[] = [];
    for (const entry of ranking) {
      const candidate = byRef.get(entry.ref);
      if (!candidate || ordered.some((o) => o.projectId === candidate.projectId)) continue;
      ordered.push({
        ...candidate,
        score: entry.score ?? candidate.score,
        decidedBy: 'ai',
        reasons: ['Ranked by the AI assistant', ...candidate.reasons],
      });
    }
    if (ordered.length === 0) {
      onOutcome('no_ranking');
      return undefined;
    }
    onOutcome('reranked');
    // Candidates the provider left out keep their local order after the ones it ranked.
    return [...ordered, ...candidates.filter((c) => !ordered.some((o) => o.projectId === c.projectId))];
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'AI re-ranking failed; using the local ranking');
    const name = (err as Error).name;
    onOutcome(
      name === 'TimeoutError'
        ? 'timeout'
        : err instanceof z.ZodError || err instanceof SyntaxError
          ? 'invalid_answer'
          : 'network_error',
    );
    return undefined;
  }
}
