import type { RequestHandler } from 'express';

/** Where Outlook shows add-in pages in a frame: Outlook on the web and Microsoft 365's Office hosts. */
export const OFFICE_HOSTS = [
  'https://*.office.com',
  'https://*.office365.com',
  'https://*.outlook.com',
  'https://outlook.live.com',
  'https://*.officeapps.live.com',
  'https://*.microsoft.com',
  'https://*.sharepoint.com',
] as const;

const policy = (directives: Record<string, string>) =>
  Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');

/** Our own scripts and styles only (Fluent UI and Swagger UI add style elements at run time), same-origin calls. */
const ownPage = {
  'default-src': "'self'",
  'script-src': "'self'",
  'style-src': "'self' 'unsafe-inline'",
  'img-src': "'self' data:",
  'connect-src': "'self'",
  'object-src': "'none'",
  'base-uri': "'self'",
};

/**
 * The Content-Security-Policy of each kind of HTML page, by path prefix. No page but the add-in's may be framed
 * (clickjacking the admin console or the consent page): `frame-ancestors 'none'`, and X-Frame-Options for older
 * browsers. The add-in's pages are framed by Outlook and load office.js from Microsoft's CDN. The sign-in pages
 * run no script at all. No `form-action` on them: browsers apply it to the redirect that follows the consent
 * form, which goes to the client's redirect URI.
 */
const pages: { prefix: string; csp: string; framed: boolean }[] = [
  {
    prefix: '/addin',
    csp: policy({
      ...ownPage,
      'script-src': "'self' https://appsforoffice.microsoft.com",
      'frame-ancestors': `'self' ${OFFICE_HOSTS.join(' ')}`,
    }),
    framed: true,
  },
  { prefix: '/admin', csp: policy({ ...ownPage, 'frame-ancestors': "'none'" }), framed: false },
  { prefix: '/docs', csp: policy({ ...ownPage, 'frame-ancestors': "'none'" }), framed: false },
  {
    prefix: '/oauth',
    csp: policy({
      'default-src': "'none'",
      'style-src': "'unsafe-inline'",
      'img-src': "'self'",
      'frame-ancestors': "'none'",
      'base-uri': "'none'",
    }),
    framed: false,
  },
];

const underPrefix = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** `X-Content-Type-Options: nosniff` on every response; each page kind's CSP (and framing rule) by path. */
export const securityHeaders: RequestHandler = (req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  const page = pages.find((p) => underPrefix(req.path, p.prefix));
  if (page) {
    res.setHeader('Content-Security-Policy', page.csp);
    if (!page.framed) res.setHeader('X-Frame-Options', 'DENY');
  }
  next();
};
