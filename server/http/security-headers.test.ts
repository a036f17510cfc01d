import { describe, expect, it } from 'vitest';
import { f, server } from '../../test/fixture-server.js';
import { addinSignInPath } from '../oauth/browser.fixtures.js';
import { OFFICE_HOSTS } from './security-headers.js';

const directive = (csp: string | null, name: string) =>
  csp
    ?.split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `));

describe('security headers', () => {
  it('sends X-Content-Type-Options: nosniff on every kind of response', async () => {
    const answers = [
      await server.call('/v1/me', { token: f.member.token }),
      await server.call('/v1/me'),
      await server.call('/v1/nothing-here'),
      await server.call('/healthz'),
      await server.call('/v1/openapi.json'),
      await server.call('/docs'),
      await server.call(addinSignInPath(server)),
      await server.call('/.well-known/oauth-authorization-server'),
    ];
    for (const res of answers) expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it("forbids framing the admin console, the API reference and the sign-in pages, and sets each page's CSP", async () => {
    for (const path of ['/admin', '/docs', addinSignInPath(server)]) {
      const res = await server.call(path);
      const csp = res.headers.get('content-security-policy');
      expect(directive(csp, 'frame-ancestors'), path).toBe("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
    }
    const signIn = await server.call(addinSignInPath(server));
    expect(signIn.status).toBe(200);
    expect(signIn.body).toContain('Sign in to Sitefile');
    // The sign-in pages run no script at all.
    expect(directive(signIn.headers.get('content-security-policy'), 'default-src')).toBe("default-src 'none'");
  });

  it('lets the Office hosts frame the add-in pages, and only them', async () => {
    for (const path of ['/addin/taskpane.html', '/addin/auth-callback.html', '/addin/commands.html']) {
      const res = await server.call(path);
      const csp = res.headers.get('content-security-policy');
      expect(directive(csp, 'frame-ancestors'), path).toBe(`frame-ancestors 'self' ${OFFICE_HOSTS.join(' ')}`);
      expect(directive(csp, 'script-src'), path).toBe("script-src 'self' https://appsforoffice.microsoft.com");
      expect(res.headers.get('x-frame-options'), path).toBeNull();
    }
  });
});
