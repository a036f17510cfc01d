import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

/** The MCP SDK's client side of OAuth, kept in memory, as an agent (Claude, Inspector) would keep it. */
export class AgentOAuth implements OAuthClientProvider {
  readonly redirectUrl = 'http://127.0.0.1:33418/callback';
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  /** `clientName` is what the agent registers as; `stateValue` the OAuth state it sends and expects back. */
  constructor(
    private readonly clientName: string,
    private readonly stateValue: string,
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    };
  }
  state = () => this.stateValue;
  clientInformation = () => this.information;
  saveClientInformation = (info: OAuthClientInformationMixed) => {
    this.information = info;
  };
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => {
    this.saved = tokens;
  };
  redirectToAuthorization = (url: URL) => {
    this.authorizationUrl = url;
  };
  saveCodeVerifier = (verifier: string) => {
    this.verifier = verifier;
  };
  codeVerifier = () => this.verifier;
}
