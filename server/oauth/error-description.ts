import type { RequestHandler } from 'express';

/**
 * The SDK's handlers report a failed schema check as the issues' JSON dump; clients show `error_description`
 * to people, and RFC 6749 §5.2 wants readable text. Each OAuth error body leaves with one short sentence.
 */
export function oneSentence(description: string): string {
  const parameter = firstIssuePath(description);
  if (parameter) return `The parameter ${parameter} is missing or invalid.`;
  const flat = description
    .replace(/["\r\n]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > 0 ? flat.slice(0, 200) : 'The request is invalid.';
}

function firstIssuePath(description: string): string | undefined {
  if (!description.startsWith('[')) return undefined;
  try {
    const issues = JSON.parse(description) as { path?: unknown[] }[];
    const path = issues[0]?.path;
    return Array.isArray(path) && path.length > 0 ? path.join('.') : undefined;
  } catch {
    return undefined;
  }
}

/** Rewrites `error_description` of every JSON OAuth error these routes send. */
export const oneSentenceErrors: RequestHandler = (_req, res, next) => {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const error = body as { error?: unknown; error_description?: unknown } | null;
    if (typeof error?.error === 'string' && typeof error.error_description === 'string')
      return json({ ...error, error_description: oneSentence(error.error_description) });
    return json(body);
  };
  next();
};
